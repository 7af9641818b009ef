// The request engine's face and a run's life: start, add, hold, pause, resume, cancel, the
// ticker (leases, foreign rows, shares, progress) and the end. The work is done by its parts:
// planning.ts (jobs in), dispatch.ts (sending), outcomes.ts (retry and outage policy),
// commits.ts (group commit and the store's stall), foreign-rows.ts, early-warning.ts,
// lane-registry.ts, lane-shares.ts, spend.ts and run-snapshot.ts, tied together by
// engine-context.ts.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { createAdapter } from '../providers/index';
import { DEFAULT_PRICES } from '../providers/pricing';
import { endLease, LEASE_MS, LEASE_RENEW_MS, renewLeases, takeLease, type Lease } from '../store/leases';
import { SHARE_REFRESH_MS } from '../store/rate-shares';
import { GroupCommit } from './commits';
import { Dispatcher } from './dispatch';
import { EarlyWarning } from './early-warning';
import type { EngineContext } from './engine-context';
import {
  EARLY_WARNING,
  STDERR_LOGGER,
  STORE_RETRY,
  type CommittedEvent,
  type Job,
  type PausedEvent,
  type RequestEngineOptions,
  type RunOptions,
} from './engine-types';
import { ForeignRowWatch } from './foreign-rows';
import { LaneRegistry } from './lane-registry';
import { endShares, refreshShares } from './lane-shares';
import { OutcomePolicy } from './outcomes';
import { dropReserve, isStoreFault, replayPendingAnswers, reserveSideFile } from './pending-answers';
import { plan } from './planning';
import type { RunProgress, RunSummary } from './progress';
import { DEFAULT_RETRY_POLICY } from './retry-policy';
import { RunState } from './run-state';
import { snapshot } from './run-snapshot';

export {
  EARLY_WARNING,
  modelLimitKey,
  STORE_RETRY,
  type CommittedEvent,
  type EngineLogger,
  type Job,
  type PausedEvent,
  type ReadAnswer,
  type RequestEngineOptions,
  type RunOptions,
  type StoreRetry,
  type StoredOutcome,
} from './engine-types';

/**
 * Sends ledger requests at the providers' rate limits, retries what is worth retrying,
 * writes every outcome to the ledger in batches, and reports progress.
 */
export class RequestEngine {
  private readonly ctx: EngineContext;
  private readonly dispatcher: Dispatcher;
  private readonly progressIntervalMs: number;
  private readonly watchIntervalMs: number;
  private readonly events = new EventEmitter();
  private run_: RunState | null = null;
  /** Who holds this engine's rate shares: one holder across its runs (an experiment's rounds). */
  private readonly shareHolder: Lease = { owner: randomUUID(), pid: process.pid, host: hostname() };

  constructor(opts: RequestEngineOptions) {
    const now = opts.now ?? Date.now;
    const logger = opts.logger ?? STDERR_LOGGER;
    const lanes = new LaneRegistry({
      providers: opts.providers,
      keys: opts.keys,
      modelLimits: opts.modelLimits ?? {},
      makeAdapter: opts.createAdapter ?? createAdapter,
      now,
      logger,
      onPaused: (e) => this.events.emit('paused', e satisfies PausedEvent),
    });
    // The parts reach each other through the context; they are set right below.
    const ctx = {
      db: opts.db,
      logger,
      now,
      random: opts.random ?? Math.random,
      policy: { ...DEFAULT_RETRY_POLICY, ...opts.retry },
      prices: opts.prices ?? DEFAULT_PRICES,
      storeRetry: { ...STORE_RETRY, ...opts.storeRetry },
      lanes,
      warning: new EarlyWarning(opts.db, (lane, kind, reason, label) =>
        lanes.pause(lane, kind, reason, label),
      ),
      current: () => this.run_,
      pump: () => this.pump(),
      guarded: (r, fn) => this.guarded(r, fn),
      abort: (r, err) => this.abort(r, err),
      checkFinished: () => this.checkFinished(),
      emitCommitted: (ids) => this.emitCommitted(ids),
    } as Omit<EngineContext, 'commits' | 'outcomes' | 'foreign'> as EngineContext;
    Object.assign(ctx, {
      commits: new GroupCommit(ctx),
      outcomes: new OutcomePolicy(ctx),
      foreign: new ForeignRowWatch(ctx),
    });
    this.ctx = ctx;
    this.dispatcher = new Dispatcher(ctx);
    this.progressIntervalMs = opts.progressIntervalMs ?? 250;
    this.watchIntervalMs = opts.watchIntervalMs ?? this.progressIntervalMs;
    this.events.setMaxListeners(50);
  }

  on(event: 'progress', listener: (p: RunProgress) => void): () => void;
  on(event: 'paused', listener: (p: PausedEvent) => void): () => void;
  on(event: 'committed', listener: (p: CommittedEvent) => void): () => void;
  on(
    event: 'progress' | 'paused' | 'committed',
    listener: (p: RunProgress & PausedEvent & CommittedEvent) => void,
  ): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  /** Stop starting new calls; calls on the wire finish and are recorded. */
  pause(): void {
    this.run_?.paused();
  }

  /**
   * Lets a lane paused by the early warning send again (the person looked and chose to go
   * on); its groups are no longer watched. Returns false when no such lane is paused.
   */
  resumeWatched(label: string): boolean {
    let resumed = false;
    for (const lane of this.ctx.lanes.values()) {
      if (lane.paused?.kind !== EARLY_WARNING || lane.paused.label !== label) continue;
      lane.paused = null;
      resumed = true;
    }
    this.ctx.warning.stopWatching(this.run_, label);
    if (resumed) this.pump();
    return resumed;
  }

  /** Continue after pause(); also retries endpoint+models paused by an error (e.g. after fixing a key). */
  resume(): void {
    const r = this.run_;
    if (!r?.resumed()) return;
    for (const lane of this.ctx.lanes.values()) {
      // A lane the early warning paused is resumed on its own (resumeWatched), after a look.
      if (lane.paused && lane.paused.kind !== 'config' && lane.paused.kind !== EARLY_WARNING) {
        lane.paused = null;
        lane.consecutiveBadRequests = 0;
      }
    }
    this.pump();
  }

  /** Stop sending, let calls on the wire settle, leave everything else pending. Resolves when run() has. */
  cancel(): Promise<void> {
    const r = this.run_;
    if (!r) return Promise.resolve();
    if (r.cancelled()) this.pump();
    return r.finished.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Runs the jobs to the end (or to cancel, or until only paused endpoints are left). One run
   * at a time; more jobs may join it with add(). Rejects only when the store cannot be written
   * (nothing half-written is kept).
   */
  async run(jobs: readonly Job[], opts: RunOptions = {}): Promise<RunSummary> {
    if (this.run_) throw new Error('RequestEngine: a run is already going');
    const { ctx } = this;
    const state = new RunState(ctx.now(), opts, takeLease());
    this.run_ = state;
    try {
      // Answers an earlier run received but could not store are stored before anything is sent.
      replayPendingAnswers(ctx.db, (m) => ctx.logger.warn(m));
      state.sideFileReserved(reserveSideFile(ctx.db, state.lease.owner));
      if (!opts.continuing) this.retryPausedLanes();
      plan(ctx, state, jobs);
      this.refreshShares(state);
      this.pump();
      state.tickerStarted(
        setInterval(() => this.guarded(state, () => this.tick(state)), this.progressIntervalMs),
      );
      this.checkFinished();
      return await state.finished;
    } finally {
      state.timersStopped();
      endShares(ctx.db, this.shareHolder, ctx.lanes.values(), ctx.now());
      endLease(state.lease);
      dropReserve(state.reserve);
      this.run_ = null;
    }
  }

  /**
   * Jobs join the run going now (a later stage's tasks whose inputs just arrived): lanes,
   * groups, progress, the early warning, pause and cancel apply to them as to the first ones.
   * A request the run already has is not added again. Returns how many jobs joined: none
   * while the run is being cancelled. Throws when no run is going (or it has ended): the
   * caller starts a new run instead, so no job is silently left unsent.
   */
  add(jobs: readonly Job[]): number {
    const r = this.run_;
    if (!r || r.settled) throw new Error('RequestEngine.add: no run is going; start one with run()');
    if (r.state === 'cancelling') return 0;
    const fresh: Job[] = [];
    const seen = new Set<number>();
    for (const j of jobs) {
      if (r.known.has(j.requestId) || seen.has(j.requestId)) continue;
      seen.add(j.requestId);
      fresh.push(j);
    }
    if (!fresh.length) return 0;
    const lanesBefore = new Set(r.units.map((u) => u.lane));
    const added = plan(this.ctx, r, fresh);
    // A lane new to this run takes its share of the model's budget now, not at the next refresh.
    if (added.some((u) => !lanesBefore.has(u.lane))) this.refreshShares(r);
    this.pump();
    return fresh.length;
  }

  /**
   * Keeps the run from ending while the caller may still add jobs (it is planning from the
   * answers just stored). Returns the release; the run ends once nothing is held or waiting.
   */
  hold(): () => void {
    const r = this.run_;
    if (!r || r.settled) return () => {};
    r.held();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      r.released();
      if (r === this.run_ && !r.settled) this.pump();
    };
  }

  /**
   * Error pauses and outages from an earlier run are retried: a new run is the user trying
   * again. A run that continues the one before (RunOptions.continuing: an experiment's later
   * round) is not, so a lane paused for its rejections is not sent a new burst each round. An
   * early-warning pause stays until the person resumes that lane.
   */
  private retryPausedLanes(): void {
    for (const lane of this.ctx.lanes.values()) {
      if (lane.paused?.kind !== EARLY_WARNING) lane.paused = null;
      lane.clearOutage();
    }
  }

  private pump(): void {
    const r = this.run_;
    if (!r?.pumpQueuedNow()) return;
    setImmediate(() => {
      r.pumpRan();
      this.guarded(r, () => this.dispatcher.dispatch());
    });
  }

  /**
   * Runs engine work started by a timer or a settled call. A store that cannot be written
   * ends the run with that error; it must never escape as an uncaught exception.
   */
  private guarded(r: RunState, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.abort(r, err);
    }
  }

  private abort(r: RunState, err: unknown): void {
    this.ctx.logger.warn(`run stopped: ${err instanceof Error ? err.message : String(err)}`);
    if (r.settled || r !== this.run_) return;
    r.faulted(err);
    this.pump();
  }

  private emitCommitted(ids: number[]): void {
    try {
      this.events.emit('committed', { ids } satisfies CommittedEvent);
    } catch (err) {
      // A listener's bug must not undo or stop the run: the rows are stored already.
      this.ctx.logger.warn(
        `a 'committed' listener failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  private refreshShares(r: RunState): void {
    if (refreshShares(this.ctx.db, this.shareHolder, r, this.ctx.now(), this.ctx.logger)) this.pump();
  }

  private tick(r: RunState): void {
    const now = Date.now();
    try {
      if (now - r.leaseRenewedAt >= LEASE_RENEW_MS) {
        r.leaseRenewed(now);
        renewLeases(this.ctx.db, r.lease, now + LEASE_MS);
      }
      // Both write the store: they wait while it cannot be written.
      if (!r.stall && now - r.watchedAt >= this.watchIntervalMs) {
        r.foreignWatched(now);
        this.ctx.foreign.watch(r);
      }
      if (!r.stall && now - r.sharedAt >= SHARE_REFRESH_MS) this.refreshShares(r);
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      this.ctx.commits.enterStall(r, err);
    }
    this.emitProgress();
  }

  private checkFinished(): void {
    const r = this.run_;
    if (!r || r.settled) return;
    if (r.active > 0 || r.pumpQueued) return;
    const { commits } = this.ctx;
    if (r.fatal === undefined) commits.commit(r);
    // A run stopped by another fault still keeps the answers it could not store.
    else if (r.writes.length) commits.spill(r);
    if (r.stall && !commits.stallEnds(r)) return;
    let waiting = r.foreign.size;
    let waitingUnpaused = r.foreign.size;
    for (const lane of this.ctx.lanes.values()) {
      const n = lane.readyCount + lane.delayedCount;
      waiting += n;
      if (!lane.paused) waitingUnpaused += n;
    }
    let outcome: RunSummary['outcome'] | null = null;
    if (r.state === 'cancelling') outcome = 'cancelled';
    // The caller may still add jobs (hold()): neither finished nor blocked yet.
    else if (r.holds > 0) return;
    else if (waiting === 0) outcome = 'finished';
    else if (waitingUnpaused === 0 && r.state === 'running') outcome = 'blocked';
    if (!outcome) return;
    if (outcome !== 'finished') this.ctx.foreign.releaseWaiting(r);
    r.settle();
    if (r.fatal !== undefined) {
      r.end(null);
      return;
    }
    const summary: RunSummary = { ...snapshot(r, this.ctx.lanes.values(), outcome, this.ctx.now()), outcome };
    this.events.emit('progress', summary);
    r.end(summary);
  }

  private emitProgress(): void {
    const r = this.run_;
    if (!r || r.settled) return;
    const state = r.state === 'running' ? 'running' : r.state === 'paused' ? 'paused' : 'cancelling';
    this.events.emit('progress', snapshot(r, this.ctx.lanes.values(), state, this.ctx.now()));
  }
}

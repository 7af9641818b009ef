import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { endpointId, missingKeyMessage, type KeyStore, type ProviderConfig } from '../providers/config';
import { classifyError, ProviderError } from '../providers/errors';
import { createAdapter } from '../providers/index';
import { costOf, DEFAULT_PRICES, type PriceTable } from '../providers/pricing';
import { estimateInputTokens } from '../providers/tokens';
import type { ChatAdapter, ChatRequestSpec, ChatResult, Usage } from '../providers/types';
import type { Database } from '../store/db';
import {
  applyCompletions,
  claimPendingRequests,
  failUnsent,
  getPlanRows,
  getRequestJson,
  recoverInFlight,
  specFromStored,
  type Completion,
  type PlanRow,
} from '../store/ledger';
import {
  endLease,
  LEASE_MS,
  LEASE_RENEW_MS,
  leaseHeld,
  renewLeases,
  takeLease,
  type Lease,
} from '../store/leases';
import { dropShares, holdShares, releaseShares, SHARE_REFRESH_MS, shareCounts } from '../store/rate-shares';
import { laneEtaSeconds } from './eta';
import { Lane, laneKey, laneLimits, type LaneLimits } from './lane';
import {
  emptyGroup,
  SlidingCounter,
  type GroupProgress,
  type PausedLane,
  type RunProgress,
  type RunSummary,
} from './progress';
import { parseRateLimitHeaders } from './rate-limit-headers';
import { Outage } from './outage';
import {
  dropSpilled,
  isStoreFault,
  replayPendingAnswers,
  spillAnswers,
  type FinalCompletion,
} from './pending-answers';
import { actionFor, backoffMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';

export interface EngineLogger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Without a logger, warnings still reach stderr: they are bugs or store faults worth seeing.
 * Pauses and outages are info: progress (`pausedLanes`) tells the person about them.
 */
const STDERR_LOGGER: EngineLogger = {
  info: () => {},
  warn: (message) => process.stderr.write(`judge-lab: ${message}\n`),
};

export interface RequestEngineOptions {
  db: Database;
  providers: Record<string, ProviderConfig>;
  keys: KeyStore;
  prices?: PriceTable;
  now?: () => number;
  random?: () => number;
  logger?: EngineLogger;
  retry?: Partial<RetryPolicy>;
  progressIntervalMs?: number;
  /** How often rows another run has in flight are checked for its outcome (default: progressIntervalMs). */
  watchIntervalMs?: number;
  /**
   * Per-model limits that override the provider's (DESIGN.md section 7: a judge entry may
   * override its endpoint's limits), keyed by `modelLimitKey(providerName, model)`.
   */
  modelLimits?: Record<string, Partial<LaneLimits>>;
  /** Adapter factory (tests and benchmarks pass the real ones; kept injectable for other kinds). */
  createAdapter?: (cfg: ProviderConfig, apiKey: string) => ChatAdapter;
  /** Retrying a store that cannot be written (STORE_RETRY's fields; tests shorten them). */
  storeRetry?: Partial<StoreRetry>;
}

export interface StoreRetry {
  /** First pause before the commit is tried again; doubles up to maxMs. */
  baseMs: number;
  maxMs: number;
  /**
   * With nothing on the wire and every answer not stored safe in the side file, the run
   * stops after the store failed this long (the next start stores them). Answers held only
   * in memory are never given up: the commit is retried until it works or the run is cancelled.
   */
  giveUpMs: number;
}

export const STORE_RETRY: StoreRetry = { baseMs: 250, maxMs: 5000, giveUpMs: 60_000 };

/** A parsed answer: usable with its value, or unusable with the reason. */
export type ReadAnswer = { ok: true; value: unknown } | { ok: false; error: string };

/** An outcome stored with its ledger row: the value read from a usable answer, or why it failed. */
export interface StoredOutcome {
  requestId: number;
  status: 'done' | 'failed';
  value: unknown;
  reason: string | null;
}

export interface Job {
  requestId: number;
  group: string;
}

export interface RunOptions {
  /** Domain check of a parsed answer; a returned reason makes it unusable (re-asked, then failed). */
  validate?: (spec: ChatRequestSpec, result: ChatResult, requestId: number) => string | null;
  /**
   * Reads an answer once, as it arrives (instead of validate): an error makes it unusable; a
   * value goes to `storeOutcomes` with the answer.
   */
  read?: (result: ChatResult, requestId: number) => ReadAnswer;
  /**
   * Stores the outcomes of a group commit in the transaction that completes their ledger rows
   * (results beside the ledger: parsed once, never an answer without its result).
   */
  storeOutcomes?: (outcomes: StoredOutcome[]) => void;
  /**
   * Early warning: a watched group whose first `answers` answers are mostly unusable gets its
   * lane paused, so a broken prompt costs a dozen calls, not thousands. `label` names the
   * groups to watch (null: not watched) as the pause reason should call them.
   */
  earlyWarning?: { answers: number; label: (group: string) => string | null };
}

export interface PausedEvent {
  endpoint: string;
  model: string;
  kind: string;
  reason: string;
}

/**
 * Ledger rows whose final outcome (done or failed) was just committed by this engine, or
 * found stored by another run while this one waited for it (tasks that need it can go now).
 */
export interface CommittedEvent {
  ids: number[];
}

interface Unit {
  id: number;
  groups: string[];
  lane: Lane<Unit>;
  /**
   * Loaded from the ledger with the claim and dropped once the outcome is stored: a run holds
   * the requests on the wire in memory, not the whole study's (20,000 prompts of a few KB).
   */
  spec: ChatRequestSpec | null;
  estimate: number;
  claimed: boolean;
  /** Sends since the claim (the claim itself counted one attempt in the ledger). */
  sends: number;
  /** Sends, usage and cost not written to the ledger yet: the next write adds them. */
  owedAttempts: number;
  owedUsage: Usage;
  owedCost: number;
  /** Sent as the one probe of a lane in an outage. */
  probe: boolean;
  transient: number;
  parse: number;
  rateLimits: number;
}

export function modelLimitKey(providerName: string, model: string): string {
  return `${providerName}\u0000${model}`;
}

function definedOnly(o: Partial<LaneLimits> | undefined): Partial<LaneLimits> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined));
}

/** The pause kind of the early warning (RunOptions.earlyWarning). */
export const EARLY_WARNING = 'early_warning';

const ZERO_USAGE = (): Usage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

/**
 * Sends ledger requests at the providers' rate limits, retries what is worth retrying,
 * writes every outcome to the ledger in batches, and reports progress.
 */
export class RequestEngine {
  private readonly db: Database;
  private readonly providers: Record<string, ProviderConfig>;
  private readonly keys: KeyStore;
  private readonly prices: PriceTable;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly logger: EngineLogger;
  private readonly policy: RetryPolicy;
  private readonly progressIntervalMs: number;
  private readonly watchIntervalMs: number;
  private readonly makeAdapter: (cfg: ProviderConfig, apiKey: string) => ChatAdapter;
  private readonly events = new EventEmitter();
  private readonly adapters = new Map<string, { key: string; adapter: ChatAdapter }>();
  private readonly lanes = new Map<string, Lane<Unit>>();
  /** Which configured provider (name, config, client) serves each lane. */
  private readonly laneProvider = new WeakMap<
    Lane<Unit>,
    { name: string; cfg: ProviderConfig; adapter?: ChatAdapter }
  >();
  private readonly endpointOf = new Map<string, string>();
  private readonly responses = new Map<string, NonNullable<ChatRequestSpec['response']>>();

  private run_: RunState | null = null;
  /** Who holds this engine's rate shares: one holder across its runs (an experiment's rounds). */
  private readonly shareHolder: Lease = { owner: randomUUID(), pid: process.pid, host: hostname() };
  /** Answers seen per watched group (early warning); kept across runs of this engine (rounds). */
  private readonly watched = new Map<string, { answers: number; unusable: number; over: boolean }>();
  /** The (group, request) answers counted already, so a stored answer counts once across rounds. */
  private readonly watchedIds = new Set<string>();
  private readonly modelLimits: Record<string, Partial<LaneLimits>>;
  private readonly storeRetry: StoreRetry;

  constructor(opts: RequestEngineOptions) {
    this.db = opts.db;
    this.providers = opts.providers;
    this.keys = opts.keys;
    this.prices = opts.prices ?? DEFAULT_PRICES;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    this.logger = opts.logger ?? STDERR_LOGGER;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    this.progressIntervalMs = opts.progressIntervalMs ?? 250;
    this.watchIntervalMs = opts.watchIntervalMs ?? this.progressIntervalMs;
    this.makeAdapter = opts.createAdapter ?? createAdapter;
    this.modelLimits = opts.modelLimits ?? {};
    this.storeRetry = { ...STORE_RETRY, ...opts.storeRetry };
    this.events.setMaxListeners(50);
    for (const [name, cfg] of Object.entries(this.providers)) this.endpointOf.set(name, endpointId(cfg));
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
    if (this.run_ && this.run_.state === 'running') this.run_.state = 'paused';
  }

  /**
   * Lets a lane paused by the early warning send again (the person looked and chose to go
   * on); its groups are no longer watched. Returns false when no such lane is paused.
   */
  resumeWatched(label: string): boolean {
    let resumed = false;
    for (const lane of this.lanes.values()) {
      if (lane.paused?.kind !== EARLY_WARNING || lane.paused.label !== label) continue;
      lane.paused = null;
      resumed = true;
    }
    for (const [group, w] of this.watched)
      if (this.run_?.opts.earlyWarning?.label(group) === label) w.over = true;
    if (resumed) this.pump();
    return resumed;
  }

  /** Continue after pause(); also retries endpoint+models paused by an error (e.g. after fixing a key). */
  resume(): void {
    const r = this.run_;
    if (!r || r.state === 'cancelling') return;
    r.state = 'running';
    for (const lane of this.lanes.values()) {
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
    if (r.state !== 'cancelling') {
      r.state = 'cancelling';
      this.pump();
    }
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
    const state = new RunState(this.now(), opts, takeLease());
    this.run_ = state;
    try {
      // Answers an earlier run received but could not store are stored before anything is sent.
      replayPendingAnswers(this.db, (m) => this.logger.warn(m));
      this.retryPausedLanes();
      this.plan(state, jobs);
      this.refreshShares(state);
      this.pump();
      state.ticker = setInterval(() => this.guarded(state, () => this.tick(state)), this.progressIntervalMs);
      this.checkFinished();
      return await state.finished;
    } finally {
      if (state.ticker) clearInterval(state.ticker);
      if (state.timer) clearTimeout(state.timer);
      if (state.stall?.timer) clearTimeout(state.stall.timer);
      this.endShares();
      endLease(state.lease);
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
    const added = this.plan(r, fresh);
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
    r.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      r.holds--;
      if (r === this.run_ && !r.settled) this.pump();
    };
  }

  // ---- planning ---------------------------------------------------------------------

  /**
   * Error pauses and outages from an earlier run are retried: a new run is the user trying
   * again. An early-warning pause stays until the person resumes that lane (a next round of
   * the same run is not the person trying again).
   */
  private retryPausedLanes(): void {
    for (const lane of this.lanes.values()) {
      if (lane.paused?.kind !== EARLY_WARNING) lane.paused = null;
      lane.clearOutage();
    }
  }

  /** Counts the jobs into the run and queues those still to send; returns the new units. */
  private plan(r: RunState, jobs: readonly Job[]): Unit[] {
    const rows = getPlanRows(
      this.db,
      jobs.map((j) => j.requestId),
    );
    const units = new Map<number, Unit>();
    const added: Unit[] = [];
    const checked = new Set<Lane<Unit>>();
    for (const job of jobs) {
      r.known.add(job.requestId);
      const g = r.group(job.group);
      g.total++;
      r.overall.total++;
      const row = rows.get(job.requestId);
      if (!row) throw new Error(`RequestEngine: no ledger row with id ${job.requestId}`);
      if (row.status === 'done') {
        this.countFinished(r, [job.group], 'done', true);
        this.watchStored(r, job.group, row.id, true);
        continue;
      }
      if (row.status === 'failed') {
        const kind = kindOfReason(row.failureReason);
        this.countFinished(r, [job.group], 'failed', false, kind);
        if (kind === 'unparseable') this.watchStored(r, job.group, row.id, false);
        continue;
      }
      const existing = units.get(row.id);
      if (existing) {
        existing.groups.push(job.group);
        continue;
      }
      const lane = this.laneFor(row);
      if (!checked.has(lane)) {
        checked.add(lane);
        this.checkLaneProvider(lane);
      }
      const unit = this.makeUnit(row, lane, job.group);
      units.set(row.id, unit);
      r.units.push(unit);
      added.push(unit);
    }
    // Rows in flight: resent only when the run that claimed them is gone (a crash); another
    // live run is sending them now, so this one waits for its answer instead of paying twice.
    const inFlight = added.filter((u) => rows.get(u.id)?.status === 'in_flight').map((u) => u.id);
    const recovered = new Set(inFlight.length ? recoverInFlight(this.db, inFlight) : []);
    let foreign = 0;
    for (const u of added) {
      if (rows.get(u.id)?.status === 'in_flight' && !recovered.has(u.id)) {
        r.foreign.set(u.id, u);
        foreign++;
      } else u.lane.push(u);
    }
    if (foreign)
      this.logger.info(`${foreign} calls are being sent by another run; waiting for their answers`);
    return added;
  }

  private laneFor(row: PlanRow): Lane<Unit> {
    const key = laneKey(row.endpoint, row.model);
    let lane = this.lanes.get(key);
    if (!lane) {
      const name = this.providerNameFor(row.endpoint);
      const cfg = name === undefined ? undefined : this.providers[name];
      const override = name === undefined ? undefined : this.modelLimits[modelLimitKey(name, row.model)];
      const limits = cfg ? { ...laneLimits(cfg), ...definedOnly(override) } : { concurrency: 1 };
      lane = new Lane<Unit>(row.endpoint, row.model, limits, this.now());
      this.lanes.set(key, lane);
      if (name !== undefined && cfg) this.laneProvider.set(lane, { name, cfg });
    }
    return lane;
  }

  /** Pauses a lane that cannot send at all: no provider for its endpoint, or no key. */
  private checkLaneProvider(lane: Lane<Unit>): void {
    const p = this.laneProvider.get(lane);
    if (!p) {
      this.pauseLane(
        lane,
        'config',
        `No provider in the config serves ${lane.endpoint}; add one with that kind and base URL.`,
      );
      return;
    }
    p.adapter = this.adapterFor(p.name, p.cfg);
    if (!p.adapter) this.pauseLane(lane, 'auth', missingKeyMessage(p.name, p.cfg, this.keys));
  }

  private providerNameFor(endpoint: string): string | undefined {
    for (const [name, id] of this.endpointOf) if (id === endpoint) return name;
    return undefined;
  }

  private makeUnit(row: PlanRow, lane: Lane<Unit>, group: string): Unit {
    // Only a TPM budget needs the estimate (before the claim); tokenizing is skipped otherwise.
    const spec = lane.tpm ? this.specFor(getRequestJson(this.db, row.id) ?? '', lane) : null;
    return {
      id: row.id,
      groups: [group],
      lane,
      spec: null,
      estimate: spec ? estimateInputTokens(spec) + (spec.maxOutputTokens ?? 0) : 0,
      claimed: false,
      sends: 0,
      owedAttempts: 0,
      owedUsage: ZERO_USAGE(),
      owedCost: 0,
      probe: false,
      transient: 0,
      parse: 0,
      rateLimits: 0,
    };
  }

  private specFor(requestJson: string, lane: Lane<Unit>): ChatRequestSpec {
    const spec = specFromStored(requestJson, this.laneProvider.get(lane)?.name ?? lane.endpoint);
    // Share one schema object per distinct schema, so compiled validators are reused.
    if (spec.response) {
      const schemaKey = JSON.stringify(spec.response);
      const shared = this.responses.get(schemaKey);
      if (shared) spec.response = shared;
      else this.responses.set(schemaKey, spec.response);
    }
    return spec;
  }

  /** A claimed unit's request; a unit sent or judged unclaimed is a bug. */
  private specOf(u: Unit): ChatRequestSpec {
    if (!u.spec) throw new Error(`RequestEngine: request ${u.id} has no loaded spec (not claimed)`);
    return u.spec;
  }

  /** One client per provider name, rebuilt if its key changed (e.g. set in the app meanwhile). */
  private adapterFor(name: string, cfg: ProviderConfig): ChatAdapter | undefined {
    const key = this.keys.get(name, cfg);
    if (!key) return undefined;
    const cached = this.adapters.get(name);
    if (cached && cached.key === key) return cached.adapter;
    const adapter = this.makeAdapter(cfg, key);
    this.adapters.set(name, { key, adapter });
    return adapter;
  }

  // ---- dispatch ---------------------------------------------------------------------

  private pump(): void {
    const r = this.run_;
    if (!r || r.pumpQueued) return;
    r.pumpQueued = true;
    setImmediate(() => {
      r.pumpQueued = false;
      this.guarded(r, () => this.dispatch());
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
    this.logger.warn(`run stopped: ${err instanceof Error ? err.message : String(err)}`);
    if (r.settled || r !== this.run_) return;
    r.fatal ??= err;
    r.state = 'cancelling';
    this.pump();
  }

  private dispatch(): void {
    const r = this.run_;
    if (!r) return;
    // Nothing new goes out before the answers already here are stored.
    if (r.fatal === undefined) this.commit(r);
    if (r.state === 'cancelling') {
      this.releaseWaiting(r);
      this.checkFinished();
      return;
    }
    // The store cannot be written: nothing is sent until it can (retryStore).
    if (r.state !== 'running' || r.stall) {
      this.checkFinished();
      return;
    }
    const now = this.now();
    let nextWake = Infinity;
    const toClaim: Unit[] = [];
    const toSend: Unit[] = [];
    for (const lane of this.lanes.values()) {
      nextWake = Math.min(nextWake, lane.promoteDue(now));
      if (lane.paused) continue;
      if (lane.outage) {
        // One probe at a time, once the calls on the wire at the outage's start are back.
        const wait = lane.inFlight > 0 ? Infinity : lane.outage.probeWaitMs(now);
        if (wait > 0) {
          nextWake = Math.min(nextWake, wait);
          continue;
        }
        const u = lane.shift();
        if (!u) continue;
        lane.outage.probing = true;
        u.probe = true;
        lane.take(u.estimate, now);
        lane.inFlight++;
        (u.claimed ? toSend : toClaim).push(u);
        continue;
      }
      while (lane.inFlight < lane.sendCap) {
        const u = lane.peek();
        if (!u) break;
        const wait = lane.waitMs(u.estimate, now);
        if (wait > 0) {
          nextWake = Math.min(nextWake, wait);
          break;
        }
        lane.shift();
        lane.take(u.estimate, now);
        lane.inFlight++;
        (u.claimed ? toSend : toClaim).push(u);
      }
    }
    if (toClaim.length) {
      let claimed: Map<number, string>;
      try {
        claimed = claimPendingRequests(
          this.db,
          toClaim.map((u) => u.id),
          r.lease,
        );
      } catch (err) {
        if (!isStoreFault(err)) throw err;
        // Not claimed, not sent: everything taken this turn goes back to wait for the store.
        for (const u of [...toClaim, ...toSend]) {
          u.lane.inFlight--;
          if (u.probe && u.lane.outage) u.lane.outage.probing = false;
          u.probe = false;
          u.lane.pushFront(u);
        }
        this.enterStall(r, err);
        this.checkFinished();
        return;
      }
      for (const u of toClaim) {
        const requestJson = claimed.get(u.id);
        if (requestJson !== undefined) {
          u.spec ??= this.specFor(requestJson, u.lane);
          u.claimed = true;
          u.sends = 0;
          for (const g of u.groups) r.group(g).inFlight++;
          r.overall.inFlight += u.groups.length;
          toSend.push(u);
        } else {
          // Another run finished or took it meanwhile: do not pay for it again.
          u.lane.inFlight--;
          if (u.probe && u.lane.outage) u.lane.outage.probing = false;
          u.probe = false;
          this.settleExternally(r, u);
          // Its slot is free again: fill it on the next turn.
          this.pump();
        }
      }
    }
    for (const u of toSend) void this.send(r, u);
    if (nextWake < Infinity) this.wakeIn(r, nextWake);
    this.checkFinished();
  }

  private wakeIn(r: RunState, ms: number): void {
    const at = this.now() + ms;
    if (r.timer && r.timerAt <= at) return;
    if (r.timer) clearTimeout(r.timer);
    r.timerAt = at;
    r.timer = setTimeout(
      () => {
        r.timer = null;
        this.guarded(r, () => this.dispatch());
      },
      Math.max(1, ms),
    );
  }

  private async send(r: RunState, u: Unit): Promise<void> {
    const lane = u.lane;
    const adapter = this.laneProvider.get(lane)?.adapter;
    // The claim counted the first send as an attempt; retries and re-asks are owed.
    if (u.sends++ > 0) u.owedAttempts++;
    r.active++;
    let outcome: { res: Awaited<ReturnType<ChatAdapter['send']>> } | { err: ProviderError };
    try {
      if (!adapter) throw new ProviderError('auth', 'No API key is available for this provider.');
      outcome = { res: await adapter.send(this.specOf(u)) };
    } catch (err) {
      outcome = { err: classifyError(err) };
    }
    try {
      if ('res' in outcome) this.onResponse(r, u, outcome.res.result, outcome.res.headers);
      else this.onError(r, u, outcome.err);
    } catch (err) {
      this.abort(r, err);
    } finally {
      r.active--;
      lane.inFlight--;
      this.pump();
    }
  }

  // ---- outcomes ---------------------------------------------------------------------

  private onResponse(r: RunState, u: Unit, result: ChatResult, headers: Headers): void {
    const now = this.now();
    r.calls++;
    r.callWindow.add(now);
    const lane = u.lane;
    this.answered(lane, u);
    lane.observe(parseRateLimitHeaders(headers, now), now);
    this.owe(r, u, result.usage);
    let value: unknown = undefined;
    let reason: string | null;
    if (r.opts.read) {
      const read = r.opts.read(result, u.id);
      reason = read.ok ? null : read.error;
      if (read.ok) value = read.value;
    } else reason = r.opts.validate?.(this.specOf(u), result, u.id) ?? null;
    if (reason) {
      this.onUnusable(r, u, reason, result.text);
      return;
    }
    this.watch(r, u, true);
    lane.onSuccess();
    this.finish(
      r,
      u,
      {
        id: u.id,
        status: 'done',
        text: result.text,
        json: result.json,
        ...this.owed(u),
      },
      value,
    );
  }

  /** The provider answered: an outage (if any) is over. */
  private answered(lane: Lane<Unit>, u: Unit): void {
    u.probe = false;
    if (lane.outage) this.logger.info(`${lane.model} at ${lane.endpoint} answers again; sending resumes`);
    lane.clearOutage();
  }

  private onError(r: RunState, u: Unit, e: ProviderError): void {
    const now = this.now();
    const lane = u.lane;
    if (e.status !== undefined) {
      r.calls++;
      r.callWindow.add(now);
    }
    if (e.headers) lane.observe(parseRateLimitHeaders(e.headers, now), now);
    if (e.usage) this.owe(r, u, e.usage);
    const action = actionFor(e.kind);
    if (action !== 'retry_backoff' && action !== 'release') this.answered(lane, u);
    if (action !== 'fail' && action !== 'reask') lane.consecutiveBadRequests = 0;
    switch (action) {
      case 'reask':
        this.onUnusable(r, u, e.message, e.rawText ?? null);
        return;
      case 'retry_rate_limit': {
        r.rateLimited++;
        u.rateLimits++;
        const info = e.headers ? parseRateLimitHeaders(e.headers, now) : {};
        lane.onRateLimited(info, backoffMs(Math.min(u.rateLimits, 6), this.policy, this.random) + 250, now);
        if (u.rateLimits > this.policy.maxRateLimitRetries) {
          this.fail(
            r,
            u,
            'rate_limited',
            `${e.message} (gave up after ${u.rateLimits} rate-limited attempts)`,
          );
          return;
        }
        this.retryLater(r, u, 0);
        return;
      }
      case 'retry_backoff':
        this.onTransient(r, u, e, now);
        return;
      case 'fail':
        // Missing recorded answers are the file's gaps, each listed: no reason to stop the rest.
        if (e.kind === 'bad_request' && ++lane.consecutiveBadRequests >= this.policy.pauseAfterBadRequests)
          this.pauseLane(
            lane,
            'bad_request',
            `The last ${lane.consecutiveBadRequests} requests to ${lane.model} were all rejected as invalid; check the model's parameters. Last error: ${e.message}`,
          );
        this.fail(r, u, e.kind, e.message);
        return;
      case 'pause_lane':
        this.pauseLane(lane, e.kind, e.message);
        this.release(r, u, true);
        return;
      case 'release':
        u.probe = false;
        if (lane.outage) lane.outage.probing = false;
        this.release(r, u, true);
        return;
    }
  }

  /**
   * A connection error, timeout or 5xx. A few in a row on one lane mean the provider is down:
   * the lane then waits it out (outage.ts) and the call is not charged an attempt. One call
   * that keeps failing on its own (a 5xx only its content triggers) fails after maxAttempts.
   */
  private onTransient(r: RunState, u: Unit, e: ProviderError, now: number): void {
    const lane = u.lane;
    if (!lane.outage && lane.noteTransient(u, this.policy.outageAfterFailures)) {
      lane.outage = new Outage(now, e.kind, e.message, this.outagePolicy(lane));
      this.logger.info(`${lane.model} at ${lane.endpoint}: ${lane.outage.describe()}`);
    }
    const outage = lane.outage;
    if (outage) {
      const wasProbe = u.probe;
      outage.failed(now, e.kind, e.message, wasProbe);
      u.probe = false;
      if (outage.expired(now)) {
        this.giveUp(r, lane, outage, u, now);
        return;
      }
      if (!this.writeOwed(r, u)) return;
      r.retries++;
      if (r.state === 'cancelling') this.release(r, u, false);
      // Probes rotate: a failed probe goes to the back, so the next one is another request and
      // one request that always fails (a poison body) cannot hold the lane in an outage.
      else if (wasProbe) lane.push(u);
      else lane.pushFront(u);
      return;
    }
    u.transient++;
    if (u.transient >= this.policy.maxAttempts) {
      this.fail(r, u, e.kind, `${e.message} (gave up after ${u.transient} attempts)`);
      return;
    }
    this.retryLater(r, u, backoffMs(u.transient, this.policy, this.random));
  }

  private outagePolicy(lane: Lane<Unit>) {
    const seconds = this.laneProvider.get(lane)?.cfg.outageToleranceSeconds;
    return {
      outageAfterFailures: this.policy.outageAfterFailures,
      probeBaseMs: this.policy.probeBaseMs,
      probeMaxMs: this.policy.probeMaxMs,
      toleranceMs: seconds === undefined ? this.policy.outageToleranceMs : seconds * 1000,
    };
  }

  /** The outage outlasted its tolerance: every call waiting in the lane fails with the reason. */
  private giveUp(r: RunState, lane: Lane<Unit>, outage: Outage, last: Unit, now: number): void {
    const reason = `${outage.kind}: ${outage.failureReason(now)}`;
    this.logger.info(`${lane.model} at ${lane.endpoint}: ${outage.failureReason(now)}`);
    const units = [last, ...lane.drainAll()];
    lane.clearOutage();
    const unclaimed = units.filter((u) => !u.claimed);
    const written = new Set(
      failUnsent(
        this.db,
        unclaimed.map((u) => u.id),
        reason,
        r.lease.owner,
      ),
    );
    const ids: number[] = [];
    for (const u of unclaimed) {
      if (!written.has(u.id)) {
        this.settleExternally(r, u);
        continue;
      }
      r.completionWindow.add(now);
      lane.completions.add(now);
      this.countFinished(r, u.groups, 'failed', false, outage.kind);
      ids.push(u.id);
    }
    if (ids.length) this.emitCommitted(ids);
    for (const u of units.filter((x) => x.claimed))
      this.finish(r, u, { id: u.id, status: 'failed', reason, text: null, ...this.owed(u) });
  }

  /**
   * Counts an answer of a watched group; pauses the unit's lane when more than half of the
   * group's first answers were unusable. Re-asks count too: each is an answer paid for.
   */
  private watch(r: RunState, u: Unit, usable: boolean): void {
    const ew = r.opts.earlyWarning;
    if (!ew || ew.answers <= 0) return;
    for (const group of u.groups) {
      const label = ew.label(group);
      if (label === null) continue;
      this.watchedIds.add(`${group}\u0000${u.id}`);
      const w = this.countAnswer(group, usable, ew.answers);
      if (!w || w.over || w.unusable * 2 <= ew.answers) continue;
      w.over = true;
      this.pauseLane(
        u.lane,
        EARLY_WARNING,
        `${label}: ${w.unusable} of its first ${w.answers} answers could not be used. Its calls are paused; the others go on. Look at the failed answers, fix the cause, then resume this judge.`,
        label,
      );
    }
  }

  /**
   * A judge's first answers are its first overall, not a retry's: answers stored before this
   * run (an earlier run, "Retry failed") count, once per request, before any new one.
   */
  private watchStored(r: RunState, group: string, id: number, usable: boolean): void {
    const ew = r.opts.earlyWarning;
    if (!ew || ew.answers <= 0 || ew.label(group) === null) return;
    const key = `${group}\u0000${id}`;
    if (this.watchedIds.has(key)) return;
    this.watchedIds.add(key);
    this.countAnswer(group, usable, ew.answers);
  }

  /** Adds one answer to a watched group's count (none once it is over); returns the count. */
  private countAnswer(group: string, usable: boolean, first: number) {
    let w = this.watched.get(group);
    if (!w) this.watched.set(group, (w = { answers: 0, unusable: 0, over: false }));
    if (w.over) return null;
    w.answers++;
    if (!usable) w.unusable++;
    // Enough answers seen without a warning: the judge works.
    if (w.answers >= first && w.unusable * 2 <= first) w.over = true;
    return w;
  }

  private onUnusable(r: RunState, u: Unit, reason: string, rawText: string | null): void {
    this.watch(r, u, false);
    u.parse++;
    if (u.parse > this.policy.maxParseRetries) {
      this.fail(r, u, 'unparseable', `${reason} (asked ${u.parse} times)`, rawText);
      return;
    }
    // The unusable answer was paid for: its usage is stored before it is counted.
    if (!this.writeOwed(r, u)) return;
    r.retries++;
    if (r.state === 'cancelling') this.release(r, u, false);
    else u.lane.pushFront(u);
  }

  private retryLater(r: RunState, u: Unit, delayMs: number): void {
    if (!this.writeOwed(r, u)) return;
    r.retries++;
    if (r.state === 'cancelling') {
      this.release(r, u, false);
      return;
    }
    if (delayMs <= 0) u.lane.pushFront(u);
    else u.lane.delay(u, this.now() + delayMs);
    this.logger.info(`retrying request ${u.id} on ${u.lane.model} in ${delayMs} ms`);
  }

  private fail(r: RunState, u: Unit, kind: string, message: string, rawText: string | null = null): void {
    this.finish(r, u, {
      id: u.id,
      status: 'failed',
      reason: `${kind}: ${message}`,
      text: rawText,
      ...this.owed(u),
    });
  }

  /** Back to pending in the ledger; requeued unless the run is ending. */
  private release(r: RunState, u: Unit, requeue: boolean): void {
    u.probe = false;
    if (u.claimed && !r.stall) {
      let stored: boolean | null = null;
      try {
        stored = this.write(r, u, { id: u.id, status: 'pending', ...this.owed(u) });
      } catch (err) {
        if (!isStoreFault(err)) throw err;
        this.enterStall(r, err);
      }
      if (stored !== null) {
        u.claimed = false;
        if (!stored) {
          this.settleExternally(r, u);
          return;
        }
      }
    }
    // With the store failing, a claimed row stays in flight under this run (its lease runs out
    // if the run ends first); the unit keeps its claim and what it owes.
    if (requeue && r.state !== 'cancelling') u.lane.pushFront(u);
  }

  /**
   * A final outcome. Answers that arrive in one turn of the event loop are stored together in
   * one transaction (group commit) at the end of that turn, and in any case before anything is
   * sent, reported or counted: an answer counts only once it is on disk.
   */
  private finish(r: RunState, u: Unit, c: FinalCompletion, value?: unknown): void {
    u.claimed = false;
    u.spec = null;
    r.writes.push({ unit: u, c, value });
    if (r.writes.length === 1)
      setImmediate(() =>
        this.guarded(r, () => {
          this.commit(r);
          this.checkFinished();
        }),
      );
  }

  /**
   * Stores the final outcomes waiting in `r.writes`, then counts and announces them. While the
   * store fails, the retry timer commits (with backoff), not every turn.
   */
  private commit(r: RunState): void {
    if (r.writes.length && !r.stall) this.tryCommit(r);
  }

  /**
   * One group commit. A store fault keeps every outcome in memory (and in the side file) for
   * the next try: an answer received is never dropped, so it is never paid for twice.
   */
  private tryCommit(r: RunState): boolean {
    const batch = r.writes;
    let skipped: { completion: Completion; found: string }[];
    try {
      skipped = this.storeBatch(r, batch);
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      this.enterStall(r, err);
      this.spill(r);
      return false;
    }
    r.writes = [];
    // Everything spilled was in this batch: the side file is no longer needed.
    if (r.spilled.size) {
      r.spilled.clear();
      try {
        dropSpilled(this.db, r.lease.owner);
      } catch (err) {
        // Replaying it finds every row stored already and changes nothing.
        this.logger.warn(`side file not removed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const refused = new Map(skipped.map((s) => [s.completion.id, s.found]));
    const now = this.now();
    const ids: number[] = [];
    for (const { unit: u, c } of batch) {
      this.countOwed(r, u, c);
      for (const g of u.groups) r.group(g).inFlight--;
      r.overall.inFlight -= u.groups.length;
      const found = refused.get(u.id);
      if (found !== undefined) {
        this.logger.warn(
          `request ${u.id}: not recorded as ${c.status}: the ledger has it ${found}, no longer in flight for this run`,
        );
        this.settleExternally(r, u);
        continue;
      }
      r.completionWindow.add(now);
      u.lane.completions.add(now);
      if (c.status === 'done') this.countFinished(r, u.groups, 'done', false);
      else this.countFinished(r, u.groups, 'failed', false, kindOfReason(c.reason));
      ids.push(u.id);
    }
    if (ids.length) this.emitCommitted(ids);
    if (refused.size) this.pump();
    return true;
  }

  /** The ledger rows, and with them (one transaction) what the caller stores beside them. */
  private storeBatch(r: RunState, batch: RunState['writes']) {
    const store = r.opts.storeOutcomes;
    const completions = batch.map((b) => b.c);
    if (!store) return applyCompletions(this.db, completions, r.lease.owner).skipped;
    return this.db.transaction(() => {
      const { skipped } = applyCompletions(this.db, completions, r.lease.owner);
      const refused = new Set(skipped.map((s) => s.completion.id));
      store(
        batch
          .filter((b) => !refused.has(b.c.id))
          .map((b) => ({
            requestId: b.c.id,
            status: b.c.status,
            value: b.value,
            reason: b.c.status === 'failed' ? b.c.reason : null,
          })),
      );
      return skipped;
    })();
  }

  /**
   * The store cannot be written (disk full, I/O error): stop sending at once, tell the person
   * through progress, and try again with backoff. Calls on the wire still come back; their
   * answers wait in memory and in the side file.
   */
  private enterStall(r: RunState, err: Error): void {
    if (r.stall) {
      r.stall.reason = err.message;
      return;
    }
    r.stall = { reason: err.message, since: this.now(), attempt: 0, timer: null };
    this.logger.warn(`store write failed: ${err.message}; retrying`);
    this.scheduleStoreRetry(r);
  }

  private scheduleStoreRetry(r: RunState): void {
    const stall = r.stall;
    if (!stall || stall.timer || r.settled) return;
    const ms = Math.min(this.storeRetry.maxMs, this.storeRetry.baseMs * 2 ** stall.attempt);
    stall.timer = setTimeout(() => {
      stall.timer = null;
      this.guarded(r, () => this.retryStore(r));
    }, ms);
  }

  /** Tries the store again: the waiting answers, or (none waiting) a small write of its own. */
  private retryStore(r: RunState): void {
    const stall = r.stall;
    if (!stall || r.settled) return;
    stall.attempt++;
    let ok = false;
    try {
      // The WAL holds a copy of every page written since the last checkpoint: folding it into
      // the store and truncating it is often what frees the room a full disk needs.
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Not possible now (no room even for that, or a reader holds the WAL): the commit is tried anyway.
    }
    try {
      // A failure here keeps the stall (enterStall only updates its reason).
      if (r.writes.length) ok = this.tryCommit(r);
      else {
        renewLeases(this.db, r.lease, Date.now() + LEASE_MS);
        ok = true;
      }
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      stall.reason = err.message;
    }
    if (ok) {
      r.stall = null;
      this.logger.warn(`the store is written again (after ${stall.attempt} tries); sending resumes`);
      this.pump();
      return;
    }
    this.scheduleStoreRetry(r);
    this.checkFinished();
  }

  /** Appends the outcomes not yet in the side file to it; on failure they stay in memory only. */
  private spill(r: RunState): void {
    const fresh = r.writes.filter((w) => !r.spilled.has(w.c.id));
    if (!fresh.length) return;
    try {
      const file = spillAnswers(
        this.db,
        r.lease.owner,
        fresh.map((w) => w.c),
      );
      for (const w of fresh) r.spilled.add(w.c.id);
      if (!r.spillFile) this.logger.warn(`answers not stored yet are kept in ${file}`);
      r.spillFile = file;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!r.spillFailed)
        this.logger.warn(`side file not written either (${message}); answers kept in memory`);
      r.spillFailed = true;
    }
  }

  /**
   * Writes one non-final outcome of a claimed unit (back to pending, or usage of an answer
   * asked again) at once. A row that is no longer in flight under this run's lease is not
   * touched: that would be a bug (or a takeover after a stall longer than the lease), so it
   * is logged and the ledger's state is believed.
   */
  private write(r: RunState, u: Unit, c: Completion): boolean {
    const { skipped } = applyCompletions(this.db, [c], r.lease.owner);
    this.countOwed(r, u, c);
    if (c.status !== 'in_flight') {
      for (const g of u.groups) r.group(g).inFlight--;
      r.overall.inFlight -= u.groups.length;
    }
    if (!skipped.length) return true;
    this.logger.warn(
      `request ${u.id}: not recorded as ${c.status}: the ledger has it ${skipped[0].found}, no longer in flight for this run`,
    );
    return false;
  }

  /** Stores usage paid for an answer that is asked again, so a crash cannot lose it. */
  private writeOwed(r: RunState, u: Unit): boolean {
    if (!u.claimed || (u.owedCost === 0 && sumTokens(u.owedUsage) === 0)) return true;
    // A store that cannot be written: what is owed stays on the unit, for its next write.
    if (r.stall) return true;
    try {
      if (this.write(r, u, { id: u.id, status: 'in_flight', ...this.owed(u) })) return true;
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      this.enterStall(r, err);
      return true;
    }
    u.claimed = false;
    for (const g of u.groups) r.group(g).inFlight--;
    r.overall.inFlight -= u.groups.length;
    this.settleExternally(r, u);
    return false;
  }

  private owe(r: RunState, u: Unit, usage: Usage): void {
    const cost = costOf(u.lane.model, usage, this.prices);
    if (!cost.priced) r.unpriced.add(u.lane.model);
    u.owedUsage = {
      inputTokens: u.owedUsage.inputTokens + usage.inputTokens,
      outputTokens: u.owedUsage.outputTokens + usage.outputTokens,
      cachedInputTokens: u.owedUsage.cachedInputTokens + usage.cachedInputTokens,
      cacheWriteTokens: (u.owedUsage.cacheWriteTokens ?? 0) + (usage.cacheWriteTokens ?? 0),
    };
    u.owedCost += cost.usd;
  }

  private owed(u: Unit): { usage: Usage; costUsd: number; extraAttempts: number } {
    return { usage: u.owedUsage, costUsd: u.owedCost, extraAttempts: u.owedAttempts };
  }

  /** Spend counts once written (or once the write was refused: it was paid all the same). */
  private countOwed(r: RunState, u: Unit, c: Completion): void {
    r.tokens.input += c.usage.inputTokens;
    r.tokens.output += c.usage.outputTokens;
    r.tokens.cached += c.usage.cachedInputTokens;
    r.costUsd += c.costUsd;
    u.owedUsage = ZERO_USAGE();
    u.owedCost = 0;
    u.owedAttempts = 0;
  }

  private emitCommitted(ids: number[]): void {
    try {
      this.events.emit('committed', { ids } satisfies CommittedEvent);
    } catch (err) {
      // A listener's bug must not undo or stop the run: the rows are stored already.
      this.logger.warn(`a 'committed' listener failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private pauseLane(lane: Lane<Unit>, kind: string, reason: string, label?: string): void {
    if (lane.paused) return;
    lane.paused = label === undefined ? { kind, reason } : { kind, reason, label };
    this.logger.info(`paused ${lane.model} at ${lane.endpoint}: ${reason}`);
    this.events.emit('paused', {
      endpoint: lane.endpoint,
      model: lane.model,
      kind,
      reason,
    } satisfies PausedEvent);
  }

  /**
   * A row this run did not get or lost: count what the ledger says, or, while another live
   * run has it in flight, wait for that run's outcome.
   */
  private settleExternally(r: RunState, u: Unit): void {
    const row = getPlanRows(this.db, [u.id]).get(u.id);
    if (row?.status === 'done' || row?.status === 'failed') {
      if (row.status === 'done') this.countFinished(r, u.groups, 'done', true);
      else this.countFinished(r, u.groups, 'failed', false, kindOfReason(row.failureReason));
      this.emitCommitted([u.id]);
    } else if (row?.status === 'in_flight') r.foreign.set(u.id, u);
    else if (row?.status === 'pending' && r.state !== 'cancelling') u.lane.pushFront(u);
    else r.skipped++;
  }

  /**
   * Follows rows another run has in flight: their outcome counts here as a stored answer; a
   * row that run gave back, or left behind by dying, is sent by this one.
   */
  private watchForeign(r: RunState): void {
    if (!r.foreign.size || r.state === 'cancelling') return;
    const rows = getPlanRows(this.db, [...r.foreign.keys()]);
    const now = Date.now();
    const orphaned: Unit[] = [];
    for (const [id, u] of r.foreign) {
      const row = rows.get(id);
      if (row?.status === 'in_flight' && leaseHeld(row.lease, now)) continue;
      r.foreign.delete(id);
      if (row?.status === 'in_flight') orphaned.push(u);
      else if (row?.status === 'pending') u.lane.pushFront(u);
      else this.settleExternally(r, u);
    }
    if (orphaned.length) {
      const recovered = new Set(
        recoverInFlight(
          this.db,
          orphaned.map((u) => u.id),
        ),
      );
      for (const u of orphaned) {
        if (recovered.has(u.id)) u.lane.pushFront(u);
        else this.settleExternally(r, u);
      }
    }
    this.pump();
  }

  private releaseWaiting(r: RunState): void {
    for (const lane of this.lanes.values())
      for (const u of lane.drainAll()) {
        try {
          this.release(r, u, false);
        } catch (err) {
          // The store failed (the reason the run is stopping): the lease runs out instead.
          this.logger.warn(
            `request ${u.id} left in flight: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
    r.foreign.clear();
  }

  // ---- progress ----------------------------------------------------------------------

  private tick(r: RunState): void {
    const now = Date.now();
    try {
      if (now - r.leaseRenewedAt >= LEASE_RENEW_MS) {
        r.leaseRenewedAt = now;
        renewLeases(this.db, r.lease, now + LEASE_MS);
      }
      // Both write the store: they wait while it cannot be written.
      if (!r.stall && now - r.watchedAt >= this.watchIntervalMs) {
        r.watchedAt = now;
        this.watchForeign(r);
      }
      if (!r.stall && now - r.sharedAt >= SHARE_REFRESH_MS) this.refreshShares(r);
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      this.enterStall(r, err);
    }
    this.emitProgress();
  }

  /**
   * One budget per endpoint+model across processes: holds this run's share of every lane that
   * still has work (and gives back the others), then takes 1/n of each lane's limits, n being
   * the runs holding a share of it now.
   */
  private refreshShares(r: RunState): void {
    const now = this.now();
    const joining = r.sharedAt === 0;
    r.sharedAt = now;
    const mine = new Set(r.units.map((u) => u.lane));
    const busy = [...mine].filter((l) => l.readyCount + l.delayedCount + l.inFlight > 0).map((l) => l.key);
    const idle = [...mine].filter((l) => !busy.includes(l.key)).map((l) => l.key);
    holdShares(this.db, this.shareHolder, busy);
    if (idle.length) dropShares(this.db, this.shareHolder, idle);
    const counts = shareCounts(this.db, busy);
    let grew = false;
    for (const lane of mine) {
      const share = 1 / (counts.get(lane.key) ?? 1);
      if (share === lane.share) continue;
      grew ||= share > lane.share;
      lane.setShare(share, now);
      // Joining runs already sending: they notice us within SHARE_REFRESH_MS; until then our
      // first burst would come on top of their full rate, so we start with empty buckets.
      if (joining && share < 1) {
        lane.rpm?.drain(now);
        lane.tpm?.drain(now);
      }
      this.logger.info(`${lane.model} at ${lane.endpoint}: ${counts.get(lane.key)} runs share its limits`);
    }
    if (grew) this.pump();
  }

  private endShares(): void {
    try {
      releaseShares(this.db, this.shareHolder);
    } catch {
      // The store is gone (closing): the share expires by itself.
    }
    for (const lane of this.lanes.values()) if (lane.share !== 1) lane.setShare(1, this.now());
  }

  private countFinished(
    r: RunState,
    groups: readonly string[],
    status: 'done' | 'failed',
    cacheHit: boolean,
    kind?: string,
  ): void {
    for (const g of [...groups.map((name) => r.group(name)), r.overall]) {
      const n = g === r.overall ? groups.length : 1;
      if (status === 'done') {
        g.done += n;
        if (cacheHit) g.cacheHits += n;
      } else g.failed += n;
    }
    if (status === 'failed') {
      const k = kind ?? 'failed';
      r.failuresByReason[k] = (r.failuresByReason[k] ?? 0) + groups.length;
    }
  }

  private checkFinished(): void {
    const r = this.run_;
    if (!r || r.settled) return;
    if (r.active > 0 || r.pumpQueued) return;
    if (r.fatal === undefined) this.commit(r);
    // A run stopped by another fault still keeps the answers it could not store.
    else if (r.writes.length) this.spill(r);
    if (r.stall && !this.stallEnds(r)) return;
    let waiting = r.foreign.size;
    let waitingUnpaused = r.foreign.size;
    for (const lane of this.lanes.values()) {
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
    if (outcome !== 'finished') this.releaseWaiting(r);
    r.settled = true;
    if (r.fatal !== undefined) {
      r.reject(r.fatal);
      return;
    }
    const summary: RunSummary = { ...this.snapshot(r, outcome), outcome };
    this.events.emit('progress', summary);
    r.resolve(summary);
  }

  /**
   * Whether a run whose store cannot be written stops now (nothing is on the wire): when it is
   * cancelled, or when every answer not stored is safe in the side file and the store has
   * failed for `giveUpMs`. It stops with the store's error, saying where the answers are.
   */
  private stallEnds(r: RunState): boolean {
    const stall = r.stall!;
    const cancelling = r.state === 'cancelling';
    // A last try before a cancelled run stops: what is stored now is not asked again.
    if (cancelling && r.writes.length && this.tryCommit(r)) {
      if (stall.timer) clearTimeout(stall.timer);
      r.stall = null;
      return true;
    }
    const unsaved = r.writes.filter((w) => !r.spilled.has(w.c.id)).length;
    if (!cancelling && (unsaved > 0 || this.now() - stall.since < this.storeRetry.giveUpMs)) return false;
    if (stall.timer) clearTimeout(stall.timer);
    stall.timer = null;
    const kept = r.writes.length - unsaved;
    const where = kept ? `; ${kept} answers kept in ${r.spillFile}, stored at the next start` : '';
    const lost = unsaved ? `; ${unsaved} answers could not be kept and will be asked again` : '';
    r.fatal ??= Object.assign(new Error(`store write failed: ${stall.reason}${where}${lost}`), {
      code: 'SQLITE_FULL',
    });
    if (r.state !== 'cancelling') {
      r.state = 'cancelling';
      this.releaseWaiting(r);
    }
    return true;
  }

  private emitProgress(): void {
    const r = this.run_;
    if (!r || r.settled) return;
    const state = r.state === 'running' ? 'running' : r.state === 'paused' ? 'paused' : 'cancelling';
    this.events.emit('progress', this.snapshot(r, state));
  }

  private snapshot(r: RunState, state: RunProgress['state']): RunProgress {
    const now = this.now();
    const elapsedMs = now - r.startedAt;
    const windowSec = Math.min(60, Math.max(1, elapsedMs / 1000));
    const callsPerMinute = (r.callWindow.sum(now) / windowSec) * 60;
    const withPending = (g: GroupProgress): GroupProgress => ({
      ...g,
      pending: Math.max(0, g.total - g.done - g.failed - g.inFlight),
    });
    const overall = withPending(r.overall);
    const remaining = overall.pending + overall.inFlight;
    const groups: Record<string, GroupProgress> = {};
    for (const [k, g] of r.groups) groups[k] = withPending(g);
    const pausedLanes: PausedLane[] = [];
    // The slowest lane decides; a paused lane sends nothing until resumed, so it has no time left.
    let etaSeconds: number | null = remaining === 0 ? 0 : null;
    for (const lane of this.lanes.values()) {
      const left = lane.readyCount + lane.delayedCount + lane.inFlight;
      if (left === 0 || lane.paused || remaining === 0) continue;
      const secs = laneEtaSeconds(left, lane.completions.sum(now) / windowSec, {
        rpm: lane.limits.rpm,
        tpm: lane.limits.tpm,
        concurrency: lane.cap,
      });
      etaSeconds = Math.max(etaSeconds ?? 0, Math.round(secs));
    }
    for (const lane of this.lanes.values()) {
      if (lane.paused) pausedLanes.push({ endpoint: lane.endpoint, model: lane.model, ...lane.paused });
      else if (lane.outage)
        pausedLanes.push({
          endpoint: lane.endpoint,
          model: lane.model,
          kind: 'outage',
          reason: lane.outage.describe(),
        });
    }
    return {
      state,
      elapsedMs,
      overall,
      groups,
      callsPerMinute: Math.round(callsPerMinute * 10) / 10,
      etaSeconds,
      tokens: { ...r.tokens },
      costUsd: r.costUsd,
      unpricedModels: [...r.unpriced],
      failuresByReason: { ...r.failuresByReason },
      calls: r.calls,
      rateLimited: r.rateLimited,
      retries: r.retries,
      pausedLanes,
      storeProblem: r.stall ? `store write failed: ${r.stall.reason}; retrying` : null,
    };
  }
}

class RunState {
  state: 'running' | 'paused' | 'cancelling' = 'running';
  readonly units: Unit[] = [];
  /** Every request id given to this run (sent, queued, or stored already): add() skips them. */
  readonly known = new Set<number>();
  /** hold()s not released yet: the run does not end while the caller may add jobs. */
  holds = 0;
  /** Rows another live run has in flight: their outcome is awaited, not paid for again. */
  readonly foreign = new Map<number, Unit>();
  /** Final outcomes received this turn of the event loop, stored together before they count. */
  writes: { unit: Unit; c: FinalCompletion; value?: unknown }[] = [];
  /** The store cannot be written: nothing is sent; the commit is tried again at `timer`. */
  stall: { reason: string; since: number; attempt: number; timer: NodeJS.Timeout | null } | null = null;
  /** Outcomes of `writes` that are in the side file too, and that file. */
  readonly spilled = new Set<number>();
  spillFile: string | null = null;
  spillFailed = false;
  readonly groups = new Map<string, GroupProgress>();
  readonly overall = emptyGroup();
  active = 0;
  calls = 0;
  rateLimited = 0;
  retries = 0;
  skipped = 0;
  costUsd = 0;
  readonly tokens = { input: 0, output: 0, cached: 0 };
  readonly unpriced = new Set<string>();
  readonly failuresByReason: Record<string, number> = {};
  readonly callWindow = new SlidingCounter(60);
  readonly completionWindow = new SlidingCounter(60);
  pumpQueued = false;
  timer: NodeJS.Timeout | null = null;
  timerAt = 0;
  ticker: NodeJS.Timeout | null = null;
  leaseRenewedAt = Date.now();
  watchedAt = 0;
  /** When this run last renewed its rate shares and read the other processes'. */
  sharedAt = 0;
  settled = false;
  /** The store failed: the run ends with this error once calls on the wire are back. */
  fatal: unknown = undefined;
  resolve!: (s: RunSummary) => void;
  reject!: (err: unknown) => void;
  readonly finished: Promise<RunSummary>;

  constructor(
    readonly startedAt: number,
    readonly opts: RunOptions,
    readonly lease: Lease,
  ) {
    this.finished = new Promise((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
  }

  group(name: string): GroupProgress {
    let g = this.groups.get(name);
    if (!g) {
      g = emptyGroup();
      this.groups.set(name, g);
    }
    return g;
  }
}

function sumTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cachedInputTokens;
}

/** Failure reasons are stored as "<kind>: <message>". */
function kindOfReason(reason: string | null | undefined): string {
  const m = /^([a-z_]+):/.exec(reason ?? '');
  return m ? m[1] : 'failed';
}

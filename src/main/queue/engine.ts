import { EventEmitter } from 'node:events';
import { endpointId, missingKeyMessage, type KeyStore, type ProviderConfig } from '../providers/config';
import { classifyError, ProviderError } from '../providers/errors';
import { createAdapter } from '../providers/index';
import { costOf, DEFAULT_PRICES, type PriceTable } from '../providers/pricing';
import { estimateInputTokens } from '../providers/tokens';
import type { ChatAdapter, ChatRequestSpec, ChatResult, Usage } from '../providers/types';
import type { Database } from '../store/db';
import {
  claimPending,
  completeRequests,
  getRequests,
  specFromStored,
  type Completion,
  type LedgerRow,
} from '../store/ledger';
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
import { actionFor, backoffMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';

export interface EngineLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface RequestEngineOptions {
  db: Database;
  providers: Record<string, ProviderConfig>;
  keys: KeyStore;
  prices?: PriceTable;
  now?: () => number;
  random?: () => number;
  logger?: EngineLogger;
  retry?: Partial<RetryPolicy>;
  /** Completions are written in one transaction at most this often / this many at a time. */
  flushIntervalMs?: number;
  flushRows?: number;
  progressIntervalMs?: number;
  /**
   * Per-model limits that override the provider's (DESIGN.md section 7: a judge entry may
   * override its endpoint's limits), keyed by `modelLimitKey(providerName, model)`.
   */
  modelLimits?: Record<string, Partial<LaneLimits>>;
  /** Adapter factory (tests and benchmarks pass the real ones; kept injectable for other kinds). */
  createAdapter?: (cfg: ProviderConfig, apiKey: string) => ChatAdapter;
}

export interface Job {
  requestId: number;
  group: string;
}

export interface RunOptions {
  /** Domain check of a parsed answer; a returned reason makes it unusable (re-asked, then failed). */
  validate?: (spec: ChatRequestSpec, result: ChatResult, requestId: number) => string | null;
}

export interface PausedEvent {
  endpoint: string;
  model: string;
  kind: string;
  reason: string;
}

interface Unit {
  id: number;
  groups: string[];
  lane: Lane<Unit>;
  spec: ChatRequestSpec;
  estimate: number;
  claimed: boolean;
  /** Sends since the claim (the claim itself counted one attempt in the ledger). */
  sends: number;
  transient: number;
  parse: number;
  rateLimits: number;
  usage: Usage;
  costUsd: number;
}

export function modelLimitKey(providerName: string, model: string): string {
  return `${providerName}\u0000${model}`;
}

function definedOnly(o: Partial<LaneLimits> | undefined): Partial<LaneLimits> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined));
}

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
  private readonly logger?: EngineLogger;
  private readonly policy: RetryPolicy;
  private readonly flushIntervalMs: number;
  private readonly flushRows: number;
  private readonly progressIntervalMs: number;
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
  private readonly responses = new Map<string, ChatRequestSpec['response']>();

  private run_: RunState | null = null;
  private readonly modelLimits: Record<string, Partial<LaneLimits>>;

  constructor(opts: RequestEngineOptions) {
    this.db = opts.db;
    this.providers = opts.providers;
    this.keys = opts.keys;
    this.prices = opts.prices ?? DEFAULT_PRICES;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    this.logger = opts.logger;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    this.flushIntervalMs = opts.flushIntervalMs ?? 50;
    this.flushRows = opts.flushRows ?? 200;
    this.progressIntervalMs = opts.progressIntervalMs ?? 250;
    this.makeAdapter = opts.createAdapter ?? createAdapter;
    this.modelLimits = opts.modelLimits ?? {};
    this.events.setMaxListeners(50);
    for (const [name, cfg] of Object.entries(this.providers)) this.endpointOf.set(name, endpointId(cfg));
  }

  on(event: 'progress', listener: (p: RunProgress) => void): () => void;
  on(event: 'paused', listener: (p: PausedEvent) => void): () => void;
  on(event: 'progress' | 'paused', listener: (p: RunProgress & PausedEvent) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  /** Stop starting new calls; calls on the wire finish and are recorded. */
  pause(): void {
    if (this.run_ && this.run_.state === 'running') this.run_.state = 'paused';
  }

  /** Continue after pause(); also retries endpoint+models paused by an error (e.g. after fixing a key). */
  resume(): void {
    const r = this.run_;
    if (!r || r.state === 'cancelling') return;
    r.state = 'running';
    for (const lane of this.lanes.values()) {
      if (lane.paused && lane.paused.kind !== 'config') {
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
    return r.finished.then(() => undefined);
  }

  /** Runs the jobs to the end (or to cancel, or until only paused endpoints are left). One run at a time. */
  async run(jobs: readonly Job[], opts: RunOptions = {}): Promise<RunSummary> {
    if (this.run_) throw new Error('RequestEngine: a run is already going');
    const state = new RunState(this.now(), opts);
    this.run_ = state;
    try {
      this.plan(state, jobs);
      this.flush();
      this.pump();
      state.ticker = setInterval(() => this.emitProgress(), this.progressIntervalMs);
      this.checkFinished();
      return await state.finished;
    } finally {
      if (state.ticker) clearInterval(state.ticker);
      if (state.timer) clearTimeout(state.timer);
      if (state.flushTimer) clearTimeout(state.flushTimer);
      this.run_ = null;
    }
  }

  // ---- planning ---------------------------------------------------------------------

  private plan(r: RunState, jobs: readonly Job[]): void {
    const rows = getRequests(
      this.db,
      jobs.map((j) => j.requestId),
    );
    const units = new Map<number, Unit>();
    // Error pauses from an earlier run are retried: a new run is the user trying again.
    for (const lane of this.lanes.values()) lane.paused = null;
    const checked = new Set<Lane<Unit>>();
    for (const job of jobs) {
      const g = r.group(job.group);
      g.total++;
      r.overall.total++;
      const row = rows.get(job.requestId);
      if (!row) throw new Error(`RequestEngine: no ledger row with id ${job.requestId}`);
      if (row.status === 'done') {
        this.countFinished(r, [job.group], 'done', true);
        continue;
      }
      if (row.status === 'failed') {
        this.countFinished(r, [job.group], 'failed', false, kindOfReason(row.failureReason));
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
    }
    // A row left in flight by a crash that recoverInFlight did not see is ours to resend.
    const stale = r.units.filter((u) => rows.get(u.id)?.status === 'in_flight').map((u) => u.id);
    if (stale.length)
      completeRequests(
        this.db,
        stale.map((id) => ({ id, status: 'pending', usage: ZERO_USAGE(), costUsd: 0, extraAttempts: 0 })),
      );
    for (const u of r.units) u.lane.push(u);
  }

  private laneFor(row: LedgerRow): Lane<Unit> {
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
    if (!p.adapter) this.pauseLane(lane, 'auth', missingKeyMessage(p.name, p.cfg));
  }

  private providerNameFor(endpoint: string): string | undefined {
    for (const [name, id] of this.endpointOf) if (id === endpoint) return name;
    return undefined;
  }

  private makeUnit(row: LedgerRow, lane: Lane<Unit>, group: string): Unit {
    const spec = specFromStored(row.requestJson, this.laneProvider.get(lane)?.name ?? row.endpoint);
    // Share one schema object per distinct schema, so compiled validators are reused.
    const schemaKey = JSON.stringify(spec.response);
    const shared = this.responses.get(schemaKey);
    if (shared) spec.response = shared;
    else this.responses.set(schemaKey, spec.response);
    return {
      id: row.id,
      groups: [group],
      lane,
      spec,
      // Only a TPM budget needs the estimate; tokenizing is skipped otherwise.
      estimate: lane.tpm ? estimateInputTokens(spec) + (spec.maxOutputTokens ?? 0) : 0,
      claimed: false,
      sends: 0,
      transient: 0,
      parse: 0,
      rateLimits: 0,
      usage: ZERO_USAGE(),
      costUsd: 0,
    };
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
      this.dispatch();
    });
  }

  private dispatch(): void {
    const r = this.run_;
    if (!r) return;
    if (r.state === 'cancelling') {
      this.releaseWaiting(r);
      this.checkFinished();
      return;
    }
    if (r.state !== 'running') {
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
      while (lane.inFlight < lane.cap) {
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
      const claimed = new Set(
        claimPending(
          this.db,
          toClaim.map((u) => u.id),
        ),
      );
      for (const u of toClaim) {
        if (claimed.has(u.id)) {
          u.claimed = true;
          for (const g of u.groups) r.group(g).inFlight++;
          r.overall.inFlight += u.groups.length;
          toSend.push(u);
        } else {
          // Another process finished or took it meanwhile: do not pay for it again.
          u.lane.inFlight--;
          this.settleExternally(r, u);
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
        this.dispatch();
      },
      Math.max(1, ms),
    );
  }

  private async send(r: RunState, u: Unit): Promise<void> {
    const lane = u.lane;
    const adapter = this.laneProvider.get(lane)?.adapter;
    u.sends++;
    r.active++;
    try {
      if (!adapter) throw new ProviderError('auth', 'No API key is available for this provider.');
      const res = await adapter.send(u.spec);
      this.onResponse(r, u, res.result, res.headers);
    } catch (err) {
      this.onError(r, u, classifyError(err));
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
    lane.observe(parseRateLimitHeaders(headers, now), now);
    this.addUsage(r, u, result.usage);
    const reason = r.opts.validate?.(u.spec, result, u.id) ?? null;
    if (reason) {
      this.onUnusable(r, u, reason, result.text);
      return;
    }
    lane.onSuccess();
    this.finish(r, u, {
      id: u.id,
      status: 'done',
      text: result.text,
      json: result.json,
      usage: u.usage,
      costUsd: u.costUsd,
      extraAttempts: u.sends - 1,
    });
  }

  private onError(r: RunState, u: Unit, e: ProviderError): void {
    const now = this.now();
    const lane = u.lane;
    if (e.status !== undefined) {
      r.calls++;
      r.callWindow.add(now);
    }
    if (e.headers) lane.observe(parseRateLimitHeaders(e.headers, now), now);
    if (e.usage) this.addUsage(r, u, e.usage);
    const action = actionFor(e.kind);
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
            null,
          );
          return;
        }
        this.retryLater(r, u, 0);
        return;
      }
      case 'retry_backoff':
        u.transient++;
        if (u.transient >= this.policy.maxAttempts) {
          this.fail(r, u, e.kind, `${e.message} (gave up after ${u.transient} attempts)`, null);
          return;
        }
        this.retryLater(r, u, backoffMs(u.transient, this.policy, this.random));
        return;
      case 'fail':
        if (++lane.consecutiveBadRequests >= this.policy.pauseAfterBadRequests)
          this.pauseLane(
            lane,
            'bad_request',
            `The last ${lane.consecutiveBadRequests} requests to ${lane.model} were all rejected as invalid; check the model's parameters. Last error: ${e.message}`,
          );
        this.fail(r, u, e.kind, e.message, null);
        return;
      case 'pause_lane':
        this.pauseLane(lane, e.kind, e.message);
        this.release(r, u, true);
        return;
      case 'release':
        this.release(r, u, true);
        return;
    }
  }

  private onUnusable(r: RunState, u: Unit, reason: string, rawText: string | null): void {
    u.parse++;
    if (u.parse > this.policy.maxParseRetries) {
      this.fail(r, u, 'unparseable', `${reason} (asked ${u.parse} times)`, rawText);
      return;
    }
    r.retries++;
    if (r.state === 'cancelling') this.release(r, u, false);
    else u.lane.pushFront(u);
  }

  private retryLater(r: RunState, u: Unit, delayMs: number): void {
    r.retries++;
    if (r.state === 'cancelling') {
      this.release(r, u, false);
      return;
    }
    if (delayMs <= 0) u.lane.pushFront(u);
    else u.lane.delay(u, this.now() + delayMs);
    this.logger?.info(`retrying request ${u.id} on ${u.lane.model} in ${delayMs} ms`);
  }

  private fail(r: RunState, u: Unit, kind: string, message: string, rawText: string | null): void {
    this.finish(r, u, {
      id: u.id,
      status: 'failed',
      reason: `${kind}: ${message}`,
      text: rawText,
      usage: u.usage,
      costUsd: u.costUsd,
      extraAttempts: u.sends - 1,
    });
  }

  /** Back to pending in the ledger; requeued unless the run is ending. */
  private release(r: RunState, u: Unit, requeue: boolean): void {
    if (u.claimed) {
      r.buffer.push({
        unit: u,
        c: { id: u.id, status: 'pending', usage: u.usage, costUsd: u.costUsd, extraAttempts: u.sends - 1 },
      });
      this.scheduleFlush(r);
    }
    u.claimed = false;
    u.sends = 0;
    u.usage = ZERO_USAGE();
    u.costUsd = 0;
    if (requeue && r.state !== 'cancelling') u.lane.pushFront(u);
  }

  private finish(r: RunState, u: Unit, c: Completion): void {
    r.buffer.push({ unit: u, c });
    this.scheduleFlush(r);
  }

  private addUsage(r: RunState, u: Unit, usage: Usage): void {
    const cost = costOf(u.spec.model, usage, this.prices);
    if (!cost.priced) r.unpriced.add(u.spec.model);
    u.usage = {
      inputTokens: u.usage.inputTokens + usage.inputTokens,
      outputTokens: u.usage.outputTokens + usage.outputTokens,
      cachedInputTokens: u.usage.cachedInputTokens + usage.cachedInputTokens,
    };
    u.costUsd += cost.usd;
    r.tokens.input += usage.inputTokens;
    r.tokens.output += usage.outputTokens;
    r.tokens.cached += usage.cachedInputTokens;
    r.costUsd += cost.usd;
  }

  private pauseLane(lane: Lane<Unit>, kind: string, reason: string): void {
    if (lane.paused) return;
    lane.paused = { kind, reason };
    this.logger?.warn(`paused ${lane.model} at ${lane.endpoint}: ${reason}`);
    this.events.emit('paused', {
      endpoint: lane.endpoint,
      model: lane.model,
      kind,
      reason,
    } satisfies PausedEvent);
  }

  /** A row someone else finished between planning and claiming: count what the ledger says. */
  private settleExternally(r: RunState, u: Unit): void {
    const row = getRequests(this.db, [u.id]).get(u.id);
    if (row?.status === 'done') this.countFinished(r, u.groups, 'done', true);
    else if (row?.status === 'failed')
      this.countFinished(r, u.groups, 'failed', false, kindOfReason(row.failureReason));
    else r.skipped++;
  }

  private releaseWaiting(r: RunState): void {
    for (const lane of this.lanes.values()) for (const u of lane.drainAll()) this.release(r, u, false);
  }

  // ---- ledger writes and progress ----------------------------------------------------

  private scheduleFlush(r: RunState): void {
    if (r.buffer.length >= this.flushRows) {
      this.flush();
      return;
    }
    if (!r.flushTimer)
      r.flushTimer = setTimeout(() => {
        r.flushTimer = null;
        this.flush();
        this.checkFinished();
      }, this.flushIntervalMs);
  }

  /** Writes buffered outcomes in one transaction, then counts them (nothing is reported done before it is stored). */
  private flush(): void {
    const r = this.run_;
    if (!r || !r.buffer.length) return;
    const batch = r.buffer;
    r.buffer = [];
    completeRequests(
      this.db,
      batch.map((b) => b.c),
    );
    const now = this.now();
    for (const { unit, c } of batch) {
      for (const g of unit.groups) r.group(g).inFlight--;
      r.overall.inFlight -= unit.groups.length;
      if (c.status === 'pending') continue;
      r.completionWindow.add(now);
      if (c.status === 'done') this.countFinished(r, unit.groups, 'done', false);
      else this.countFinished(r, unit.groups, 'failed', false, kindOfReason(c.reason));
    }
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
    let waiting = 0;
    let waitingUnpaused = 0;
    for (const lane of this.lanes.values()) {
      const n = lane.readyCount + lane.delayedCount;
      waiting += n;
      if (!lane.paused) waitingUnpaused += n;
    }
    let outcome: RunSummary['outcome'] | null = null;
    if (r.state === 'cancelling') outcome = 'cancelled';
    else if (waiting === 0) outcome = 'finished';
    else if (waitingUnpaused === 0 && r.state === 'running') outcome = 'blocked';
    if (!outcome) return;
    if (outcome !== 'finished') this.releaseWaiting(r);
    this.flush();
    r.settled = true;
    const summary: RunSummary = { ...this.snapshot(r, outcome), outcome };
    this.events.emit('progress', summary);
    r.resolve(summary);
  }

  private emitProgress(): void {
    const r = this.run_;
    if (!r || r.settled) return;
    this.flush();
    const state = r.state === 'running' ? 'running' : r.state === 'paused' ? 'paused' : 'cancelling';
    this.events.emit('progress', this.snapshot(r, state));
  }

  private snapshot(r: RunState, state: RunProgress['state']): RunProgress {
    const now = this.now();
    const elapsedMs = now - r.startedAt;
    const windowSec = Math.min(60, Math.max(1, elapsedMs / 1000));
    const callsPerMinute = (r.callWindow.sum(now) / windowSec) * 60;
    const perSec = r.completionWindow.sum(now) / windowSec;
    const withPending = (g: GroupProgress): GroupProgress => ({
      ...g,
      pending: Math.max(0, g.total - g.done - g.failed - g.inFlight),
    });
    const overall = withPending(r.overall);
    const remaining = overall.pending + overall.inFlight;
    const groups: Record<string, GroupProgress> = {};
    for (const [k, g] of r.groups) groups[k] = withPending(g);
    const pausedLanes: PausedLane[] = [];
    for (const lane of this.lanes.values())
      if (lane.paused) pausedLanes.push({ endpoint: lane.endpoint, model: lane.model, ...lane.paused });
    return {
      state,
      elapsedMs,
      overall,
      groups,
      callsPerMinute: Math.round(callsPerMinute * 10) / 10,
      etaSeconds: remaining === 0 ? 0 : perSec > 0 ? Math.round(remaining / perSec) : null,
      tokens: { ...r.tokens },
      costUsd: r.costUsd,
      unpricedModels: [...r.unpriced],
      failuresByReason: { ...r.failuresByReason },
      calls: r.calls,
      rateLimited: r.rateLimited,
      retries: r.retries,
      pausedLanes,
    };
  }
}

class RunState {
  state: 'running' | 'paused' | 'cancelling' = 'running';
  readonly units: Unit[] = [];
  readonly groups = new Map<string, GroupProgress>();
  readonly overall = emptyGroup();
  /** Outcomes waiting for the next batched ledger write. */
  buffer: { unit: Unit; c: Completion }[] = [];
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
  flushTimer: NodeJS.Timeout | null = null;
  ticker: NodeJS.Timeout | null = null;
  settled = false;
  resolve!: (s: RunSummary) => void;
  readonly finished: Promise<RunSummary>;

  constructor(
    readonly startedAt: number,
    readonly opts: RunOptions,
  ) {
    this.finished = new Promise((res) => (this.resolve = res));
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

/** Failure reasons are stored as "<kind>: <message>". */
function kindOfReason(reason: string | null | undefined): string {
  const m = /^([a-z_]+):/.exec(reason ?? '');
  return m ? m[1] : 'failed';
}

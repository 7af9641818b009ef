// Sends ledger requests through the providers' Batch APIs (issue 14): groups pending rows by
// endpoint+model into batches within the provider's limits, claims them in the ledger under
// the batch (so a batch survives quitting: the next run polls it instead of paying twice),
// polls, and stores every entry as its results are read, parsed and checked by the same
// validator as live answers. Expired or failed entries go into a new batch or back to the
// live engine, as the provider entry's `batchFallback` says.
import {
  missingKeyMessage,
  type KeyStore,
  type ProviderConfig,
  batchPollSeconds,
  DEFAULT_BATCH_POLL_SECONDS,
  endpointId,
} from '../../providers/config';
import type { BatchProgress } from '../../../shared/experiments';
import { createBatchAdapter } from '../../providers/batch';
import {
  BatchNotCreated,
  type BatchAdapter,
  type BatchEntry,
  type BatchEntryResult,
  type BatchLimits,
} from '../../providers/batch-types';
import { classifyError } from '../../providers/errors';
import { costOf, DEFAULT_PRICES, type PriceTable } from '../../providers/pricing';
import type { ChatRequestSpec, ChatResult, ProviderErrorKind, Usage } from '../../providers/types';
import {
  abandonedSubmit,
  customIdOf,
  remoteIdTaken,
  requestStates,
  type RequestState,
  batchesOf,
  createLocalBatch,
  getBatch,
  heldRequests,
  releaseHeld,
  setBatchState,
  setRemoteId,
  type LocalBatch,
} from '../../store/batches';
import type { Database } from '../../store/db';
import { batchOwner, isBatchOwner, leaseHeld } from '../../store/leases';
import {
  applyCompletions,
  failUnsent,
  getRequests,
  recoverInFlight,
  specFromStored,
  type Completion,
} from '../../store/ledger';
import { emptyGroup, type GroupProgress, type PausedLane, type RunProgress } from '../progress';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../retry-policy';
import { planBatches } from './split';

export interface BatchJob {
  requestId: number;
  group: string;
  /** The provider name (config key) whose Batch API sends it. */
  provider: string;
}

/** One batch as progress shows it (also after reopening the app). */
export type BatchInfo = BatchProgress;

export interface BatchRunSummary extends RunProgress {
  outcome: 'finished' | 'cancelled' | 'blocked';
  /** Requests handed back to be sent live (`batchFallback: "live"`). */
  live: number[];
  batches: BatchInfo[];
}

export interface BatchExecutorOptions {
  db: Database;
  providers: Record<string, ProviderConfig>;
  keys: KeyStore;
  prices?: PriceTable;
  retry?: Partial<RetryPolicy>;
  /** Smaller limits than the provider's (tests of splitting). */
  limits?: Partial<BatchLimits>;
  /**
   * How long after its submission record a batch whose create reply was lost is looked for
   * before it counts as never created (providers may list a new batch a little late).
   */
  lostReplyGraceMs?: number;
  createBatchAdapter?: (cfg: ProviderConfig, apiKey: string) => BatchAdapter | undefined;
  onProgress?: (p: BatchRunSummary) => void;
  logger?: { info(m: string): void; warn(m: string): void };
}

type Validate = (spec: ChatRequestSpec, result: ChatResult, requestId: number) => string | null;

/** Kinds that another try cannot fix: the entry fails at once. */
const PERMANENT: ReadonlySet<ProviderErrorKind> = new Set(['bad_request', 'auth', 'not_found']);
/** Kinds that stop a provider's batches for this run (the person must act). */
const BLOCKING: ReadonlySet<ProviderErrorKind> = new Set([
  'auth',
  'quota_exhausted',
  'not_found',
  'bad_request',
]);
/** Completions are written in chunks of this size while results stream in. */
const WRITE_CHUNK = 500;
/** Consecutive failed submits (server, connection) of one provider before its batches stop. */
const MAX_SUBMIT_FAILURES = 5;

/** Kinds after which the provider may have made the batch though no reply came back. */
const IN_DOUBT: ReadonlySet<ProviderErrorKind> = new Set(['connection', 'timeout', 'server']);
const DEFAULT_LOST_REPLY_GRACE_MS = 60_000;

const ZERO = (): Usage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

export class BatchExecutor {
  private readonly db: Database;
  private readonly prices: PriceTable;
  private readonly policy: RetryPolicy;
  private readonly adapters = new Map<string, BatchAdapter | null>();
  private readonly tracked = new Map<number, LocalBatch>();
  private readonly parseTries = new Map<number, number>();
  private readonly submitFailures = new Map<string, number>();
  private readonly blocked = new Map<string, PausedLane>();
  private readonly live = new Set<number>();
  /** Local batches whose create this process sent without getting the reply: looked for at each poll. */
  private readonly inDoubt = new Set<number>();
  private state: 'running' | 'paused' | 'cancelling' | 'detaching' = 'running';
  private wake: () => void = () => {};
  private startedAt = Date.now();
  private tokens = { input: 0, output: 0, cached: 0 };
  private cost = 0;
  private unpriced = new Set<string>();
  private failuresByReason: Record<string, number> = {};
  private calls = 0;
  private retries = 0;
  /** Answers cut off at the output limit that were read from their whole fields. */
  private cutOffReads = 0;
  /** Where the time goes (benchmarks): submitting (upload), polling, reading and storing results. */
  readonly stats = { submitMs: 0, submitted: 0, polls: 0, pollMs: 0, ingestMs: 0, ingested: 0 };

  constructor(private readonly opts: BatchExecutorOptions) {
    this.db = opts.db;
    this.prices = opts.prices ?? DEFAULT_PRICES;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  }

  /** Stop submitting; open batches are cancelled at the provider and what they answered is kept. */
  pause(): void {
    if (this.state === 'running') this.state = 'paused';
    this.wake();
  }

  resume(): void {
    if (this.state === 'paused') this.state = 'running';
    this.wake();
  }

  /** Cancels the open batches at the provider, stores what they answered; run() then resolves. */
  cancel(): void {
    this.state = 'cancelling';
    this.wake();
  }

  /**
   * Stops polling and leaves every batch open at the provider (the app is quitting): the
   * rows stay claimed by their batches, and the next run polls them again.
   */
  detach(): void {
    this.state = 'detaching';
    this.wake();
  }

  /** Runs the jobs to the end: every request done, failed, or handed back for live sending. */
  async run(jobs: readonly BatchJob[], opts: { validate?: Validate } = {}): Promise<BatchRunSummary> {
    this.startedAt = Date.now();
    const validate = opts.validate ?? (() => null);
    const providerOf = new Map(jobs.map((j) => [j.requestId, j.provider]));
    const ids = [...providerOf.keys()];
    const atStart = requestStates(this.db, ids);
    const cacheHits = new Set(ids.filter((id) => atStart.get(id)?.status === 'done'));
    // Batches this experiment's requests are in from an earlier run (the app was closed): poll them.
    for (const b of batchesOf(this.db, ids))
      if (b.status !== 'ended' && b.status !== 'failed') this.tracked.set(b.id, b);
    const pollMs = Math.min(
      ...[...new Set(providerOf.values())].map((p) => {
        const cfg = this.opts.providers[p];
        return (cfg ? batchPollSeconds(cfg) : DEFAULT_BATCH_POLL_SECONDS) * 1000;
      }),
    );
    let cancelledRemote = false;
    for (;;) {
      if (this.state === 'detaching') return this.summary(jobs, cacheHits, 'cancelled');
      const rows = requestStates(this.db, ids);
      // Rows a dead process left in flight (not in a batch) are free again.
      const stale = ids.filter((id) => {
        const r = rows.get(id);
        return (
          r?.status === 'in_flight' && !isBatchOwner(r.lease.lease_owner) && !leaseHeld(r.lease, Date.now())
        );
      });
      if (stale.length) for (const id of recoverInFlight(this.db, stale)) rows.get(id)!.status = 'pending';
      // Rows in a batch this run does not know (another process's, or one left by a closed app): poll it too.
      for (const r of rows.values()) {
        const owner = r.lease.lease_owner;
        if (r.status !== 'in_flight' || !isBatchOwner(owner)) continue;
        const bid = Number(owner!.slice('batch:'.length));
        if (this.tracked.has(bid)) continue;
        const b = getBatch(this.db, bid);
        if (b && b.status !== 'ended' && b.status !== 'failed') this.tracked.set(bid, b);
      }

      if ((this.state === 'paused' || this.state === 'cancelling') && !cancelledRemote) {
        cancelledRemote = true;
        await this.cancelOpen();
      }
      if (this.state === 'running') {
        cancelledRemote = false;
        const pending = ids.filter((id) => rows.get(id)?.status === 'pending' && !this.live.has(id));
        await this.submitPending(pending, providerOf);
      }
      await this.pollOpen(validate);
      this.publish(jobs, cacheHits);

      const now = requestStates(this.db, ids);
      const open = [...this.tracked.values()].some((b) => b.status !== 'ended' && b.status !== 'failed');
      const waiting = ids.some((id) => {
        const s = now.get(id)?.status;
        if (s === 'done' || s === 'failed' || this.live.has(id)) return false;
        if (s === 'pending')
          return this.state === 'running' && !this.blocked.has(this.laneOf(id, providerOf, now));
        return true; // in flight: in a batch, or another run sends it
      });
      if (this.state === 'cancelling' && !open) return this.summary(jobs, cacheHits, 'cancelled');
      if (!open && !waiting && this.state !== 'paused') {
        const blocked =
          this.blocked.size > 0 && ids.some((id) => now.get(id)?.status === 'pending' && !this.live.has(id));
        return this.summary(jobs, cacheHits, blocked ? 'blocked' : 'finished');
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, pollMs);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  private laneOf(id: number, providerOf: Map<number, string>, rows: Map<number, RequestState>): string {
    return `${providerOf.get(id)}\u0000${rows.get(id)?.model}`;
  }

  private adapter(provider: string): BatchAdapter | null {
    if (this.adapters.has(provider)) return this.adapters.get(provider)!;
    const cfg = this.opts.providers[provider];
    // The simulated provider needs no key; every other one does.
    const key = !cfg
      ? undefined
      : cfg.kind === 'simulated'
        ? ''
        : this.opts.keys.get(provider, cfg) || undefined;
    const a =
      cfg && key !== undefined
        ? ((this.opts.createBatchAdapter ?? createBatchAdapter)(cfg, key) ?? null)
        : null;
    this.adapters.set(provider, a);
    return a;
  }

  private block(provider: string, model: string, kind: string, reason: string): void {
    const cfg = this.opts.providers[provider];
    this.blocked.set(`${provider}\u0000${model}`, {
      endpoint: cfg ? endpointId(cfg, provider) : provider,
      model,
      kind,
      reason,
    });
  }

  private async submitPending(pending: number[], providerOf: Map<number, string>): Promise<void> {
    if (!pending.length) return;
    const rows = getRequests(this.db, pending);
    const byLane = new Map<string, { provider: string; model: string; ids: number[] }>();
    for (const id of pending) {
      const row = rows.get(id)!;
      const provider = providerOf.get(id)!;
      const key = `${provider}\u0000${row.model}`;
      if (this.blocked.has(key)) continue;
      let lane = byLane.get(key);
      if (!lane) byLane.set(key, (lane = { provider, model: row.model, ids: [] }));
      lane.ids.push(id);
    }
    for (const { provider, model, ids } of byLane.values()) {
      const cfg = this.opts.providers[provider];
      const adapter = this.adapter(provider);
      if (!adapter) {
        this.block(
          provider,
          model,
          'auth',
          cfg ? missingKeyMessage(provider, cfg, this.opts.keys) : `No provider "${provider}".`,
        );
        continue;
      }
      // Sized with a nonce of the real length; the batch's own nonce replaces it once recorded.
      const entries: (BatchEntry & { id: number })[] = ids.map((id) => ({
        id,
        customId: customIdOf(id, '0'.repeat(12)),
        spec: specFromStored(rows.get(id)!.requestJson, provider),
      }));
      const limits = { ...adapter.limits, ...this.opts.limits };
      const bytes = new Map(entries.map((e) => [e.id, adapter.entryBytes(e)]));
      // A request bigger than a whole batch may be can never go in one: it fails, the rest go.
      const tooBig = entries.filter((e) => bytes.get(e.id)! > limits.maxBytes);
      if (tooBig.length) {
        const reason = `bad_request: the request is larger than ${limits.maxBytes} bytes, the provider's batch limit`;
        const written = failUnsent(
          this.db,
          tooBig.map((e) => e.id),
          reason,
          null,
        );
        this.failuresByReason.bad_request = (this.failuresByReason.bad_request ?? 0) + written.length;
      }
      const fits = entries.filter((e) => bytes.get(e.id)! <= limits.maxBytes);
      for (const chunk of planBatches(fits, (e) => bytes.get(e.id)!, limits)) {
        if (this.blocked.has(`${provider}\u0000${model}`)) break;
        const { batch, claimed } = createLocalBatch(this.db, {
          provider,
          endpoint: endpointId(cfg, provider),
          model,
          requestIds: chunk.map((e) => e.id),
        });
        if (!batch) continue;
        const claimedSet = new Set(claimed);
        const t0 = performance.now();
        try {
          const remoteId = await adapter.submit(
            chunk
              .filter((e) => claimedSet.has(e.id))
              .map((e) => ({ ...e, customId: customIdOf(e.id, batch.nonce) })),
            { localId: batch.id, nonce: batch.nonce! },
          );
          this.calls++;
          this.stats.submitMs += performance.now() - t0;
          this.stats.submitted += claimed.length;
          setRemoteId(this.db, batch.id, remoteId);
          this.tracked.set(batch.id, getBatch(this.db, batch.id)!);
          this.submitFailures.delete(provider);
          this.opts.logger?.info(`batch ${batch.id} (${remoteId}): ${claimed.length} requests to ${model}`);
        } catch (err) {
          const notCreated = err instanceof BatchNotCreated;
          const e = classifyError(err);
          if (!notCreated && IN_DOUBT.has(e.kind)) {
            // The provider may have accepted it: look for it (pollOpen) before sending again.
            this.inDoubt.add(batch.id);
            this.tracked.set(batch.id, getBatch(this.db, batch.id)!);
            this.opts.logger?.warn(
              `batch ${batch.id} to ${model}: no reply to the create (${e.message}); looking for it before submitting again`,
            );
            break;
          }
          releaseHeld(this.db, batch.id);
          setBatchState(this.db, batch.id, { status: 'failed', error: `${e.kind}: ${e.message}` });
          const n = (this.submitFailures.get(provider) ?? 0) + 1;
          this.submitFailures.set(provider, n);
          if (BLOCKING.has(e.kind) || n >= MAX_SUBMIT_FAILURES)
            this.block(provider, model, e.kind, `Batch submit to ${model} failed: ${e.message}`);
          this.opts.logger?.warn(`batch submit to ${model} failed: ${e.message}`);
          break;
        }
      }
    }
  }

  private async cancelOpen(): Promise<void> {
    for (const b of this.tracked.values()) {
      if (b.status === 'ended' || b.status === 'failed') continue;
      const adapter = this.adapter(b.provider);
      if (b.status === 'submitting' || !b.remoteId || !adapter) continue;
      try {
        await adapter.cancel(b.remoteId);
        setBatchState(this.db, b.id, { status: 'cancelling' });
        b.status = 'cancelling';
      } catch (err) {
        // Already ended, or unreachable: polling reads whatever it came to.
        this.opts.logger?.warn(`cancel of batch ${b.remoteId} failed: ${(err as Error).message}`);
      }
    }
  }

  private async pollOpen(validate: Validate): Promise<void> {
    for (const b of this.tracked.values()) {
      if (b.status === 'ended' || b.status === 'failed') continue;
      if (b.status === 'submitting' || !b.remoteId) {
        // Another live process is handing it over now: leave it to that process.
        if (!abandonedSubmit(b) && !this.inDoubt.has(b.id)) continue;
        // Its create may have reached the provider (the reply was lost, or the app stopped
        // while waiting for it): find it there, or free its rows once it is surely not there.
        if (!(await this.recoverLostSubmit(b)) || !b.remoteId) continue;
      }
      const adapter = this.adapter(b.provider);
      if (!adapter) {
        const cfg = this.opts.providers[b.provider];
        this.block(
          b.provider,
          b.model,
          'auth',
          cfg
            ? missingKeyMessage(b.provider, cfg, this.opts.keys)
            : `No provider "${b.provider}" in the config for batch ${b.remoteId}.`,
        );
        continue;
      }
      let state;
      const t0 = performance.now();
      try {
        state = await adapter.poll(b.remoteId);
        this.calls++;
        this.stats.polls++;
        this.stats.pollMs += performance.now() - t0;
      } catch (err) {
        const e = classifyError(err);
        if (BLOCKING.has(e.kind))
          this.block(b.provider, b.model, e.kind, `Polling batch ${b.remoteId}: ${e.message}`);
        continue;
      }
      setBatchState(this.db, b.id, { remoteStatus: state.status, finished: state.finished });
      b.remoteStatus = state.status;
      b.finishedCount = state.finished ?? b.finishedCount;
      if (!state.ended) continue;
      const t1 = performance.now();
      try {
        await this.ingest(b, adapter, validate);
        this.stats.ingestMs += performance.now() - t1;
      } catch (err) {
        // A store that cannot be written ends the run (nothing half-written is kept); a results
        // download cut short is read again at the next poll (rows already stored are skipped).
        if (isStoreError(err)) throw err;
        this.opts.logger?.warn(`reading results of batch ${b.remoteId} failed: ${(err as Error).message}`);
        continue;
      }
      // What the results did not mention (OpenAI leaves cancelled entries out) goes back to pending.
      releaseHeld(this.db, b.id);
      setBatchState(this.db, b.id, {
        status: state.failedReason ? 'failed' : 'ended',
        error: state.failedReason,
      });
      b.status = state.failedReason ? 'failed' : 'ended';
    }
  }

  /**
   * Looks for a batch whose create reply never arrived. True when found (now open and polled);
   * false while still looking, or when it is surely not at the provider (then its rows are free
   * again and the batch is marked failed, so the next round submits them anew).
   */
  private async recoverLostSubmit(b: LocalBatch): Promise<boolean> {
    const adapter = this.adapter(b.provider);
    const createdAt = Date.parse(b.createdAt);
    const notSent = (error: string) => {
      this.inDoubt.delete(b.id);
      releaseHeld(this.db, b.id);
      setBatchState(this.db, b.id, { status: 'failed', error });
      b.status = 'failed';
      return false;
    };
    // A batch made before nonces (migration 10) cannot be found: as before, it counts as not sent.
    if (!b.nonce) return notSent('not submitted: the app stopped first');
    if (!adapter) return false; // the key is missing: pollOpen's block says so; look again later
    let found: string | null;
    try {
      found = await adapter.find({
        nonce: b.nonce,
        requestCount: b.requestCount,
        createdAt,
        taken: (remoteId) => remoteIdTaken(this.db, remoteId),
      });
      this.calls++;
    } catch (err) {
      const e = classifyError(err);
      if (BLOCKING.has(e.kind))
        this.block(b.provider, b.model, e.kind, `Looking for batch ${b.id}: ${e.message}`);
      return false; // unreachable now: look again at the next poll
    }
    if (found) {
      this.inDoubt.delete(b.id);
      setRemoteId(this.db, b.id, found);
      Object.assign(b, getBatch(this.db, b.id)!);
      this.opts.logger?.info(`batch ${b.id}: found at the provider as ${found} (its create reply was lost)`);
      if (this.state === 'paused' || this.state === 'cancelling') {
        // Found after the open batches were cancelled: this one is cancelled too.
        try {
          await adapter.cancel(found);
          setBatchState(this.db, b.id, { status: 'cancelling' });
          b.status = 'cancelling';
        } catch (err) {
          this.opts.logger?.warn(`cancel of batch ${found} failed: ${(err as Error).message}`);
        }
      }
      return true;
    }
    const grace = this.opts.lostReplyGraceMs ?? DEFAULT_LOST_REPLY_GRACE_MS;
    if (Date.now() < createdAt + grace) return false;
    return notSent('not submitted: the provider lists no such batch');
  }

  private async ingest(b: LocalBatch, adapter: BatchAdapter, validate: Validate): Promise<void> {
    const held = new Map(heldRequests(this.db, b.id).map((r) => [r.customId, r]));
    const specs = new Map<string, ChatRequestSpec>();
    const specOf = (customId: string) => {
      const r = held.get(customId);
      if (!r) return undefined;
      let s = specs.get(customId);
      if (!s) specs.set(customId, (s = specFromStored(r.requestJson, b.provider)));
      return s;
    };
    const fallback = this.opts.providers[b.provider]?.batchFallback ?? 'resubmit';
    const owner = batchOwner(b.id);
    let out: Completion[] = [];
    const flush = () => {
      if (!out.length) return;
      applyCompletions(this.db, out, owner);
      out = [];
    };
    const priced = (model: string, usage: Usage) => {
      const c = costOf(model, usage, this.prices, { batch: true });
      if (!c.priced) this.unpriced.add(model);
      this.tokens.input += usage.inputTokens;
      this.tokens.output += usage.outputTokens;
      this.tokens.cached += usage.cachedInputTokens;
      this.cost += c.usd;
      return c.usd;
    };
    const failed = (
      id: number,
      kind: string,
      message: string,
      text: string | null,
      usage: Usage,
      model: string,
    ) => {
      this.failuresByReason[kind] = (this.failuresByReason[kind] ?? 0) + 1;
      out.push({
        id,
        status: 'failed',
        reason: `${kind}: ${message}`,
        text,
        usage,
        costUsd: priced(model, usage),
        extraAttempts: 0,
      });
    };
    const again = (id: number, usage: Usage, model: string, toLive: boolean) => {
      this.retries++;
      if (toLive) this.live.add(id);
      out.push({ id, status: 'pending', usage, costUsd: priced(model, usage), extraAttempts: 0 });
    };
    const unusable = (
      row: { id: number; model: string },
      reason: string,
      text: string | null,
      usage: Usage,
    ) => {
      const n = (this.parseTries.get(row.id) ?? 0) + 1;
      this.parseTries.set(row.id, n);
      if (n > this.policy.maxParseRetries)
        failed(row.id, 'unparseable', `${reason} (asked ${n} times)`, text, usage, row.model);
      else again(row.id, usage, row.model, false);
    };
    const handle = (r: BatchEntryResult) => {
      const row = held.get(r.customId);
      if (!row) return; // not ours any more (stored already, or taken over)
      held.delete(r.customId);
      this.stats.ingested++;
      if (r.type === 'succeeded') {
        const reason = validate(specOf(r.customId)!, r.result, row.id);
        if (reason === null && r.result.readFromCutOff) this.cutOffReads++;
        if (reason === null)
          out.push({
            id: row.id,
            status: 'done',
            text: r.result.text,
            json: r.result.json,
            usage: r.result.usage,
            costUsd: priced(row.model, r.result.usage),
            extraAttempts: 0,
          });
        else unusable(row, reason, r.result.text, r.result.usage);
      } else if (r.type === 'unparseable') {
        unusable(row, r.error.message, r.error.rawText ?? null, r.error.usage ?? ZERO());
      } else if (r.type === 'errored' && PERMANENT.has(r.kind)) {
        failed(row.id, r.kind, r.message, null, ZERO(), row.model);
      } else if (this.state !== 'running' && r.type === 'cancelled') {
        again(row.id, ZERO(), row.model, false); // we cancelled it: back to pending, nothing used up
      } else {
        const kind = r.type === 'errored' ? r.kind : r.type;
        if (row.attempts >= this.policy.maxAttempts)
          failed(
            row.id,
            kind,
            `${r.type === 'errored' ? r.message : r.type} (gave up after ${row.attempts} batches)`,
            null,
            ZERO(),
            row.model,
          );
        else again(row.id, ZERO(), row.model, fallback === 'live');
      }
      if (out.length >= WRITE_CHUNK) flush();
    };
    await adapter.results(b.remoteId!, specOf, handle);
    flush();
  }

  private progress(
    jobs: readonly BatchJob[],
    cacheHits: Set<number>,
  ): RunProgress & { batches: BatchInfo[] } {
    const rows = requestStates(
      this.db,
      jobs.map((j) => j.requestId),
    );
    const groups: Record<string, GroupProgress> = {};
    const overall = emptyGroup();
    for (const j of jobs) {
      const g = (groups[j.group] ??= emptyGroup());
      const s = rows.get(j.requestId)?.status ?? 'pending';
      for (const t of [g, overall]) {
        t.total++;
        if (s === 'done') {
          t.done++;
          if (cacheHits.has(j.requestId)) t.cacheHits++;
        } else if (s === 'failed') t.failed++;
        else if (s === 'in_flight') t.inFlight++;
        else t.pending++;
      }
    }
    return {
      state: this.state === 'running' || this.state === 'paused' ? this.state : 'cancelling',
      elapsedMs: Date.now() - this.startedAt,
      overall,
      groups,
      callsPerMinute: 0,
      // A batch answers within its window; no rate to extrapolate from.
      etaSeconds: null,
      tokens: { ...this.tokens },
      costUsd: this.cost,
      unpricedModels: [...this.unpriced],
      failuresByReason: { ...this.failuresByReason },
      calls: this.calls,
      rateLimited: 0,
      cutOffReads: this.cutOffReads,
      retries: this.retries,
      pausedLanes: [...this.blocked.values()],
      batches: [...this.tracked.values()].map((b) => ({
        id: b.id,
        provider: b.provider,
        model: b.model,
        remoteId: b.remoteId,
        status: b.status,
        remoteStatus: b.remoteStatus,
        requests: b.requestCount,
        finished: b.finishedCount,
        createdAt: b.createdAt,
      })),
    };
  }

  private publish(jobs: readonly BatchJob[], cacheHits: Set<number>): void {
    if (!this.opts.onProgress) return;
    this.opts.onProgress({ ...this.progress(jobs, cacheHits), outcome: 'finished', live: [...this.live] });
  }

  private summary(
    jobs: readonly BatchJob[],
    cacheHits: Set<number>,
    outcome: BatchRunSummary['outcome'],
  ): BatchRunSummary {
    const p = this.progress(jobs, cacheHits);
    return {
      ...p,
      state: outcome === 'cancelled' ? 'cancelled' : outcome === 'blocked' ? 'blocked' : 'finished',
      outcome,
      live: [...this.live],
    };
  }
}

function isStoreError(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'SqliteError' || /^SQLITE_/.test((err as { code?: string }).code ?? ''))
  );
}

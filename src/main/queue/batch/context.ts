// What the batch executor's parts share (submit.ts, poll.ts, collect.ts, reconcile.ts): its
// settings, the adapters, the batches it follows, the lanes it stopped and its tally. The
// executor (executor.ts) alone changes the run's mode; the parts read it.
import { createBatchAdapter } from '../../providers/batch';
import type { BatchAdapter } from '../../providers/batch-types';
import { endpointId } from '../../providers/config';
import { DEFAULT_PRICES, type PriceTable } from '../../providers/pricing';
import type { ProviderErrorKind } from '../../providers/types';
import type { LocalBatch } from '../../store/batches';
import type { Database } from '../../store/db';
import type { PausedLane } from '../progress';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../retry-policy';
import { BatchTally } from './tally';
import type { BatchExecutorOptions, BatchMode } from './types';

/** Kinds that stop a provider's batches for this run (the person must act). */
export const BLOCKING: ReadonlySet<ProviderErrorKind> = new Set([
  'auth',
  'quota_exhausted',
  'not_found',
  'bad_request',
]);

/** Where the time goes (benchmarks): submitting (upload), polling, reading and storing results. */
export interface BatchStats {
  submitMs: number;
  submitted: number;
  polls: number;
  pollMs: number;
  ingestMs: number;
  ingested: number;
}

export class BatchContext {
  readonly db: Database;
  readonly prices: PriceTable;
  readonly policy: RetryPolicy;
  readonly tally: BatchTally;
  /** The batches this run polls (its own, and open ones its rows are in), by local id. */
  readonly tracked = new Map<number, LocalBatch>();
  /** Local batches whose create this process sent without getting the reply: looked for at each poll. */
  readonly inDoubt = new Set<number>();
  /** Requests handed back to be sent live (`batchFallback: "live"`). */
  readonly live = new Set<number>();
  /** Lanes (provider + model) whose batches stop for this run, and why. */
  readonly blocked = new Map<string, PausedLane>();
  readonly stats: BatchStats = { submitMs: 0, submitted: 0, polls: 0, pollMs: 0, ingestMs: 0, ingested: 0 };
  private readonly adapters = new Map<string, BatchAdapter | null>();

  constructor(
    readonly opts: BatchExecutorOptions,
    /** The run's mode, as the executor has it now. */
    readonly mode: () => BatchMode,
  ) {
    this.db = opts.db;
    this.prices = opts.prices ?? DEFAULT_PRICES;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    this.tally = new BatchTally(this.prices);
  }

  /** The provider's batch adapter; null when it has no key (or no such provider). */
  adapter(provider: string): BatchAdapter | null {
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

  block(provider: string, model: string, kind: string, reason: string): void {
    const cfg = this.opts.providers[provider];
    this.blocked.set(laneKey(provider, model), {
      endpoint: cfg ? endpointId(cfg, provider) : provider,
      model,
      kind,
      reason,
    });
  }

  isBlocked(provider: string, model: string): boolean {
    return this.blocked.has(laneKey(provider, model));
  }

  /** Paused or cancelling: open batches are cancelled at the provider, nothing new goes out. */
  get stopping(): boolean {
    const m = this.mode();
    return m === 'paused' || m === 'cancelling';
  }
}

export function laneKey(provider: string, model: string | undefined): string {
  return `${provider}\u0000${model}`;
}

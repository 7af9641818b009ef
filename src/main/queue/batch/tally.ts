// What a batch run counts (calls, spend, failures, re-sends) and the progress it reports:
// counts change only through the named transitions here.
import { costOf, type PriceTable } from '../../providers/pricing';
import type { Usage } from '../../providers/types';
import { batchProgressOf, requestStates, type LocalBatch } from '../../store/batches';
import type { Database } from '../../store/db';
import { emptyGroup, type GroupProgress, type PausedLane, type RunProgress } from '../progress';
import type { BatchInfo, BatchJob, BatchMode } from './types';

export class BatchTally {
  #tokens = { input: 0, output: 0, cached: 0 };
  #cost = 0;
  readonly #unpriced = new Set<string>();
  readonly #failuresByReason: Record<string, number> = {};
  #calls = 0;
  #retries = 0;
  /** Answers cut off at the output limit that were read from their whole fields. */
  #cutOffReads = 0;

  constructor(private readonly prices: PriceTable) {}

  /** A call to the provider's Batch API (submit, poll, find) got its reply. */
  called(): void {
    this.#calls++;
  }
  /** What an entry used, at batch prices; returns its cost. */
  spent(model: string, usage: Usage): number {
    const c = costOf(model, usage, this.prices, { batch: true });
    if (!c.priced) this.#unpriced.add(model);
    this.#tokens.input += usage.inputTokens;
    this.#tokens.output += usage.outputTokens;
    this.#tokens.cached += usage.cachedInputTokens;
    this.#cost += c.usd;
    return c.usd;
  }
  failed(kind: string, n = 1): void {
    this.#failuresByReason[kind] = (this.#failuresByReason[kind] ?? 0) + n;
  }
  /** An entry goes out again (a new batch, a re-ask, or the live engine). */
  retried(): void {
    this.#retries++;
  }
  cutOffRead(): void {
    this.#cutOffReads++;
  }

  /** Progress of the jobs as the ledger has them now, with the batches this run follows. */
  progress(
    db: Database,
    run: {
      jobs: readonly BatchJob[];
      cacheHits: ReadonlySet<number>;
      mode: BatchMode;
      startedAt: number;
      blocked: Iterable<PausedLane>;
      tracked: Iterable<LocalBatch>;
    },
  ): RunProgress & { batches: BatchInfo[] } {
    const rows = requestStates(
      db,
      run.jobs.map((j) => j.requestId),
    );
    const groups: Record<string, GroupProgress> = {};
    const overall = emptyGroup();
    for (const j of run.jobs) {
      const g = (groups[j.group] ??= emptyGroup());
      const s = rows.get(j.requestId)?.status ?? 'pending';
      for (const t of [g, overall]) {
        t.total++;
        if (s === 'done') {
          t.done++;
          if (run.cacheHits.has(j.requestId)) t.cacheHits++;
        } else if (s === 'failed') t.failed++;
        else if (s === 'in_flight') t.inFlight++;
        else t.pending++;
      }
    }
    return {
      state: run.mode === 'running' || run.mode === 'paused' ? run.mode : 'cancelling',
      elapsedMs: Date.now() - run.startedAt,
      overall,
      groups,
      callsPerMinute: 0,
      // A batch answers within its window; no rate to extrapolate from.
      etaSeconds: null,
      tokens: { ...this.#tokens },
      costUsd: this.#cost,
      unpricedModels: [...this.#unpriced],
      failuresByReason: { ...this.#failuresByReason },
      calls: this.#calls,
      rateLimited: 0,
      cutOffReads: this.#cutOffReads,
      retries: this.#retries,
      pausedLanes: [...run.blocked],
      batches: [...run.tracked].map(batchProgressOf),
    };
  }
}

// Sends ledger requests through the providers' Batch APIs (issue 14). The run's loop lives
// here; its concerns are parts: submit.ts (pending rows into batches within the provider's
// limits, claimed in the ledger under the batch first, so a batch survives quitting and the
// next run polls it instead of paying twice), poll.ts (polling, cancelling, lost creates),
// collect.ts (an ended batch's results, each answer read once by the caller's reader and
// stored with its value), reconcile.ts (every write of the batch and its rows to the store),
// tally.ts (counts and progress), tied together by context.ts. Expired or failed entries go
// into a new batch or back to the live engine, as the provider entry's `batchFallback` says.
import { batchPollSeconds, DEFAULT_BATCH_POLL_SECONDS } from '../../providers/config';
import { batchesOf, isOpenBatch, requestStates } from '../../store/batches';
import { BatchContext, laneKey, type BatchStats } from './context';
import { ResultCollector } from './collect';
import { cancelOpen, pollOpen } from './poll';
import { followOpen, rowsNow } from './reconcile';
import { Submitter } from './submit';
import type { BatchExecutorOptions, BatchJob, BatchMode, BatchReadOptions, BatchRunSummary } from './types';

export type { BatchExecutorOptions, BatchInfo, BatchJob, BatchReadOptions, BatchRunSummary } from './types';

export class BatchExecutor {
  private mode: BatchMode = 'running';
  private readonly ctx: BatchContext;
  private readonly submitter: Submitter;
  private wake: () => void = () => {};
  private startedAt = Date.now();

  constructor(opts: BatchExecutorOptions) {
    this.ctx = new BatchContext(opts, () => this.mode);
    this.submitter = new Submitter(this.ctx);
  }

  /** Where the time goes (benchmarks): submitting (upload), polling, reading and storing results. */
  get stats(): Readonly<BatchStats> {
    return this.ctx.stats;
  }

  /** Stop submitting; open batches are cancelled at the provider and what they answered is kept. */
  pause(): void {
    if (this.mode === 'running') this.mode = 'paused';
    this.wake();
  }

  resume(): void {
    if (this.mode === 'paused') this.mode = 'running';
    this.wake();
  }

  /** Cancels the open batches at the provider, stores what they answered; run() then resolves. */
  cancel(): void {
    this.mode = 'cancelling';
    this.wake();
  }

  /**
   * Stops polling and leaves every batch open at the provider (the app is quitting): the
   * rows stay claimed by their batches, and the next run polls them again.
   */
  detach(): void {
    this.mode = 'detaching';
    this.wake();
  }

  /**
   * Runs the jobs to the end: every request done, failed, or handed back for live sending.
   * Answers are read by `read` (once each) and stored with their values by `storeOutcomes`.
   */
  async run(jobs: readonly BatchJob[], opts: BatchReadOptions = {}): Promise<BatchRunSummary> {
    const { ctx } = this;
    this.startedAt = Date.now();
    const collector = new ResultCollector(ctx, opts);
    const providerOf = new Map(jobs.map((j) => [j.requestId, j.provider]));
    const ids = [...providerOf.keys()];
    const atStart = requestStates(ctx.db, ids);
    const cacheHits = new Set(ids.filter((id) => atStart.get(id)?.status === 'done'));
    // Batches this experiment's requests are in from an earlier run (the app was closed): poll them.
    followOpen(ctx, batchesOf(ctx.db, ids));
    const pollMs = Math.min(
      ...[...new Set(providerOf.values())].map((p) => {
        const cfg = ctx.opts.providers[p];
        return (cfg ? batchPollSeconds(cfg) : DEFAULT_BATCH_POLL_SECONDS) * 1000;
      }),
    );
    const laneOf = (id: number, rows: ReturnType<typeof requestStates>) =>
      laneKey(providerOf.get(id)!, rows.get(id)?.model);
    let cancelledRemote = false;
    for (;;) {
      if (this.mode === 'detaching') return this.summary(jobs, cacheHits, 'cancelled');
      const rows = rowsNow(ctx, ids);
      if (ctx.stopping && !cancelledRemote) {
        cancelledRemote = true;
        await cancelOpen(ctx);
      }
      if (this.mode === 'running') {
        cancelledRemote = false;
        const pending = ids.filter((id) => rows.get(id)?.status === 'pending' && !ctx.live.has(id));
        await this.submitter.submit(pending, providerOf);
      }
      await pollOpen(ctx, collector);
      this.publish(jobs, cacheHits);

      const now = requestStates(ctx.db, ids);
      const open = [...ctx.tracked.values()].some(isOpenBatch);
      const waiting = ids.some((id) => {
        const s = now.get(id)?.status;
        if (s === 'done' || s === 'failed' || ctx.live.has(id)) return false;
        if (s === 'pending') return this.mode === 'running' && !ctx.blocked.has(laneOf(id, now));
        return true; // in flight: in a batch, or another run sends it
      });
      if (this.mode === 'cancelling' && !open) return this.summary(jobs, cacheHits, 'cancelled');
      if (!open && !waiting && this.mode !== 'paused') {
        const blocked =
          ctx.blocked.size > 0 && ids.some((id) => now.get(id)?.status === 'pending' && !ctx.live.has(id));
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

  private progress(jobs: readonly BatchJob[], cacheHits: ReadonlySet<number>) {
    const { ctx } = this;
    return ctx.tally.progress(ctx.db, {
      jobs,
      cacheHits,
      mode: this.mode,
      startedAt: this.startedAt,
      blocked: ctx.blocked.values(),
      tracked: ctx.tracked.values(),
    });
  }

  private publish(jobs: readonly BatchJob[], cacheHits: ReadonlySet<number>): void {
    const { onProgress } = this.ctx.opts;
    if (!onProgress) return;
    onProgress({ ...this.progress(jobs, cacheHits), outcome: 'finished', live: [...this.ctx.live] });
  }

  private summary(
    jobs: readonly BatchJob[],
    cacheHits: ReadonlySet<number>,
    outcome: BatchRunSummary['outcome'],
  ): BatchRunSummary {
    return {
      ...this.progress(jobs, cacheHits),
      state: outcome === 'cancelled' ? 'cancelled' : outcome === 'blocked' ? 'blocked' : 'finished',
      outcome,
      live: [...this.ctx.live],
    };
  }
}

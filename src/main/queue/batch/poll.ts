// The open batches at the provider: polled (an ended one's results go to collect.ts),
// cancelled on pause and cancel, and a batch whose create reply was lost looked for there
// before its rows may go out again.
import { missingKeyMessage } from '../../providers/config';
import { classifyError } from '../../providers/errors';
import { abandonedSubmit, isOpenBatch, remoteIdTaken, type LocalBatch } from '../../store/batches';
import { BLOCKING, type BatchContext } from './context';
import type { ResultCollector } from './collect';
import { cancelling, ended, notSent, opened, polled } from './reconcile';

const DEFAULT_LOST_REPLY_GRACE_MS = 60_000;

/** Cancels the open batches at the provider; polling then reads what they came to. */
export async function cancelOpen(ctx: BatchContext): Promise<void> {
  for (const b of ctx.tracked.values()) {
    if (!isOpenBatch(b)) continue;
    const adapter = ctx.adapter(b.provider);
    if (b.status === 'submitting' || !b.remoteId || !adapter) continue;
    try {
      await adapter.cancel(b.remoteId);
      cancelling(ctx, b);
    } catch (err) {
      // Already ended, or unreachable: polling reads whatever it came to.
      ctx.opts.logger?.warn(`cancel of batch ${b.remoteId} failed: ${(err as Error).message}`);
    }
  }
}

/** Polls every open batch once; an ended one's results are read and stored, then it is closed. */
export async function pollOpen(ctx: BatchContext, collector: ResultCollector): Promise<void> {
  for (const b of ctx.tracked.values()) {
    if (!isOpenBatch(b)) continue;
    if (b.status === 'submitting' || !b.remoteId) {
      // Another live process is handing it over now: leave it to that process.
      if (!abandonedSubmit(b) && !ctx.inDoubt.has(b.id)) continue;
      // Its create may have reached the provider (the reply was lost, or the app stopped
      // while waiting for it): find it there, or free its rows once it is surely not there.
      if (!(await recoverLostSubmit(ctx, b)) || !b.remoteId) continue;
    }
    const adapter = ctx.adapter(b.provider);
    if (!adapter) {
      const cfg = ctx.opts.providers[b.provider];
      ctx.block(
        b.provider,
        b.model,
        'auth',
        cfg
          ? missingKeyMessage(b.provider, cfg, ctx.opts.keys)
          : `No provider "${b.provider}" in the config for batch ${b.remoteId}.`,
      );
      continue;
    }
    let state;
    const t0 = performance.now();
    try {
      state = await adapter.poll(b.remoteId);
      ctx.tally.called();
      ctx.stats.polls++;
      ctx.stats.pollMs += performance.now() - t0;
    } catch (err) {
      const e = classifyError(err);
      if (BLOCKING.has(e.kind))
        ctx.block(b.provider, b.model, e.kind, `Polling batch ${b.remoteId}: ${e.message}`);
      continue;
    }
    polled(ctx, b, state);
    if (!state.ended) continue;
    const t1 = performance.now();
    try {
      await collector.collect(b, adapter);
      ctx.stats.ingestMs += performance.now() - t1;
    } catch (err) {
      // A store that cannot be written ends the run (nothing half-written is kept); a results
      // download cut short is read again at the next poll (rows already stored are skipped).
      if (isStoreError(err)) throw err;
      ctx.opts.logger?.warn(`reading results of batch ${b.remoteId} failed: ${(err as Error).message}`);
      continue;
    }
    ended(ctx, b, state.failedReason);
  }
}

/**
 * Looks for a batch whose create reply never arrived. True when found (now open and polled);
 * false while still looking, or when it is surely not at the provider (then its rows are free
 * again and the batch is marked failed, so the next round submits them anew).
 */
async function recoverLostSubmit(ctx: BatchContext, b: LocalBatch): Promise<boolean> {
  const adapter = ctx.adapter(b.provider);
  const createdAt = Date.parse(b.createdAt);
  // A batch made before nonces (migration 10) cannot be found: as before, it counts as not sent.
  if (!b.nonce) {
    notSent(ctx, b.id, 'not submitted: the app stopped first');
    return false;
  }
  if (!adapter) return false; // the key is missing: pollOpen's block says so; look again later
  let found: string | null;
  try {
    found = await adapter.find({
      nonce: b.nonce,
      requestCount: b.requestCount,
      createdAt,
      taken: (remoteId) => remoteIdTaken(ctx.db, remoteId),
    });
    ctx.tally.called();
  } catch (err) {
    const e = classifyError(err);
    if (BLOCKING.has(e.kind))
      ctx.block(b.provider, b.model, e.kind, `Looking for batch ${b.id}: ${e.message}`);
    return false; // unreachable now: look again at the next poll
  }
  if (found) {
    ctx.inDoubt.delete(b.id);
    opened(ctx, b.id, found);
    ctx.opts.logger?.info(`batch ${b.id}: found at the provider as ${found} (its create reply was lost)`);
    if (ctx.stopping) {
      // Found after the open batches were cancelled: this one is cancelled too.
      try {
        await adapter.cancel(found);
        cancelling(ctx, b);
      } catch (err) {
        ctx.opts.logger?.warn(`cancel of batch ${found} failed: ${(err as Error).message}`);
      }
    }
    return true;
  }
  const grace = ctx.opts.lostReplyGraceMs ?? DEFAULT_LOST_REPLY_GRACE_MS;
  if (Date.now() < createdAt + grace) return false;
  notSent(ctx, b.id, 'not submitted: the provider lists no such batch');
  return false;
}

function isStoreError(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'SqliteError' || /^SQLITE_/.test((err as { code?: string }).code ?? ''))
  );
}

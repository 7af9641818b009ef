// The batch run and the store agree: every change of a batch's state or of its rows' ledger
// state goes through here (rows held by a batch, freed, completed; the batch record and its
// copy in `tracked`), so the submit, poll and collect parts never write the store themselves.
import type { RemoteBatchState } from '../../providers/batch-types';
import {
  getBatch,
  isOpenBatch,
  releaseHeld,
  requestStates,
  setBatchState,
  setRemoteId,
  type LocalBatch,
  type RequestState,
} from '../../store/batches';
import { batchOwner, isBatchOwner, leaseHeld } from '../../store/leases';
import { recoverInFlight } from '../../store/ledger';
import type { StoredOutcome } from '../engine-types';
import { storeOutcomes, type OutcomeWrite } from '../outcome-store';
import type { BatchContext } from './context';

/**
 * The jobs' rows as the ledger has them now. Rows a dead process left in flight (not in a
 * batch) are free again; rows in a batch this run does not follow (another process's, or one
 * left by a closed app) get that batch followed too.
 */
export function rowsNow(ctx: BatchContext, ids: readonly number[]): Map<number, RequestState> {
  const rows = requestStates(ctx.db, ids);
  const stale = ids.filter((id) => {
    const r = rows.get(id);
    return r?.status === 'in_flight' && !isBatchOwner(r.lease.lease_owner) && !leaseHeld(r.lease, Date.now());
  });
  if (stale.length) for (const id of recoverInFlight(ctx.db, stale)) rows.get(id)!.status = 'pending';
  for (const r of rows.values()) {
    const owner = r.lease.lease_owner;
    if (r.status !== 'in_flight' || !isBatchOwner(owner)) continue;
    const bid = Number(owner!.slice('batch:'.length));
    if (ctx.tracked.has(bid)) continue;
    const b = getBatch(ctx.db, bid);
    if (b && isOpenBatch(b)) ctx.tracked.set(bid, b);
  }
  return rows;
}

/** Follows the batches these rows are in from an earlier run (the app was closed). */
export function followOpen(ctx: BatchContext, batches: readonly LocalBatch[]): void {
  for (const b of batches) if (isOpenBatch(b)) ctx.tracked.set(b.id, b);
}

/** The provider has the batch under this id: it is open, and followed. */
export function opened(ctx: BatchContext, batchId: number, remoteId: string): LocalBatch {
  setRemoteId(ctx.db, batchId, remoteId);
  const b = getBatch(ctx.db, batchId)!;
  const known = ctx.tracked.get(batchId);
  if (known) Object.assign(known, b);
  else ctx.tracked.set(batchId, b);
  return known ?? b;
}

/** A create sent with no reply: followed, and looked for at each poll before its rows go again. */
export function inDoubt(ctx: BatchContext, batchId: number): void {
  ctx.inDoubt.add(batchId);
  ctx.tracked.set(batchId, getBatch(ctx.db, batchId)!);
}

/** The batch surely never reached the provider (or was refused): its rows are pending again. */
export function notSent(ctx: BatchContext, batchId: number, error: string): void {
  ctx.inDoubt.delete(batchId);
  releaseHeld(ctx.db, batchId);
  setBatchState(ctx.db, batchId, { status: 'failed', error });
  const b = ctx.tracked.get(batchId);
  if (b) b.status = 'failed';
}

export function cancelling(ctx: BatchContext, b: LocalBatch): void {
  setBatchState(ctx.db, b.id, { status: 'cancelling' });
  b.status = 'cancelling';
}

/** What a poll said: the provider's status word and count. */
export function polled(ctx: BatchContext, b: LocalBatch, state: RemoteBatchState): void {
  setBatchState(ctx.db, b.id, { remoteStatus: state.status, finished: state.finished });
  b.remoteStatus = state.status;
  b.finishedCount = state.finished ?? b.finishedCount;
}

/**
 * A chunk of the batch's entries into the ledger, with the values read from their answers
 * (`store`) in the same transaction; rows the batch no longer holds are left as they are.
 */
export function storeChunk(
  ctx: BatchContext,
  b: LocalBatch,
  writes: readonly OutcomeWrite[],
  store: ((outcomes: StoredOutcome[]) => void) | undefined,
): void {
  if (writes.length) storeOutcomes(ctx.db, writes, batchOwner(b.id), store);
}

/** Every result is stored: what they did not mention (OpenAI leaves cancelled entries out) is pending again. */
export function ended(ctx: BatchContext, b: LocalBatch, failedReason: string | undefined): void {
  releaseHeld(ctx.db, b.id);
  setBatchState(ctx.db, b.id, { status: failedReason ? 'failed' : 'ended', error: failedReason });
  b.status = failedReason ? 'failed' : 'ended';
}

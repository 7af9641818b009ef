// Rows this run did not get or lost, and rows another live run has in flight: their outcome is
// read from the ledger and counted here, never paid for twice; a row another run gave back, or
// left behind by dying, is sent by this one.
import { getPlanRows, recoverInFlight } from '../store/ledger';
import { leaseHeld } from '../store/leases';
import type { EngineContext, ForeignRows } from './engine-context';
import { kindOfReason, type RunState, type Unit } from './run-state';

export class ForeignRowWatch implements ForeignRows {
  constructor(private readonly ctx: EngineContext) {}

  /**
   * A row this run did not get or lost: count what the ledger says, or, while another live
   * run has it in flight, wait for that run's outcome.
   */
  settle(r: RunState, u: Unit): void {
    const row = getPlanRows(this.ctx.db, [u.id]).get(u.id);
    if (row?.status === 'done' || row?.status === 'failed') {
      if (row.status === 'done') r.countFinished(u.groups, 'done', true);
      else r.countFinished(u.groups, 'failed', false, kindOfReason(row.failureReason));
      this.ctx.emitCommitted([u.id]);
    } else if (row?.status === 'in_flight') r.foreignAwaited(u);
    else if (row?.status === 'pending' && r.state !== 'cancelling') u.lane.pushFront(u);
    else r.rowSkipped();
  }

  /** Follows rows another run has in flight (see the file's comment). */
  watch(r: RunState): void {
    if (!r.foreign.size || r.state === 'cancelling') return;
    const rows = getPlanRows(this.ctx.db, [...r.foreign.keys()]);
    const now = Date.now();
    const orphaned: Unit[] = [];
    for (const [id, u] of r.foreign) {
      const row = rows.get(id);
      if (row?.status === 'in_flight' && leaseHeld(row.lease, now)) continue;
      r.foreignSettled(id);
      if (row?.status === 'in_flight') orphaned.push(u);
      else if (row?.status === 'pending') u.lane.pushFront(u);
      else this.settle(r, u);
    }
    if (orphaned.length) {
      const recovered = new Set(
        recoverInFlight(
          this.ctx.db,
          orphaned.map((u) => u.id),
        ),
      );
      for (const u of orphaned) {
        if (recovered.has(u.id)) u.lane.pushFront(u);
        else this.settle(r, u);
      }
    }
    this.ctx.pump();
  }

  /** The run is ending: what waits in the lanes goes back to pending, nothing is awaited. */
  releaseWaiting(r: RunState): void {
    for (const lane of this.ctx.lanes.values())
      for (const u of lane.drainAll()) {
        try {
          this.ctx.outcomes.release(r, u, false);
        } catch (err) {
          // The store failed (the reason the run is stopping): the lease runs out instead.
          this.ctx.logger.warn(
            `request ${u.id} left in flight: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
    r.foreignDropped();
  }
}

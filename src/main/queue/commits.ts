// Outcomes to the ledger. Final outcomes that arrive in one turn of the event loop are stored
// together in one transaction (group commit) at the end of that turn, and in any case before
// anything is sent, reported or counted: an answer counts only once it is on disk. A store
// that cannot be written stalls the run (nothing sent, the commit retried with backoff) and
// the answers wait in memory and in the side file (pending-answers.ts).
import { applyCompletions, type Completion } from '../store/ledger';
import { LEASE_MS, renewLeases } from '../store/leases';
import type { Commits, EngineContext } from './engine-context';
import { storeOutcomes } from './outcome-store';
import { dropSpilled, isStoreFault, spillAnswers, type FinalCompletion } from './pending-answers';
import { kindOfReason, type PendingWrite, type RunState, type Unit } from './run-state';
import { countOwed, owed, owesSomething } from './spend';

export class GroupCommit implements Commits {
  constructor(private readonly ctx: EngineContext) {}

  /** A final outcome: stored with the others of this turn (see the file's comment). */
  finish(r: RunState, u: Unit, c: FinalCompletion, value?: unknown): void {
    u.claimed = false;
    u.spec = null;
    if (r.outcomeWaiting({ unit: u, c, value }))
      setImmediate(() =>
        this.ctx.guarded(r, () => {
          this.commit(r);
          this.ctx.checkFinished();
        }),
      );
  }

  /**
   * Stores the final outcomes waiting in `r.writes`, then counts and announces them. While the
   * store fails, the retry timer commits (with backoff), not every turn.
   */
  commit(r: RunState): void {
    if (!r.writes.length) return;
    if (!r.stall) this.tryCommit(r);
    // Arrived while the store fails: into the side file now, not at the next retry, so a
    // Ctrl+C or a kill before it does not cost them (they are stored at the next start).
    else this.spill(r);
  }

  /**
   * One group commit. A store fault keeps every outcome in memory (and in the side file) for
   * the next try: an answer received is never dropped, so it is never paid for twice.
   */
  tryCommit(r: RunState): boolean {
    const { ctx } = this;
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
    // Everything spilled was in this batch: the side file is no longer needed.
    if (r.writesStored()) {
      try {
        dropSpilled(ctx.db, r.lease.owner, r.reserve);
      } catch (err) {
        // Replaying it finds every row stored already and changes nothing.
        ctx.logger.warn(`side file not removed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const refused = new Map(skipped.map((s) => [s.completion.id, s.found]));
    const now = ctx.now();
    const ids: number[] = [];
    for (const { unit: u, c } of batch) {
      countOwed(r, u, c);
      r.countInFlight(u, -1);
      const found = refused.get(u.id);
      if (found !== undefined) {
        ctx.logger.warn(
          `request ${u.id}: not recorded as ${c.status}: the ledger has it ${found}, no longer in flight for this run`,
        );
        ctx.foreign.settle(r, u);
        continue;
      }
      u.lane.completions.add(now);
      if (c.status === 'done') r.countFinished(u.groups, 'done', false);
      else r.countFinished(u.groups, 'failed', false, kindOfReason(c.reason));
      ids.push(u.id);
    }
    if (ids.length) ctx.emitCommitted(ids);
    if (refused.size) ctx.pump();
    return true;
  }

  /**
   * Writes one non-final outcome of a claimed unit (back to pending, or usage of an answer
   * asked again) at once. A row that is no longer in flight under this run's lease is not
   * touched: that would be a bug (or a takeover after a stall longer than the lease), so it
   * is logged and the ledger's state is believed.
   */
  write(r: RunState, u: Unit, c: Completion): boolean {
    const { skipped } = applyCompletions(this.ctx.db, [c], r.lease.owner);
    countOwed(r, u, c);
    if (c.status !== 'in_flight') r.countInFlight(u, -1);
    if (!skipped.length) return true;
    this.ctx.logger.warn(
      `request ${u.id}: not recorded as ${c.status}: the ledger has it ${skipped[0].found}, no longer in flight for this run`,
    );
    return false;
  }

  /** Stores usage paid for an answer that is asked again, so a crash cannot lose it. */
  writeOwed(r: RunState, u: Unit): boolean {
    if (!u.claimed || !owesSomething(u)) return true;
    // A store that cannot be written: what is owed stays on the unit, for its next write.
    if (r.stall) return true;
    try {
      if (this.write(r, u, { id: u.id, status: 'in_flight', ...owed(u) })) return true;
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      this.enterStall(r, err);
      return true;
    }
    u.claimed = false;
    r.countInFlight(u, -1);
    this.ctx.foreign.settle(r, u);
    return false;
  }

  /**
   * The store cannot be written (disk full, I/O error): stop sending at once, tell the person
   * through progress, and try again with backoff. Calls on the wire still come back; their
   * answers wait in memory and in the side file.
   */
  enterStall(r: RunState, err: Error): void {
    if (!r.stalled(err.message, this.ctx.now())) return;
    this.ctx.logger.warn(`store write failed: ${err.message}; retrying`);
    this.scheduleStoreRetry(r);
  }

  /** Appends the outcomes not yet in the side file to it; on failure they stay in memory only. */
  spill(r: RunState): void {
    const fresh = r.writes.filter((w) => !r.isSpilled(w.c.id));
    if (!fresh.length) return;
    try {
      const file = spillAnswers(
        this.ctx.db,
        r.lease.owner,
        fresh.map((w) => w.c),
        r.reserve,
      );
      const first = r.spilledTo(
        file,
        fresh.map((w) => w.c.id),
      );
      if (first) this.ctx.logger.warn(`answers not stored yet are kept in ${file}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (r.spillFailed())
        this.ctx.logger.warn(`side file not written either (${message}); answers kept in memory`);
    }
  }

  /**
   * Whether a run whose store cannot be written stops now (nothing is on the wire): when it is
   * cancelled, or when every answer not stored is safe in the side file and the store has
   * failed for `giveUpMs`. It stops with the store's error, saying where the answers are.
   */
  stallEnds(r: RunState): boolean {
    const stall = r.stall!;
    const cancelling = r.state === 'cancelling';
    // A last try before a cancelled run stops: what is stored now is not asked again.
    if (cancelling && r.writes.length && this.tryCommit(r)) {
      r.stallCleared();
      return true;
    }
    const unsaved = r.writes.filter((w) => !r.isSpilled(w.c.id)).length;
    if (!cancelling && (unsaved > 0 || this.ctx.now() - stall.since < this.ctx.storeRetry.giveUpMs))
      return false;
    r.storeRetryStopped();
    const kept = r.writes.length - unsaved;
    const where = kept ? `; ${kept} answers kept in ${r.spillFile}, stored at the next start` : '';
    const lost = unsaved ? `; ${unsaved} answers could not be kept and will be asked again` : '';
    const err = Object.assign(new Error(`store write failed: ${stall.reason}${where}${lost}`), {
      code: 'SQLITE_FULL',
    });
    if (r.faulted(err)) this.ctx.foreign.releaseWaiting(r);
    return true;
  }

  /** The ledger rows, and with them (one transaction) what the caller stores beside them. */
  private storeBatch(r: RunState, batch: readonly PendingWrite[]) {
    return storeOutcomes(this.ctx.db, batch, r.lease.owner, r.opts.storeOutcomes);
  }

  private scheduleStoreRetry(r: RunState): void {
    const stall = r.stall;
    if (!stall || stall.timer || r.settled) return;
    const { baseMs, maxMs } = this.ctx.storeRetry;
    const ms = Math.min(maxMs, baseMs * 2 ** stall.attempt);
    r.storeRetryScheduled(
      setTimeout(() => {
        r.storeRetryStopped();
        this.ctx.guarded(r, () => this.retryStore(r));
      }, ms),
    );
  }

  /** Tries the store again: the waiting answers, or (none waiting) a small write of its own. */
  private retryStore(r: RunState): void {
    const stall = r.stall;
    if (!stall || r.settled) return;
    r.storeRetried();
    let ok = false;
    try {
      // The WAL holds a copy of every page written since the last checkpoint: folding it into
      // the store and truncating it is often what frees the room a full disk needs.
      this.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Not possible now (no room even for that, or a reader holds the WAL): the commit is tried anyway.
    }
    try {
      // A failure here keeps the stall (enterStall only updates its reason).
      if (r.writes.length) ok = this.tryCommit(r);
      else {
        renewLeases(this.ctx.db, r.lease, Date.now() + LEASE_MS);
        ok = true;
      }
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      r.stalled(err.message, this.ctx.now());
    }
    if (ok) {
      r.stallCleared();
      this.ctx.logger.warn(`the store is written again (after ${stall.attempt} tries); sending resumes`);
      this.ctx.pump();
      return;
    }
    this.scheduleStoreRetry(r);
    this.ctx.checkFinished();
  }
}

// Sending: every turn, each lane gives what its budget allows (one probe at a time in an
// outage), the new ones are claimed in the ledger in one statement, and each goes out; an
// answer or error goes to outcomes.ts. Nothing new goes out before the answers already here
// are stored.
import { classifyError, ProviderError } from '../providers/errors';
import type { ChatAdapter } from '../providers/types';
import { claimPendingRequests } from '../store/ledger';
import type { EngineContext } from './engine-context';
import { isStoreFault } from './pending-answers';
import { specOf, type RunState, type Unit } from './run-state';

export class Dispatcher {
  constructor(private readonly ctx: EngineContext) {}

  dispatch(): void {
    const { ctx } = this;
    const r = ctx.current();
    if (!r) return;
    if (r.fatal === undefined) ctx.commits.commit(r);
    if (r.state === 'cancelling') {
      ctx.foreign.releaseWaiting(r);
      ctx.checkFinished();
      return;
    }
    // The store cannot be written: nothing is sent until it can (commits.ts retries it).
    if (r.state !== 'running' || r.stall) {
      ctx.checkFinished();
      return;
    }
    const now = ctx.now();
    let nextWake = Infinity;
    const toClaim: Unit[] = [];
    const toSend: Unit[] = [];
    for (const lane of ctx.lanes.values()) {
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
      // Before the model's first answer, no more on the wire than the rejections still to come
      // before the pause: a server that rejects everything gets that many calls in all.
      const cap = lane.proven
        ? lane.sendCap
        : Math.min(lane.sendCap, Math.max(1, ctx.policy.pauseAfterBadRequests - lane.consecutiveBadRequests));
      while (lane.inFlight < cap) {
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
    if (toClaim.length && !this.claim(r, toClaim, toSend)) {
      ctx.checkFinished();
      return;
    }
    for (const u of toSend) void this.send(r, u);
    if (nextWake < Infinity) this.wakeIn(r, nextWake);
    ctx.checkFinished();
  }

  /**
   * Claims the units in the ledger; the claimed ones join `toSend`. False when the store could
   * not be written: everything taken this turn went back to its lane to wait for the store.
   */
  private claim(r: RunState, toClaim: Unit[], toSend: Unit[]): boolean {
    const { ctx } = this;
    let claimed: Map<number, string>;
    try {
      claimed = claimPendingRequests(
        ctx.db,
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
      ctx.commits.enterStall(r, err);
      return false;
    }
    for (const u of toClaim) {
      const requestJson = claimed.get(u.id);
      if (requestJson !== undefined) {
        u.spec ??= ctx.lanes.specFor(requestJson, u.lane);
        u.claimed = true;
        u.sends = 0;
        r.countInFlight(u, 1);
        toSend.push(u);
      } else {
        // Another run finished or took it meanwhile: do not pay for it again.
        u.lane.inFlight--;
        if (u.probe && u.lane.outage) u.lane.outage.probing = false;
        u.probe = false;
        ctx.foreign.settle(r, u);
        // Its slot is free again: fill it on the next turn.
        ctx.pump();
      }
    }
    return true;
  }

  private wakeIn(r: RunState, ms: number): void {
    r.wakeAt(this.ctx.now() + ms, Math.max(1, ms), () => this.ctx.guarded(r, () => this.dispatch()));
  }

  private async send(r: RunState, u: Unit): Promise<void> {
    const { ctx } = this;
    const lane = u.lane;
    const adapter = ctx.lanes.adapterOf(lane);
    // The claim counted the first send as an attempt; retries and re-asks are owed.
    if (u.sends++ > 0) u.owedAttempts++;
    r.callStarted();
    let outcome: { res: Awaited<ReturnType<ChatAdapter['send']>> } | { err: ProviderError };
    try {
      if (!adapter) throw new ProviderError('auth', 'No API key is available for this provider.');
      outcome = { res: await adapter.send(specOf(u)) };
    } catch (err) {
      outcome = { err: classifyError(err) };
    }
    try {
      if ('res' in outcome) ctx.outcomes.onResponse(r, u, outcome.res.result, outcome.res.headers);
      else ctx.outcomes.onError(r, u, outcome.err);
    } catch (err) {
      ctx.abort(r, err);
    } finally {
      r.callSettled();
      lane.inFlight--;
      ctx.pump();
    }
  }
}

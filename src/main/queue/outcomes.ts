// What an answer or an error means for its unit: stored, asked again, retried later, waited
// out as an outage, given back, or failed (retry-policy.ts and outage.ts decide; this applies).
import { ProviderError } from '../providers/errors';
import type { ChatResult } from '../providers/types';
import { failUnsent } from '../store/ledger';
import type { EngineContext, Outcomes } from './engine-context';
import type { Lane } from './lane';
import { Outage } from './outage';
import { isStoreFault } from './pending-answers';
import { parseRateLimitHeaders } from './rate-limit-headers';
import { actionFor, backoffMs } from './retry-policy';
import { specOf, type RunState, type Unit } from './run-state';
import { owe, owed } from './spend';

export class OutcomePolicy implements Outcomes {
  constructor(private readonly ctx: EngineContext) {}

  /** Calls on OpenAI's flex tier are billed at its (half) price. */
  private flex(lane: Unit['lane']): boolean {
    return this.ctx.lanes.configOf(lane)?.serviceTier === 'flex';
  }

  onResponse(r: RunState, u: Unit, result: ChatResult, headers: Headers): void {
    const now = this.ctx.now();
    r.callAnswered(now);
    const lane = u.lane;
    this.answered(lane, u);
    lane.proven = true;
    lane.observe(parseRateLimitHeaders(headers, now), now);
    owe(r, u, result.usage, this.ctx.prices, this.flex(lane));
    let value: unknown = undefined;
    let reason: string | null;
    if (r.opts.read) {
      const read = r.opts.read(result, u.id);
      reason = read.ok ? null : read.error;
      if (read.ok) value = read.value;
    } else reason = r.opts.validate?.(specOf(u), result, u.id) ?? null;
    if (reason) {
      this.onUnusable(r, u, reason, result.text);
      return;
    }
    this.ctx.warning.watch(r, u, true);
    if (result.readFromCutOff) r.cutOffRead();
    lane.onSuccess();
    this.ctx.commits.finish(
      r,
      u,
      { id: u.id, status: 'done', text: result.text, json: result.json, ...owed(u) },
      value,
    );
  }

  onError(r: RunState, u: Unit, e: ProviderError): void {
    const { ctx } = this;
    const now = ctx.now();
    const lane = u.lane;
    if (e.status !== undefined) r.callAnswered(now);
    if (e.headers) lane.observe(parseRateLimitHeaders(e.headers, now), now);
    if (e.usage) owe(r, u, e.usage, ctx.prices, this.flex(lane));
    const action = actionFor(e.kind);
    if (action !== 'retry_backoff' && action !== 'release') this.answered(lane, u);
    if (action !== 'fail' && action !== 'reask') lane.consecutiveBadRequests = 0;
    switch (action) {
      case 'reask':
        // The model answered, if unusably: the request itself is fine.
        lane.proven = true;
        this.onUnusable(r, u, e.message, e.rawText ?? null);
        return;
      case 'retry_rate_limit': {
        r.rateLimitHit();
        if (e.capacity) {
          // Flex without capacity: the lane waits and the call goes again, however often; it
          // is no failure of the call, so it never counts towards giving up.
          const info = e.headers ? parseRateLimitHeaders(e.headers, now) : {};
          lane.onRateLimited(
            info,
            backoffMs(Math.min(u.rateLimits + 1, 6), ctx.policy, ctx.random) + 250,
            now,
          );
          this.retryLater(r, u, 0);
          return;
        }
        u.rateLimits++;
        const info = e.headers ? parseRateLimitHeaders(e.headers, now) : {};
        lane.onRateLimited(info, backoffMs(Math.min(u.rateLimits, 6), ctx.policy, ctx.random) + 250, now);
        if (u.rateLimits > ctx.policy.maxRateLimitRetries) {
          this.fail(
            r,
            u,
            'rate_limited',
            `${e.message} (gave up after ${u.rateLimits} rate-limited attempts)`,
          );
          return;
        }
        this.retryLater(r, u, 0);
        return;
      }
      case 'retry_backoff':
        this.onTransient(r, u, e, now);
        return;
      case 'fail':
        // Missing recorded answers are the file's gaps, each listed: no reason to stop the rest.
        if (e.kind === 'bad_request' && ++lane.consecutiveBadRequests >= ctx.policy.pauseAfterBadRequests)
          ctx.lanes.pause(
            lane,
            'bad_request',
            `The last ${lane.consecutiveBadRequests} requests to ${lane.model} were all rejected, so its calls are paused before they use up the plan; check the model's name and parameters and the server, then resume. Last error: ${e.message}`,
          );
        this.fail(r, u, e.kind, e.message);
        return;
      case 'pause_lane':
        ctx.lanes.pause(lane, e.kind, e.message);
        this.release(r, u, true);
        return;
      case 'release':
        u.probe = false;
        if (lane.outage) lane.outage.probing = false;
        this.release(r, u, true);
        return;
    }
  }

  /** Back to pending in the ledger; requeued unless the run is ending. */
  release(r: RunState, u: Unit, requeue: boolean): void {
    u.probe = false;
    if (u.claimed && !r.stall) {
      let stored: boolean | null = null;
      try {
        stored = this.ctx.commits.write(r, u, { id: u.id, status: 'pending', ...owed(u) });
      } catch (err) {
        if (!isStoreFault(err)) throw err;
        this.ctx.commits.enterStall(r, err);
      }
      if (stored !== null) {
        u.claimed = false;
        if (!stored) {
          this.ctx.foreign.settle(r, u);
          return;
        }
      }
    }
    // With the store failing, a claimed row stays in flight under this run (its lease runs out
    // if the run ends first); the unit keeps its claim and what it owes.
    if (requeue && r.state !== 'cancelling') u.lane.pushFront(u);
  }

  /** The provider answered: an outage (if any) is over. */
  private answered(lane: Lane<Unit>, u: Unit): void {
    u.probe = false;
    if (lane.outage) this.ctx.logger.info(`${lane.model} at ${lane.endpoint} answers again; sending resumes`);
    lane.clearOutage();
  }

  /**
   * A connection error, timeout or 5xx. A few in a row on one lane mean the provider is down:
   * the lane then waits it out (outage.ts) and the call is not charged an attempt. One call
   * that keeps failing on its own (a 5xx only its content triggers) fails after maxAttempts.
   */
  private onTransient(r: RunState, u: Unit, e: ProviderError, now: number): void {
    const { ctx } = this;
    const lane = u.lane;
    if (!lane.outage && lane.noteTransient(u, ctx.policy.outageAfterFailures)) {
      lane.outage = new Outage(now, e.kind, e.message, this.outagePolicy(lane));
      ctx.logger.info(`${lane.model} at ${lane.endpoint}: ${lane.outage.describe()}`);
    }
    const outage = lane.outage;
    if (outage) {
      const wasProbe = u.probe;
      outage.failed(now, e.kind, e.message, wasProbe);
      u.probe = false;
      if (outage.expired(now)) {
        this.giveUp(r, lane, outage, u, now);
        return;
      }
      if (!ctx.commits.writeOwed(r, u)) return;
      r.retried();
      if (r.state === 'cancelling') this.release(r, u, false);
      // Probes rotate: a failed probe goes to the back, so the next one is another request and
      // one request that always fails (a poison body) cannot hold the lane in an outage.
      else if (wasProbe) lane.push(u);
      else lane.pushFront(u);
      return;
    }
    u.transient++;
    if (u.transient >= ctx.policy.maxAttempts) {
      this.fail(r, u, e.kind, `${e.message} (gave up after ${u.transient} attempts)`);
      return;
    }
    this.retryLater(r, u, backoffMs(u.transient, ctx.policy, ctx.random));
  }

  private outagePolicy(lane: Lane<Unit>) {
    const { policy } = this.ctx;
    const seconds = this.ctx.lanes.configOf(lane)?.outageToleranceSeconds;
    return {
      outageAfterFailures: policy.outageAfterFailures,
      probeBaseMs: policy.probeBaseMs,
      probeMaxMs: policy.probeMaxMs,
      toleranceMs: seconds === undefined ? policy.outageToleranceMs : seconds * 1000,
    };
  }

  /** The outage outlasted its tolerance: every call waiting in the lane fails with the reason. */
  private giveUp(r: RunState, lane: Lane<Unit>, outage: Outage, last: Unit, now: number): void {
    const { ctx } = this;
    const reason = `${outage.kind}: ${outage.failureReason(now)}`;
    ctx.logger.info(`${lane.model} at ${lane.endpoint}: ${outage.failureReason(now)}`);
    const units = [last, ...lane.drainAll()];
    lane.clearOutage();
    const unclaimed = units.filter((u) => !u.claimed);
    const written = new Set(
      failUnsent(
        ctx.db,
        unclaimed.map((u) => u.id),
        reason,
        r.lease.owner,
      ),
    );
    const ids: number[] = [];
    for (const u of unclaimed) {
      if (!written.has(u.id)) {
        ctx.foreign.settle(r, u);
        continue;
      }
      lane.completions.add(now);
      r.countFinished(u.groups, 'failed', false, outage.kind);
      ids.push(u.id);
    }
    if (ids.length) ctx.emitCommitted(ids);
    for (const u of units.filter((x) => x.claimed))
      ctx.commits.finish(r, u, { id: u.id, status: 'failed', reason, text: null, ...owed(u) });
  }

  private onUnusable(r: RunState, u: Unit, reason: string, rawText: string | null): void {
    this.ctx.warning.watch(r, u, false);
    u.parse++;
    if (u.parse > this.ctx.policy.maxParseRetries) {
      this.fail(r, u, 'unparseable', `${reason} (asked ${u.parse} times)`, rawText);
      return;
    }
    // The unusable answer was paid for: its usage is stored before it is counted.
    if (!this.ctx.commits.writeOwed(r, u)) return;
    r.retried();
    if (r.state === 'cancelling') this.release(r, u, false);
    else u.lane.pushFront(u);
  }

  private retryLater(r: RunState, u: Unit, delayMs: number): void {
    if (!this.ctx.commits.writeOwed(r, u)) return;
    r.retried();
    if (r.state === 'cancelling') {
      this.release(r, u, false);
      return;
    }
    if (delayMs <= 0) u.lane.pushFront(u);
    else u.lane.delay(u, this.ctx.now() + delayMs);
    this.ctx.logger.info(`retrying request ${u.id} on ${u.lane.model} in ${delayMs} ms`);
  }

  private fail(r: RunState, u: Unit, kind: string, message: string, rawText: string | null = null): void {
    this.ctx.commits.finish(r, u, {
      id: u.id,
      status: 'failed',
      reason: `${kind}: ${message}`,
      text: rawText,
      ...owed(u),
    });
  }
}

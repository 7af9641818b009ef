import { DEFAULT_CONCURRENCY, isSimulated, SIMULATED_LIMITS, type ProviderConfig } from '../providers/config';
import type { RateLimitInfo } from './rate-limit-headers';
import type { Outage } from './outage';
import { SlidingCounter } from './progress';
import { TokenBucket } from './token-bucket';

// One lane per endpoint + model: providers enforce their limits per model, so each gets
// its own concurrency cap, RPM and TPM buckets, and its own slow-down after a 429.

/**
 * Seconds of refill the buckets hold. One second: a lane never starts with more than a
 * second's worth of its limit at once (a provider that counts per second would refuse more),
 * and a server that allows a longer burst keeps spare room for the jitter between our send
 * times and its arrival times, so holding the rate does not turn into 429s under load.
 */
export const BURST_SECONDS = 1;
/** After a 429 the refill rate is cut to this share, and grows back slowly on success. */
const RATE_CUT = 0.8;
const MIN_FACTOR = 0.25;
const RECOVERY_PER_SUCCESS = 0.01;
const CUT_COOLDOWN_MS = 1000;

export interface LaneLimits {
  concurrency: number;
  rpm?: number;
  tpm?: number;
}

export function laneLimits(cfg: ProviderConfig): LaneLimits {
  const sim = isSimulated(cfg) ? SIMULATED_LIMITS : undefined;
  return {
    concurrency: cfg.concurrency ?? sim?.concurrency ?? DEFAULT_CONCURRENCY,
    rpm: cfg.rpm ?? sim?.rpm,
    tpm: cfg.tpm,
  };
}

export class Lane<U> {
  readonly rpm?: TokenBucket;
  readonly tpm?: TokenBucket;
  /** Current concurrency cap; lowered after 429s when there is no RPM bucket to slow. */
  cap: number;
  inFlight = 0;
  blockedUntil = 0;
  /** Why the lane sends nothing; `label`: the watched group an early warning paused it for. */
  paused: { kind: string; reason: string; label?: string } | null = null;
  consecutiveBadRequests = 0;
  /**
   * The model has answered on this lane (anything but a rejection of the request). Until then
   * the lane sends no more at once than the rejections that pause it (RetryPolicy
   * pauseAfterBadRequests): an endpoint that rejects every request costs that many calls, not
   * its whole concurrency.
   */
  proven = false;
  /** Connection errors, timeouts and 5xx in a row, with no answer between, and the calls they hit. */
  consecutiveTransient = 0;
  readonly transientCalls = new Set<U>();
  /** Set while the provider is down: the lane sends one probe at a time. */
  outage: Outage | null = null;
  /** Calls this lane finished (answered or failed for good), for its own time left. */
  readonly completions = new SlidingCounter(60);
  private successesSinceCut = 0;
  private lastCutAt = -Infinity;
  private readonly ready: U[] = [];
  private head = 0;
  /** Units waiting out a backoff, with the time they may go again. */
  private readonly delayed: { unit: U; at: number }[] = [];

  constructor(
    readonly endpoint: string,
    readonly model: string,
    readonly limits: LaneLimits,
    now: number,
  ) {
    this.cap = limits.concurrency;
    if (limits.rpm)
      this.rpm = new TokenBucket(limits.rpm, Math.max(1, (limits.rpm / 60) * BURST_SECONDS), now);
    if (limits.tpm)
      this.tpm = new TokenBucket(limits.tpm, Math.max(1, (limits.tpm / 60) * BURST_SECONDS), now);
  }

  get key(): string {
    return laneKey(this.endpoint, this.model);
  }

  /** This process's part of the endpoint+model's limits (1 = the whole budget; see rate-shares). */
  share = 1;

  /** Sets this run's part of the limits when other processes send to the same endpoint+model. */
  setShare(share: number, now: number): void {
    this.share = share;
    this.rpm?.setShare(share, now);
    this.tpm?.setShare(share, now);
  }

  /** Calls this lane may have on the wire now: its cap, cut to its share of the concurrency. */
  get sendCap(): number {
    return Math.min(this.cap, Math.max(1, Math.floor(this.limits.concurrency * this.share)));
  }

  push(unit: U): void {
    this.ready.push(unit);
  }

  /** Re-asks and released units go first: they were next before. */
  pushFront(unit: U): void {
    if (this.head > 0) this.ready[--this.head] = unit;
    else this.ready.unshift(unit);
  }

  delay(unit: U, at: number): void {
    this.delayed.push({ unit, at });
  }

  get readyCount(): number {
    return this.ready.length - this.head;
  }

  get delayedCount(): number {
    return this.delayed.length;
  }

  peek(): U | undefined {
    return this.head < this.ready.length ? this.ready[this.head] : undefined;
  }

  shift(): U | undefined {
    if (this.head >= this.ready.length) return undefined;
    const u = this.ready[this.head];
    this.ready[this.head++] = undefined as U;
    if (this.head > 1024 && this.head * 2 > this.ready.length) {
      this.ready.splice(0, this.head);
      this.head = 0;
    }
    return u;
  }

  /** Moves due backoffs to the front; returns ms until the next one is due (Infinity if none). */
  promoteDue(now: number): number {
    let next = Infinity;
    for (let i = this.delayed.length - 1; i >= 0; i--) {
      const d = this.delayed[i];
      if (d.at <= now) {
        this.pushFront(d.unit);
        this.delayed.splice(i, 1);
      } else next = Math.min(next, d.at - now);
    }
    return next;
  }

  /** Everything waiting (ready and delayed), e.g. to release on cancel. */
  drainAll(): U[] {
    const out = this.ready.slice(this.head);
    this.ready.length = 0;
    this.head = 0;
    for (const d of this.delayed.splice(0)) out.push(d.unit);
    return out;
  }

  /** Ms until a send of `tokens` estimated tokens is allowed (0 = now). Ignores concurrency and pause. */
  waitMs(tokens: number, now: number): number {
    let wait = Math.max(0, this.blockedUntil - now);
    if (this.rpm) wait = Math.max(wait, this.rpm.waitMs(1, now));
    if (this.tpm && tokens > 0) wait = Math.max(wait, this.tpm.waitMs(tokens, now));
    return wait;
  }

  take(tokens: number, now: number): void {
    this.rpm?.tryTake(1, now);
    if (this.tpm && tokens > 0) this.tpm.tryTake(tokens, now);
  }

  /** Believes the provider's own count of what is left, and waits out an empty budget. */
  observe(info: RateLimitInfo, now: number): void {
    if (info.remainingRequests !== undefined) {
      this.rpm?.capAt(info.remainingRequests, now);
      if (info.remainingRequests <= 0 && info.resetRequestsMs !== undefined)
        this.blockedUntil = Math.max(this.blockedUntil, now + info.resetRequestsMs);
    }
    if (info.remainingTokens !== undefined) {
      this.tpm?.capAt(info.remainingTokens, now);
      if (info.remainingTokens <= 0 && info.resetTokensMs !== undefined)
        this.blockedUntil = Math.max(this.blockedUntil, now + info.resetTokensMs);
    }
  }

  /** A 429: wait as told (or `fallbackMs`), and slow down so it does not happen again. */
  onRateLimited(info: RateLimitInfo, fallbackMs: number, now: number): void {
    this.observe(info, now);
    const wait = info.retryAfterMs ?? fallbackMs;
    this.blockedUntil = Math.max(this.blockedUntil, now + wait);
    // Calls sent together are refused together: one slow-down per burst of 429s, not one each.
    if (now - this.lastCutAt < CUT_COOLDOWN_MS) return;
    this.lastCutAt = now;
    this.successesSinceCut = 0;
    for (const b of [this.rpm, this.tpm]) {
      if (!b) continue;
      b.factor = Math.max(MIN_FACTOR, b.factor * RATE_CUT);
      b.drain(now);
    }
    if (!this.rpm && !this.tpm) this.cap = Math.max(1, Math.floor(this.cap * 0.75));
  }

  /** The provider answered (anything but a transient failure), or the waiting is over. */
  clearOutage(): void {
    this.consecutiveTransient = 0;
    this.transientCalls.clear();
    this.outage = null;
  }

  /**
   * Counts a transient failure; true when the streak says the provider is down rather than
   * one call failing: enough failures in a row, of more than one call. A dropped connection
   * can be about one call too (a body that crashes the server), so no kind is an outage alone.
   */
  noteTransient(unit: U, threshold: number): boolean {
    this.consecutiveTransient++;
    this.transientCalls.add(unit);
    return this.consecutiveTransient >= threshold && this.transientCalls.size > 1;
  }

  onSuccess(): void {
    this.consecutiveBadRequests = 0;
    for (const b of [this.rpm, this.tpm])
      if (b && b.factor < 1) b.factor = Math.min(1, b.factor + RECOVERY_PER_SUCCESS);
    if (this.cap < this.limits.concurrency && ++this.successesSinceCut >= 20) {
      this.cap++;
      this.successesSinceCut = 0;
    }
  }
}

export function laneKey(endpoint: string, model: string): string {
  return `${endpoint}\u0000${model}`;
}

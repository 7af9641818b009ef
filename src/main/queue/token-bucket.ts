/** Far below a token or a millisecond, far above floating-point error. */
const FLOAT_SLACK = 1e-6;

/**
 * A token bucket refilled continuously at `perMinute / 60_000` tokens per ms up to
 * `capacity`. Time is passed in, so tests drive it with a fake clock.
 */
export class TokenBucket {
  private level: number;
  private last: number;
  /** Multiplier on the refill rate, lowered after 429s and raised back on success. */
  factor = 1;
  /**
   * This process's part of the limit when other processes send to the same endpoint+model
   * (1 = all of it): scales both the refill rate and the burst the bucket may hold.
   */
  private share = 1;

  constructor(
    readonly perMinute: number,
    readonly capacity: number,
    now: number,
    initial = capacity,
  ) {
    this.level = initial;
    this.last = now;
  }

  private get room(): number {
    return Math.max(1, this.capacity * this.share);
  }

  private get rate(): number {
    return this.perMinute * this.factor * this.share;
  }

  private refill(now: number): void {
    if (now > this.last) {
      this.level = Math.min(this.room, this.level + ((now - this.last) * this.rate) / 60_000);
      this.last = now;
    }
  }

  /** Sets this process's part of the limit (0 < share ≤ 1); tokens above the new burst are dropped. */
  setShare(share: number, now: number): void {
    this.refill(now);
    this.share = Math.min(1, Math.max(0.001, share));
    this.level = Math.min(this.level, this.room);
  }

  getShare(): number {
    return this.share;
  }

  tokens(now: number): number {
    this.refill(now);
    return this.level;
  }

  /** A request bigger than the whole bucket may go once the bucket is full (it then runs a debt). */
  private needed(n: number): number {
    return Math.min(n, this.room);
  }

  /** Milliseconds until `n` tokens are available (0 = now). */
  waitMs(n: number, now: number): number {
    this.refill(now);
    const deficit = this.needed(n) - this.level;
    // Refills in floating point leave a token 1e-15 short, and a wait of 19.0000000001 ms
    // rounded up to 20 (at 3,000 RPM a slot due on a 20 ms wake-up then waits for the next
    // one): the rounding errors are not waited for.
    if (deficit <= FLOAT_SLACK) return 0;
    return Math.ceil((deficit * 60_000) / this.rate - FLOAT_SLACK);
  }

  tryTake(n: number, now: number): boolean {
    if (this.waitMs(n, now) > 0) return false;
    this.level -= n;
    return true;
  }

  /** Reconciles an estimate with the real count: positive gives tokens back, negative charges more. */
  adjust(delta: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.room, this.level + delta);
  }

  /** The provider says fewer are left than we think: believe it. */
  capAt(remaining: number, now: number): void {
    this.refill(now);
    if (remaining < this.level) this.level = Math.max(0, remaining);
  }

  drain(now: number): void {
    this.refill(now);
    this.level = Math.min(this.level, 0);
  }
}

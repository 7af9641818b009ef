import type { ProviderErrorKind } from '../providers/types';

// A provider that stops answering (connection refused, timeouts, a burst of 5xx) is waited
// out, not failed call by call: its lane stops sending and probes with one real call at a
// time, with growing pauses, until it answers again or the outage has lasted longer than the
// provider's tolerance. Only then are the lane's calls failed, with the reason.

export interface OutagePolicy {
  /** Transient failures in a row on one lane, with no answer between, that mean an outage. */
  outageAfterFailures: number;
  /** First pause between probes; doubles after each failed probe up to probeMaxMs. */
  probeBaseMs: number;
  probeMaxMs: number;
  /** How long an outage is waited out before the lane's calls fail. */
  toleranceMs: number;
}

export const DEFAULT_OUTAGE_TOLERANCE_SECONDS = 600;

export class Outage {
  kind: ProviderErrorKind;
  lastError: string;
  /** The pause before the next probe after a failed one. */
  delayMs: number;
  nextProbeAt: number;
  /** A probe is on the wire: nothing else is sent until it answers. */
  probing = false;
  readonly giveUpAt: number;

  constructor(
    readonly since: number,
    kind: ProviderErrorKind,
    message: string,
    private readonly policy: OutagePolicy,
  ) {
    this.kind = kind;
    this.lastError = message;
    this.delayMs = policy.probeBaseMs;
    this.giveUpAt = since + policy.toleranceMs;
    this.nextProbeAt = Math.min(since + this.delayMs, this.giveUpAt);
  }

  /** Ms until a probe may go (0 = now); Infinity while one is on the wire. */
  probeWaitMs(now: number): number {
    return this.probing ? Infinity : Math.max(0, this.nextProbeAt - now);
  }

  /** A call failed during the outage; a failed probe schedules the next one, later. */
  failed(now: number, kind: ProviderErrorKind, message: string, wasProbe: boolean): void {
    this.kind = kind;
    this.lastError = message;
    if (!wasProbe) return;
    this.probing = false;
    // The last probe goes at the end of the tolerance, so a provider back by then is used.
    this.nextProbeAt = Math.min(now + this.delayMs, this.giveUpAt);
    this.delayMs = Math.min(this.policy.probeMaxMs, this.delayMs * 2);
  }

  expired(now: number): boolean {
    return now >= this.giveUpAt;
  }

  /** What the run page and the CLI show while the lane waits. */
  describe(): string {
    return (
      `${this.what()} since ${clock(this.since)}, retrying every ${seconds(this.delayMs)}; ` +
      `calls fail if it is still down at ${clock(this.giveUpAt)}. Last error: ${this.lastError}`
    );
  }

  /** The failure reason of the calls given up on (after "<kind>: "). */
  failureReason(now: number): string {
    return (
      `${this.what()} since ${clock(this.since)}; gave up after ${seconds(now - this.since)} ` +
      `of retrying. Last error: ${this.lastError}`
    );
  }

  private what(): string {
    return this.kind === 'server' ? 'Provider failing with server errors' : 'Provider unreachable';
  }
}

/** Local wall-clock time, as a person reads it next to the run: 12:03:04. */
function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}

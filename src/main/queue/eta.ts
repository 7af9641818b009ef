// Time left, lane by lane: each endpoint+model works through its own queue at its own rate, so
// the slowest lane decides. The estimate before a run and the run's first ETA use the same
// formula (time at the configured limits); once a lane has answered, its observed rate counts,
// never faster than its RPM limit allows.

/** Without an RPM limit, assume each of `concurrency` slots finishes a call every 5 s. */
export const ASSUMED_SECONDS_PER_CALL = 5;

export interface EtaLimits {
  rpm?: number;
  tpm?: number;
  concurrency: number;
}

/** Seconds for `calls` calls of `tokens` estimated tokens in all at the configured limits. */
export function secondsAtLimits(calls: number, tokens: number, limits: EtaLimits): number {
  const byRpm = limits.rpm ? (calls / limits.rpm) * 60 : 0;
  const byTpm = limits.tpm ? (tokens / limits.tpm) * 60 : 0;
  const byConcurrency = limits.rpm ? 0 : (calls * ASSUMED_SECONDS_PER_CALL) / Math.max(1, limits.concurrency);
  return Math.max(byRpm, byTpm, byConcurrency);
}

/**
 * Seconds until one lane has worked off `remaining` calls: at its observed completion rate
 * (calls per second, capped at the RPM limit), or at its limits before it has a rate.
 */
export function laneEtaSeconds(remaining: number, observedPerSec: number, limits: EtaLimits): number {
  if (remaining <= 0) return 0;
  if (observedPerSec <= 0) return secondsAtLimits(remaining, 0, limits);
  const rate = limits.rpm ? Math.min(observedPerSec, limits.rpm / 60) : observedPerSec;
  return remaining / rate;
}

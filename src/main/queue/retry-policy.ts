import type { ProviderErrorKind } from '../providers/types';
import { DEFAULT_OUTAGE_TOLERANCE_SECONDS } from './outage';

export interface RetryPolicy {
  /** Sends per request for transient failures (5xx, 529, timeouts, dropped connections). */
  maxAttempts: number;
  /** Re-asks after an unusable answer before it is recorded failed with its raw text. */
  maxParseRetries: number;
  /** 429s are expected under load and do not use up maxAttempts, but are not endless either. */
  maxRateLimitRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Consecutive 400s on one endpoint+model (no success between) that pause it. */
  pauseAfterBadRequests: number;
  /** Transient failures in a row on one endpoint+model that start waiting out an outage. */
  outageAfterFailures: number;
  /** Pauses between outage probes: the first, doubling up to the max. */
  probeBaseMs: number;
  probeMaxMs: number;
  /** How long an outage is waited out; a provider's `outageToleranceSeconds` overrides it. */
  outageToleranceMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  maxParseRetries: 2,
  maxRateLimitRetries: 30,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  pauseAfterBadRequests: 5,
  outageAfterFailures: 3,
  probeBaseMs: 2000,
  probeMaxMs: 30_000,
  outageToleranceMs: DEFAULT_OUTAGE_TOLERANCE_SECONDS * 1000,
};

/** "Full jitter" exponential backoff: uniform in [0, min(max, base·2^(n-1))]. */
export function backoffMs(failures: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.floor(random() * ceiling);
}

/** What the queue does with a failure of this kind. */
export type FailureAction =
  'retry_backoff' | 'retry_rate_limit' | 'reask' | 'fail' | 'pause_lane' | 'release';

export function actionFor(kind: ProviderErrorKind): FailureAction {
  switch (kind) {
    case 'server':
    case 'timeout':
    case 'connection':
      return 'retry_backoff';
    case 'rate_limited':
      return 'retry_rate_limit';
    case 'unparseable':
      return 'reask';
    case 'bad_request':
    case 'not_recorded':
      return 'fail';
    case 'quota_exhausted':
    case 'auth':
    case 'not_found':
      return 'pause_lane';
    case 'cancelled':
      return 'release';
  }
}

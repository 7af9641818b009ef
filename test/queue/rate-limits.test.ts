import { describe, expect, it } from 'vitest';
import { Lane } from '../../src/main/queue/lane';
import {
  parseDuration,
  parseRateLimitHeaders,
  parseRetryAfter,
} from '../../src/main/queue/rate-limit-headers';
import { actionFor, backoffMs, DEFAULT_RETRY_POLICY } from '../../src/main/queue/retry-policy';
import { TokenBucket } from '../../src/main/queue/token-bucket';

describe('rate-limit header parsing', () => {
  it('reads Go-style durations as OpenAI writes them', () => {
    expect(parseDuration('1s')).toBe(1000);
    expect(parseDuration('6m0s')).toBe(360_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('20ms')).toBe(20);
    expect(parseDuration('0.5s')).toBe(500);
    expect(parseDuration('1h2m3.5s')).toBe(3_723_500);
    expect(parseDuration('2')).toBe(2000);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('1s trailing')).toBeUndefined();
  });

  it('reads retry-after as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-11-30T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Sun, 30 Nov 2025 12:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 30 Nov 2025 11:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('whenever', now)).toBeUndefined();
  });

  it('reads OpenAI x-ratelimit-* headers, preferring retry-after-ms', () => {
    const h = new Headers({
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '499',
      'x-ratelimit-reset-requests': '120ms',
      'x-ratelimit-limit-tokens': '200000',
      'x-ratelimit-remaining-tokens': '150000',
      'x-ratelimit-reset-tokens': '1m30s',
      'retry-after': '2',
      'retry-after-ms': '1500',
    });
    expect(parseRateLimitHeaders(h, 0)).toEqual({
      retryAfterMs: 1500,
      limitRequests: 500,
      remainingRequests: 499,
      resetRequestsMs: 120,
      limitTokens: 200000,
      remainingTokens: 150000,
      resetTokensMs: 90_000,
    });
  });

  it('reads Anthropic anthropic-ratelimit-* headers with RFC 3339 resets', () => {
    const now = Date.parse('2025-11-30T12:00:00Z');
    const info = parseRateLimitHeaders(
      {
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': '2025-11-30T12:00:01.5Z',
        'anthropic-ratelimit-input-tokens-limit': '40000',
        'anthropic-ratelimit-input-tokens-remaining': '39000',
        'anthropic-ratelimit-input-tokens-reset': '2025-11-30T12:00:30Z',
        'Retry-After': '4',
      },
      now,
    );
    expect(info).toEqual({
      retryAfterMs: 4000,
      limitRequests: 50,
      remainingRequests: 0,
      resetRequestsMs: 1500,
      limitTokens: 40000,
      remainingTokens: 39000,
      resetTokensMs: 30_000,
    });
  });
});

describe('token bucket (fake clock)', () => {
  it('refills continuously at the per-minute rate up to its capacity', () => {
    const b = new TokenBucket(600, 2, 0); // 10 per second, burst 2
    expect(b.tryTake(1, 0)).toBe(true);
    expect(b.tryTake(1, 0)).toBe(true);
    expect(b.tryTake(1, 0)).toBe(false);
    expect(b.waitMs(1, 0)).toBe(100);
    expect(b.tryTake(1, 99)).toBe(false);
    expect(b.tryTake(1, 100)).toBe(true);
    expect(b.tokens(10_000)).toBe(2);
  });

  it('lets a request larger than the bucket through once full, then runs a debt', () => {
    const b = new TokenBucket(6000, 100, 0);
    expect(b.tryTake(250, 0)).toBe(true);
    expect(b.tokens(0)).toBe(-150);
    expect(b.waitMs(1, 0)).toBe(1510);
  });

  it('reconciles estimates with reported usage and believes the provider', () => {
    const b = new TokenBucket(60_000, 1000, 0);
    b.tryTake(800, 0);
    b.adjust(+500, 0); // estimate was 800, real use 300
    expect(b.tokens(0)).toBe(700);
    b.capAt(100, 0);
    expect(b.tokens(0)).toBe(100);
  });

  it('holds a steady rate over a simulated minute', () => {
    const b = new TokenBucket(600, 20, 0);
    let sent = 0;
    for (let t = 0; t < 60_000; t += 5) while (b.tryTake(1, t)) sent++;
    expect(sent).toBeGreaterThanOrEqual(600);
    expect(sent).toBeLessThanOrEqual(621); // rate × 1 min + the burst
  });
  it('adds no rounding error to its waits: a slot every 20 ms at 3,000 RPM, however often it is read', () => {
    // Answers' turns read the bucket between two slots (a refill each); the wake-up goes at the
    // wait it gives. Rounded-up float error once made a 20 ms wait 21, and 2,000 sends 40,225 ms.
    const b = new TokenBucket(3000, 1, 0, 0);
    let now = 0;
    for (let i = 0; i < 2000; i++) {
      const between = now + 1 + ((i * 7) % 18);
      now = between + b.waitMs(1, between);
      expect(b.tryTake(1, now)).toBe(true);
    }
    expect(now).toBe(2000 * 20);
  });
});

describe('lane slow-down and retry policy', () => {
  it('waits out retry-after on a 429 and slows its refill, then recovers on success', () => {
    const lane = new Lane<number>('e', 'm', { concurrency: 4, rpm: 600 }, 0);
    lane.onRateLimited({ retryAfterMs: 3000 }, 500, 0);
    expect(lane.waitMs(0, 0)).toBe(3000);
    expect(lane.rpm!.factor).toBeCloseTo(0.8);
    for (let i = 0; i < 30; i++) lane.onSuccess();
    expect(lane.rpm!.factor).toBe(1);
  });

  it('blocks until the reset when the provider says nothing is left', () => {
    const lane = new Lane<number>('e', 'm', { concurrency: 4, rpm: 600 }, 0);
    lane.observe({ remainingRequests: 0, resetRequestsMs: 1200 }, 0);
    expect(lane.waitMs(0, 0)).toBe(1200);
  });

  it('without an RPM budget, halves concurrency under 429s and grows it back', () => {
    const lane = new Lane<number>('e', 'm', { concurrency: 8 }, 0);
    lane.onRateLimited({}, 100, 0);
    expect(lane.cap).toBe(6);
    for (let i = 0; i < 40; i++) lane.onSuccess();
    expect(lane.cap).toBe(8);
  });

  it('uses full-jitter exponential backoff with a ceiling', () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffMs(1, p, () => 0.999)).toBe(99);
    expect(backoffMs(3, p, () => 0.5)).toBe(200);
    expect(backoffMs(10, p, () => 0.999)).toBe(999);
    expect(backoffMs(3, p, () => 0)).toBe(0);
  });

  it('retries transient failures only', () => {
    expect(actionFor('server')).toBe('retry_backoff');
    expect(actionFor('timeout')).toBe('retry_backoff');
    expect(actionFor('connection')).toBe('retry_backoff');
    expect(actionFor('rate_limited')).toBe('retry_rate_limit');
    expect(actionFor('bad_request')).toBe('fail');
    expect(actionFor('auth')).toBe('pause_lane');
    expect(actionFor('not_found')).toBe('pause_lane');
    expect(actionFor('quota_exhausted')).toBe('pause_lane');
    expect(actionFor('unparseable')).toBe('reask');
  });
});

describe('lane slow-down under a burst of 429s', () => {
  it('slows down once per burst, not once per refused call', () => {
    const lane = new Lane<number>('e', 'm', { concurrency: 8, rpm: 600 }, 0);
    for (let i = 0; i < 8; i++) lane.onRateLimited({ retryAfterMs: 1000 }, 500, 10 + i);
    expect(lane.rpm!.factor).toBeCloseTo(0.8);
    lane.onRateLimited({ retryAfterMs: 1000 }, 500, 1500);
    expect(lane.rpm!.factor).toBeCloseTo(0.64);
  });
});

import { describe, expect, it } from 'vitest';
import { ANTHROPIC_BATCH_LIMITS } from '../../src/main/providers/batch-anthropic';
import { OPENAI_BATCH_LIMITS } from '../../src/main/providers/batch-openai';
import { planBatches } from '../../src/main/queue/batch/split';

describe('splitting requests into provider batches', () => {
  it('uses the providers’ published limits', () => {
    expect(ANTHROPIC_BATCH_LIMITS).toEqual({ maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 });
    expect(OPENAI_BATCH_LIMITS).toEqual({ maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 });
  });

  it('starts a new batch at the request limit, in order', () => {
    const list = Array.from({ length: 120_001 }, (_, i) => i);
    const out = planBatches(list, () => 10, OPENAI_BATCH_LIMITS);
    expect(out.map((b) => b.length)).toEqual([50_000, 50_000, 20_001]);
    expect(out.flat()).toEqual(list);
  });

  it('starts a new batch before the upload would pass the byte limit', () => {
    const sizes = [40, 40, 30, 50, 10, 100];
    const out = planBatches(sizes, (n) => n, { maxRequests: 1000, maxBytes: 100 });
    expect(out).toEqual([[40, 40], [30, 50, 10], [100]]);
  });

  it('refuses a single request larger than a whole batch may be', () => {
    expect(() => planBatches([101], (n) => n, { maxRequests: 10, maxBytes: 100 })).toThrow(
      /over the provider's batch limit/,
    );
  });
});

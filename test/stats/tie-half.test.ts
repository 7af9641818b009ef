// Tie-half accuracy's interval (issue 20 item 2): the normal approximation gave zero width at 0%
// and 100% ("n 8, 100.0, [100.0, 100.0]"); the Wilson score interval on the mean keeps one.
import { describe, expect, it } from 'vitest';
import { boundedMeanWilsonInterval, wilsonInterval } from '../../src/shared/stats';

describe('boundedMeanWilsonInterval', () => {
  it('keeps a width at 100% and 0%', () => {
    const [lo, hi] = boundedMeanWilsonInterval(new Array(8).fill(1));
    expect(hi).toBe(1);
    expect(lo).toBeCloseTo(0.6756, 4); // Wilson 8/8
    const [lo0, hi0] = boundedMeanWilsonInterval(new Array(8).fill(0));
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(0.3244, 4);
  });

  it('is the strict Wilson interval without ties, and takes a tie as half a success', () => {
    expect(boundedMeanWilsonInterval([1, 1, 0, 1, 0])).toEqual(wilsonInterval(3, 5));
    expect(boundedMeanWilsonInterval([1, 0.5, 0, 0.5])).toEqual(wilsonInterval(2, 4));
    // 12.5% with one tie in 4 (the "12.5 [0.0, 37.0]" case at n = 4) keeps a width.
    const [lo, hi] = boundedMeanWilsonInterval([0.5, 0, 0, 0]);
    expect(lo).toBeGreaterThan(0);
    expect(hi).toBeGreaterThan(0.125);
  });

  it('refuses scores outside [0, 1]', () => {
    expect(() => boundedMeanWilsonInterval([1.5])).toThrow(/scores\[0\]/);
  });
});

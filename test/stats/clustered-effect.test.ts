// The item-clustered mean difference (bias probes' effects, placebos and excess) against
// statsmodels' cluster-robust OLS intercept (test/fixtures/stats/clustered-effect.json,
// scripts/gen-clustered-effect-fixtures.py), and its reduction to the plain paired t when each
// item holds one difference.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clusteredPairedEffect, pairedEffect } from '../../src/shared/stats';

interface Case {
  name: string;
  diffs: number[];
  items: string[];
  mean: number;
  ci: [number, number];
  p: number;
}
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/stats/clustered-effect.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

describe('clusteredPairedEffect', () => {
  for (const c of fixture.cases) {
    it(`matches statsmodels' cluster-robust interval and p: ${c.name}`, () => {
      const e = clusteredPairedEffect(c.diffs, c.items);
      expect(e.items).toBe(new Set(c.items).size);
      expect(e.n).toBe(c.diffs.length);
      expect(e.mean).toBeCloseTo(c.mean, 12);
      expect(e.ci![0]).toBeCloseTo(c.ci[0], 8);
      expect(e.ci![1]).toBeCloseTo(c.ci[1], 8);
      expect(e.tP!).toBeCloseTo(c.p, 8);
    });
  }

  it('is the paired t when each item holds one difference', () => {
    const diffs = [0.5, -1, 0, 1, 1, 0.5, 0, -0.5];
    const e = clusteredPairedEffect(
      diffs,
      diffs.map((_, i) => `i${i}`),
      [-1, 1],
    );
    expect({ ...e, items: undefined }).toEqual({ ...pairedEffect(diffs, [-1, 1]), items: undefined });
  });

  it('is wider than the paired t when an item’s two differences move together', () => {
    const diffs = [1, 1, -0.5, -0.5, 0.5, 0.5, 0, 0, 1, 1, -1, -1, 0.5, 0.5];
    const items = diffs.map((_, i) => `i${Math.floor(i / 2)}`);
    const clustered = clusteredPairedEffect(diffs, items).ci!;
    const naive = pairedEffect(diffs).ci!;
    expect(clustered[1] - clustered[0]).toBeGreaterThan(naive[1] - naive[0]);
  });

  it('says why there is no interval', () => {
    expect(clusteredPairedEffect([1, 0, 1], ['a', 'a', 'a']).ci_undefined_reason).toBe(
      'every difference comes from one item',
    );
    // Each item averages to the overall mean 0.5 although the differences vary.
    expect(clusteredPairedEffect([1, 0, 0, 1], ['a', 'a', 'b', 'b']).ci_undefined_reason).toMatch(
      /average to the overall mean/,
    );
    expect(clusteredPairedEffect([1, 1], ['a', 'b']).ci_undefined_reason).toMatch(
      /every difference is equal/,
    );
    expect(() => clusteredPairedEffect([1], [])).toThrow(RangeError);
  });
});

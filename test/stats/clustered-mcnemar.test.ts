// The item-clustered exact McNemar test against SciPy's exact permutation test (small cases) and an
// exact numpy convolution (larger cases), both in test/fixtures/stats/clustered-mcnemar.json
// (scripts/gen-clustered-mcnemar-fixtures.py); and its reduction to the exact McNemar test when
// each item holds one matched pair.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clusteredMcnemarExact, mcnemarExact } from '../../src/shared/stats';

interface Case {
  name: string;
  differences: number[];
  p: number;
  durkalski_p: number;
}
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/stats/clustered-mcnemar.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

describe('clusteredMcnemarExact', () => {
  for (const c of fixture.cases) {
    it(`matches the independent exact p: ${c.name}`, () => {
      expect(clusteredMcnemarExact(c.differences)).toBeCloseTo(c.p, 12);
    });
  }

  it("sits near Durkalski's chi-square form where items are many", () => {
    for (const c of fixture.cases.filter((x) => x.differences.length >= 400)) {
      expect(Math.abs(clusteredMcnemarExact(c.differences) - c.durkalski_p)).toBeLessThan(0.06);
    }
  });

  it('is the exact McNemar test when every item holds one pair', () => {
    const d = [...Array(15).fill(1), ...Array(4).fill(-1), ...Array(30).fill(0)];
    expect(clusteredMcnemarExact(d)).toBe(mcnemarExact(15, 4));
    expect(clusteredMcnemarExact([...Array(15).fill(1)])).toBe(mcnemarExact(15, 0));
  });

  it('weighs an item losing in both orders as one item, not two independent pairs', () => {
    // Five items lost in both orders, one won in both: as 12 pairs (10 vs 2) McNemar says p = 0.04;
    // as six items the sign-flip law of {±2 × 6} gives P(|S| >= 8) = 14/64.
    const d = [-2, -2, -2, -2, -2, 2];
    expect(mcnemarExact(2, 10)).toBeLessThan(0.05);
    expect(clusteredMcnemarExact(d)).toBeCloseTo(14 / 64, 14);
  });

  it('gives 1 with no discordant item and refuses a non-integer difference', () => {
    expect(clusteredMcnemarExact([])).toBe(1);
    expect(clusteredMcnemarExact([0, 0, 0])).toBe(1);
    expect(() => clusteredMcnemarExact([1.5])).toThrow(RangeError);
  });
});

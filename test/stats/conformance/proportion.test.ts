// Conformance: the single-proportion interval against the published worked examples. Newcombe RG
// (1998). Two-sided confidence intervals for the single proportion: comparison of seven methods.
// Stat Med 17:857–872, Table II, method 3 (score interval without continuity correction, i.e.
// Wilson), four decimals as printed.
import { describe, expect, it } from 'vitest';
import { boundedMeanWilsonInterval, wilsonInterval } from '../../../src/shared/stats';

const TABLE_II: [number, number, [number, number]][] = [
  [81, 263, [0.2553, 0.3662]],
  [15, 148, [0.0624, 0.1605]],
  [0, 20, [0, 0.1611]],
  [1, 29, [0.0061, 0.1718]],
];

const PRINTED = 5e-5 + 1e-12;

describe('Newcombe (1998), single proportion, Table II method 3 (Wilson)', () => {
  for (const [k, n, [lo, hi]] of TABLE_II) {
    it(`${k}/${n} → ${lo} to ${hi}`, () => {
      const ci = wilsonInterval(k, n);
      expect(Math.abs(ci[0] - lo)).toBeLessThanOrEqual(PRINTED);
      expect(Math.abs(ci[1] - hi)).toBeLessThanOrEqual(PRINTED);
      // The tie-half interval is the same interval when there are no ties.
      expect(boundedMeanWilsonInterval([...new Array(k).fill(1), ...new Array(n - k).fill(0)])).toEqual(ci);
    });
  }
});

// Agresti A (2013). Categorical Data Analysis, 3rd ed., Wiley, §1.4.3–1.4.4: none of n = 25
// students is a vegetarian. The Wald interval degenerates to (0, 0); the score (Wilson)
// interval is printed as (0.0, 0.133) — the edge case the tie-half column used to collapse.
describe('Agresti (2013) §1.4, the vegetarian example (0 of 25)', () => {
  it('score interval 0.0 to 0.133, not the Wald (0, 0)', () => {
    const [lo, hi] = wilsonInterval(0, 25);
    expect(lo).toBe(0);
    expect(Math.abs(hi - 0.133)).toBeLessThanOrEqual(5e-4 + 1e-12);
    expect(boundedMeanWilsonInterval(new Array(25).fill(0))).toEqual([lo, hi]);
  });
});

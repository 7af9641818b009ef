// Conformance: ICC against the published worked example. Shrout PE, Fleiss JL (1979). Intraclass
// correlations: uses in assessing rater reliability. Psychol Bull 86:420–428, Table 2 (6 targets
// × 4 judges) and Table 4: ICC(2,1) = .29 (two decimals as printed). The same table is the
// example of R's psych::ICC. The app reports ICC(2,1) only (two-way random, absolute agreement,
// single rater); the other five forms are not computed here.
import { describe, expect, it } from 'vitest';
import { icc21 } from '../../../src/shared/stats';

const TABLE_2 = [
  [9, 2, 5, 8],
  [6, 1, 3, 2],
  [8, 4, 6, 8],
  [7, 1, 2, 6],
  [10, 5, 6, 9],
  [6, 2, 4, 7],
];

describe('Shrout & Fleiss (1979), Table 2', () => {
  it('ICC(2,1) = .29', () => {
    const r = icc21(TABLE_2);
    expect(r.n).toBe(6);
    expect(r.k).toBe(4);
    expect(Math.abs(r.icc! - 0.29)).toBeLessThan(0.005);
    // The interval contains it and stays inside [−1, 1].
    expect(r.ci![0]).toBeLessThan(r.icc!);
    expect(r.ci![1]).toBeGreaterThan(r.icc!);
  });
});

// Conformance: the paired-difference interval against published worked examples, not against a
// script of our own (the old fixture script repeated the app's uncorrected φ, so it could not
// catch it).
// - Newcombe RG (1998). Improved confidence intervals for the difference between binomial
//   proportions based on paired data. Stat Med 17:2635–2650, Table III: 95% limits for method 8
//   (Wilson margins, plain φ) and method 10 (the same with the corrected φ), cells e, f, g, h
//   (= a, b, c, d here; θ = (f − g)/n), four decimals as printed.
// - Fagerland MW, Lydersen S, Laake P (2017). Statistical Analysis of Contingency Tables, ch. 8:
//   Cavo et al. (2012) [59, 6; 16, 80] → −0.0621 (95% CI −0.1186 to −0.0046), the value the
//   contingencytables R package's own tests assert (tests/testthat/test-ch8.R).
import { describe, expect, it } from 'vitest';
import { newcombePairedInterval } from '../../../src/shared/stats';
import { newcombeCorrectedPhi } from '../../../src/shared/stats/paired';

type Row = { cells: [number, number, number, number]; m8: [number, number]; m10: [number, number] };

const TABLE_III: Row[] = [
  { cells: [36, 12, 2, 0], m8: [0.0569, 0.3404], m10: [0.0569, 0.3404] },
  { cells: [20, 12, 2, 16], m8: [0.0618, 0.3242], m10: [0.0562, 0.3292] },
  { cells: [18, 12, 2, 18], m8: [0.0618, 0.3239], m10: [0.0562, 0.329] },
  { cells: [36, 14, 0, 0], m8: [0.1528, 0.4167], m10: [0.1528, 0.4167] },
  { cells: [35, 14, 0, 1], m8: [0.1573, 0.4149], m10: [0.1461, 0.4175] },
  { cells: [18, 14, 0, 18], m8: [0.1504, 0.391], m10: [0.1441, 0.3963] },
  { cells: [2, 97, 1, 0], m8: [0.8721, 0.9854], m10: [0.8721, 0.9854] },
  { cells: [0, 29, 1, 0], m8: [0.6666, 0.9882], m10: [0.6666, 0.9882] },
  { cells: [2, 98, 0, 0], m8: [0.9178, 0.9945], m10: [0.9178, 0.9945] },
  { cells: [1, 98, 0, 1], m8: [0.9174, 0.9916], m10: [0.9171, 0.9916] },
  { cells: [0, 30, 0, 0], m8: [0.8395, 1], m10: [0.8395, 1] },
  { cells: [54, 0, 0, 0], m8: [-0.0664, 0.0664], m10: [-0.0664, 0.0664] },
  { cells: [53, 0, 0, 1], m8: [-0.064, 0.064], m10: [-0.0729, 0.0729] },
  { cells: [30, 0, 0, 24], m8: [-0.0074, 0.0074], m10: [-0.0358, 0.0358] },
  { cells: [29, 0, 0, 25], m8: [-0.0049, 0.0049], m10: [-0.0354, 0.0354] },
  { cells: [28, 0, 0, 26], m8: [-0.0025, 0.0025], m10: [-0.0352, 0.0352] },
  { cells: [27, 0, 0, 27], m8: [0, 0], m10: [-0.0351, 0.0351] },
];

/** Half a unit in the fourth decimal: a correctly rounded printed value is this close. */
const PRINTED = 5e-5 + 1e-12;

function off(ci: [number, number], printed: [number, number]): number {
  return Math.max(Math.abs(ci[0] - printed[0]), Math.abs(ci[1] - printed[1]));
}

describe('Newcombe (1998) Table III, method 10', () => {
  for (const row of TABLE_III) {
    it(`e, f, g, h = ${row.cells.join(', ')}`, () => {
      expect(off(newcombePairedInterval(...row.cells), row.m10)).toBeLessThanOrEqual(PRINTED);
    });
  }

  it('differs from method 8 (plain φ) wherever the table separates the two', () => {
    const separating = TABLE_III.filter((r) => off(r.m8, r.m10) > 2 * PRINTED);
    expect(separating.length).toBeGreaterThanOrEqual(8);
    for (const row of separating) {
      expect(off(newcombePairedInterval(...row.cells), row.m8)).toBeGreaterThan(2 * PRINTED);
    }
  });

  it('keeps the plain φ when ad − bc < 0 and zeroes it for 0 ≤ ad − bc ≤ n/2', () => {
    // 2·0 − 97·1 < 0: plain φ.
    expect(newcombeCorrectedPhi(2, 97, 1, 0)).toBeCloseTo(-97 / Math.sqrt(99 * 1 * 3 * 97), 14);
    // 36·0 − 12·2 < 0 too; 20·16 − 12·2 = 296 > 25: corrected.
    expect(newcombeCorrectedPhi(20, 12, 2, 16)).toBeCloseTo((296 - 25) / Math.sqrt(32 * 18 * 22 * 28), 14);
    // 1·1 − 0 = 1 ≤ 50: zero.
    expect(newcombeCorrectedPhi(1, 98, 0, 1)).toBe(0);
  });
});

describe('Fagerland, Lydersen & Laake (2017): Cavo et al. (2012)', () => {
  it('[59, 6; 16, 80] → −0.0621 (95% CI −0.1186 to −0.0046)', () => {
    const [a, b, c, d] = [59, 6, 16, 80];
    const n = a + b + c + d;
    expect((b - c) / n).toBeCloseTo(-0.0621, 4);
    expect(off(newcombePairedInterval(a, b, c, d), [-0.1186, -0.0046])).toBeLessThanOrEqual(PRINTED);
  });
});

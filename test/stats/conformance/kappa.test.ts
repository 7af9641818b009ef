// Conformance: Cohen's kappa against the published worked example. Cohen J (1960). A coefficient
// of agreement for nominal scales. Educ Psychol Meas 20:37–46, Table 1: 200 items, three
// categories, cell proportions (rows judge A, columns judge B) .44 .07 .09 / .05 .20 .05 /
// .01 .03 .06; p_o = .70, p_c = .41, κ = .49 as printed (two decimals).
import { describe, expect, it } from 'vitest';
import { cohensKappa, cohensKappaTable } from '../../../src/shared/stats';

const TABLE_1 = [
  [88, 14, 18],
  [10, 40, 10],
  [2, 6, 12],
];

describe('Cohen (1960), Table 1', () => {
  it('κ = .49 from p_o = .70 and p_c = .41', () => {
    const r = cohensKappaTable(TABLE_1);
    expect(r.n).toBe(200);
    expect(r.kappa).toBeCloseTo((0.7 - 0.41) / (1 - 0.41), 12);
    expect(Math.abs(r.kappa! - 0.49)).toBeLessThan(0.005);
  });

  it('is the same from paired ratings as from the table', () => {
    const a: string[] = [];
    const b: string[] = [];
    TABLE_1.forEach((row, i) =>
      row.forEach((count, j) => {
        for (let c = 0; c < count; c++) {
          a.push(`c${i}`);
          b.push(`c${j}`);
        }
      }),
    );
    const paired = cohensKappa(a, b);
    const table = cohensKappaTable(TABLE_1);
    expect(paired.kappa).toBeCloseTo(table.kappa!, 12);
    expect(paired.ci![0]).toBeCloseTo(table.kappa_ci![0], 12);
  });
});

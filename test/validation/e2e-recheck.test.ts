// The validation report's second-seed rows (`validate:e2e --recheck`): a cell flagged at the
// table's seed is run again at another, and the two are judged as one cell of both runs' counts.
import { describe, expect, it } from 'vitest';
import { e2eSection, recheckRows } from '../../bench/validate-e2e/report';
import { judgeCell, type Check } from '../../bench/validate-e2e/runner';

const check: Check = {
  id: 'e2e-bias-probes-coverage',
  title: 'coverage',
  kind: 'coverage',
  alpha: 0.05,
  design: 'planted',
  cells: [
    {
      key: 'refinement-pointwise-bias50-n30',
      n: 30,
      planted: '+1 on 50 %',
      reps: 200,
      replicate: async () => true,
    },
  ],
};
const cell = check.cells[0];
const first = judgeCell(check, cell, { reps: 200, defined: 200, hits: 181 }, 10);
const again = (hits: number) => ({
  seed: 7,
  scale: 1,
  results: [judgeCell(check, cell, { reps: 200, defined: 200, hits }, 9)],
});

describe('validate:e2e --recheck', () => {
  it('judges the two seeds pooled: chance clears, a defect stays flagged', () => {
    expect(first.flagged).toBe(true);
    const [chance] = recheckRows('s7.json', again(196), [check], [first], 3320261206);
    expect(chance.pooled).toMatchObject({ reps: 400, defined: 400, hits: 377, flagged: false });
    const [defect] = recheckRows('s7.json', again(180), [check], [first], 3320261206);
    expect(defect.pooled).toMatchObject({ hits: 361, flagged: true });
    const section = e2eSection(
      { version: 'x', seed: 3320261206, scale: 1, node: 'n', command: 'c', cpuSeconds: 1 },
      [check],
      [first],
      [chance, defect],
    );
    expect(section).toContain(
      '| Bias probes | `refinement-pointwise-bias50-n30` | 7 | 200 + 200 | 90.5 ± 2.1 | 98.0 ± 1.0 | 94.3 ± 1.2 | pass |',
    );
    expect(section).toContain('| 90.5 ± 2.1 | 90.0 ± 2.1 | 90.3 ± 1.5 | ⚑ coverage below 93 % |');
  });

  it("refuses the table's own seed and a cell the table does not hold", () => {
    expect(() =>
      recheckRows('s.json', { ...again(196), seed: 3320261206 }, [check], [first], 3320261206),
    ).toThrow("seed 3320261206 is the table's own");
    const other = { ...again(196), results: [{ ...again(196).results[0], key: 'nope' }] };
    expect(() => recheckRows('s.json', other, [check], [first], 3320261206)).toThrow('nope is not a cell');
  });
});

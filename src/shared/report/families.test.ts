import { describe, expect, it } from 'vitest';
import { holmAdjust } from '../stats/holm';
import { checkFamilies } from './families';
import { col, type PFamily, type Table, type TableRow } from './table';

const FAMILY: PFamily = {
  name: 'f',
  method: 'holm',
  p: 'p',
  adjusted: 'p_holm',
  by: ['judge'],
  hypothesis: ['effect'],
};

function table(rows: TableRow[], families: PFamily[] = [FAMILY], id = 't'): Table {
  return {
    id,
    title: id,
    caption: '',
    columns: [
      col('judge', 'Judge', 'text'),
      col('effect', 'Effect', 'text'),
      col('p', 'p', 'p'),
      col('p_holm', 'Holm p', 'p'),
    ],
    rows,
    families,
  };
}

/** Rows of one judge, adjusted by Holm over `family` raw p values (the family the code used). */
function rows(judge: string, ps: number[], family = ps): TableRow[] {
  const adjusted = holmAdjust(family);
  return ps.map((p, i) => ({ judge, effect: `e${i}`, p, p_holm: adjusted[i] }));
}

describe('checkFamilies', () => {
  it('accepts families adjusted by Holm, one per judge', () => {
    expect(checkFamilies([table([...rows('a', [0.01, 0.04, 0.3]), ...rows('b', [0.02, 0.5])])])).toEqual([]);
  });

  it('refuses a family that counted its hypotheses twice (m doubled)', () => {
    // The bug "Conclusions that hold" found: each test entered the family twice.
    const problems = checkFamilies([table(rows('a', [0.01, 0.04], [0.01, 0.04, 0.01, 0.04]))]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/the correction gives 0\.02/);
  });

  it('refuses a hypothesis shown twice in one table, and one table splitting a family two ways', () => {
    const twice = [...rows('a', [0.01, 0.04]), { judge: 'a', effect: 'e0', p: 0.01, p_holm: 0.02 }];
    expect(checkFamilies([table(twice)]).some((p) => /counted twice/.test(p))).toBe(true);
    // Adjusted per judge but declared across judges: m is wrong for every row.
    const across = { ...FAMILY, by: [] };
    const problems = checkFamilies([table([...rows('a', [0.01]), ...rows('b', [0.02])], [across])]);
    expect(problems.length).toBeGreaterThan(0);
  });

  it('joins tables declaring one family, and counts a hypothesis two tables show once', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.02]);
    const profile = table([
      { judge: 'a', effect: 'e0', p: 0.01, p_holm: adjusted[0] },
      { judge: 'a', effect: 'e1', p: 0.04, p_holm: adjusted[1] },
    ]);
    const position = table(
      [{ judge: 'a', effect: 'pos', p: 0.02, p_holm: adjusted[2] }],
      [FAMILY],
      'position',
    );
    const repeated = table([{ judge: 'a', effect: 'e0', p: 0.01, p_holm: adjusted[0] }], [FAMILY], 'again');
    expect(checkFamilies([profile, position, repeated])).toEqual([]);
    // Without the position table the profile's m is short by one: e0's Holm p (0.03) is not 0.02.
    expect(checkFamilies([profile])).toHaveLength(1);
  });

  it('refuses an adjusted p outside the family and an adjusted column no family declares', () => {
    const pooled = { ...FAMILY, outside: { effect: 'all' } };
    const outside = [...rows('a', [0.01, 0.04]), { judge: 'a', effect: 'all', p: 0.001, p_holm: 0.002 }];
    expect(checkFamilies([table(outside, [pooled])])).toEqual([
      't: a row outside family "f" has p_holm = 0.002',
    ]);
    expect(checkFamilies([table(rows('a', [0.01]), [])])).toEqual([
      't: column "p_holm" is adjusted but no family declares it',
    ]);
  });
});

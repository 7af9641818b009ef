// The paired position test (issue 32 item 1). Reference p-values: SciPy's in the committed fixture
// (below), and exact rationals for the numbers: for the
// symmetric null, scipy.stats.binomtest(k, n, 0.5).pvalue = min(1, 2 · Σ_{i ≤ min(k, n−k)} C(n, i) / 2ⁿ),
// computed with Python's fractions (SciPy is not installed on this machine):
//   python3 -c 'from fractions import Fraction as F; from math import comb; print(float(2*F(sum(comb(29,i) for i in range(10)), 2**29)))'
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  binomialTestTwoSided,
  newcombePairedInterval,
  pairedPositionTest,
  type PositionPair,
} from '../../src/shared/stats';

const pairs = (counts: Partial<Record<'ff' | 'ss' | 'fs' | 'sf' | 'ft' | 'tt', number>>): PositionPair[] => {
  const out: PositionPair[] = [];
  const add = (n: number | undefined, p: PositionPair) => {
    for (let i = 0; i < (n ?? 0); i++) out.push(p);
  };
  add(counts.ff, { orig: 'first', swap: 'first' });
  add(counts.ss, { orig: 'second', swap: 'second' });
  add(counts.fs, { orig: 'first', swap: 'second' });
  add(counts.sf, { orig: 'second', swap: 'first' });
  add(counts.ft, { orig: 'first', swap: 'tie' });
  add(counts.tt, { orig: 'tie', swap: 'tie' });
  return out;
};

describe('pairedPositionTest', () => {
  it("finds the issue's planted lean: 15 both-first, 0 both-second of 419 items (p = 2 / 2^15)", () => {
    // 419 items: 15 both-first, 392 consistent, 12 with a tie, as in issue 32 item 1.
    const t = pairedPositionTest(pairs({ ff: 15, fs: 200, sf: 192, ft: 7, tt: 5 }));
    expect(t).toMatchObject({
      n: 419,
      both_first: 15,
      both_second: 0,
      consistent: 392,
      ties: 12,
      lean: 'first',
    });
    expect(t.p).toBeCloseTo(6.103515625e-5, 15);
    // The unpaired binomial over the same verdicts misses it: that is the bug this test replaces.
    const firsts = 15 * 2 + 392 + 7;
    const decisive = 15 * 2 + 392 * 2 + 7;
    expect(binomialTestTwoSided(firsts, decisive, 0.5)).toBeGreaterThan(0.05);
    expect(t.first_rate).toBeCloseTo(0.5 + 15 / (2 * 407), 15);
    const [lo, hi] = t.first_rate_ci!;
    expect(lo).toBeGreaterThan(0.5);
    expect(hi).toBeLessThanOrEqual(1);
    expect(lo).toBeLessThan(t.first_rate!);
    expect(hi).toBeGreaterThan(t.first_rate!);
  });

  it.each([
    // [both-first, both-second, exact two-sided p]
    [7, 2, 0.1796875],
    [20, 9, 0.06142834573984146],
    [6, 0, 0.03125],
    [0, 15, 6.103515625e-5],
    [3, 3, 1],
    [1, 0, 1],
  ])('both-first %i vs both-second %i: p = %f', (ff, ss, p) => {
    const t = pairedPositionTest(pairs({ ff, ss, fs: 40, sf: 35 }));
    expect(t.p).toBeCloseTo(p, 14);
    expect(t.lean).toBe(ff > ss ? 'first' : ss > ff ? 'second' : 'none');
  });

  it("agrees with SciPy's binomtest / statsmodels' exact McNemar in the committed reference fixture", () => {
    // test/fixtures/stats/reference.json (scripts/gen-stats-fixtures.py; SciPy 1.10.1, statsmodels 0.13.5).
    const reference = JSON.parse(
      readFileSync(new URL('../fixtures/stats/reference.json', import.meta.url), 'utf8'),
    ) as { mcnemar: { b: number; c: number; pvalue: number }[] };
    expect(reference.mcnemar.length).toBeGreaterThanOrEqual(7);
    for (const { b, c, pvalue } of reference.mcnemar)
      expect(pairedPositionTest(pairs({ ff: b, ss: c, fs: 3, sf: 4 })).p).toBeCloseTo(pvalue, 12);
  });

  it("maps Newcombe's paired interval of p(orig first) − p(swap second) onto the rate", () => {
    const t = pairedPositionTest(pairs({ ff: 9, ss: 4, fs: 30, sf: 25 }));
    const [lo, hi] = newcombePairedInterval(30, 9, 4, 25);
    expect(t.first_rate_ci![0]).toBeCloseTo(0.5 + lo / 2, 15);
    expect(t.first_rate_ci![1]).toBeCloseTo(0.5 + hi / 2, 15);
  });

  it('keeps a width when every item is consistent, and stays inside [0, 1] at the extremes', () => {
    const consistent = pairedPositionTest(pairs({ fs: 50, sf: 50 }));
    expect(consistent.first_rate).toBe(0.5);
    expect(consistent.p).toBe(1);
    expect(consistent.lean).toBe('none');
    expect(consistent.first_rate_ci![1] - consistent.first_rate_ci![0]).toBeGreaterThan(0);
    const allFirst = pairedPositionTest(pairs({ ff: 8 }));
    expect(allFirst.first_rate).toBe(1);
    expect(allFirst.first_rate_ci![1]).toBe(1);
    expect(allFirst.first_rate_ci![0]).toBeGreaterThan(0.5);
    const allSecond = pairedPositionTest(pairs({ ss: 8 }));
    expect(allSecond.first_rate).toBe(0);
    expect(allSecond.first_rate_ci![0]).toBe(0);
  });

  it('says "undefined" (null) for the rate when no item was decided in both orders', () => {
    const t = pairedPositionTest(pairs({ ft: 3, tt: 2 }));
    expect(t).toMatchObject({ n: 5, ties: 5, p: 1, lean: 'none', first_rate: null, first_rate_ci: null });
    expect(pairedPositionTest([])).toMatchObject({ n: 0, first_rate: null, first_rate_ci: null, p: 1 });
  });
});

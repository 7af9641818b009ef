// The bias-probes statistics against test/fixtures/stats/bias.json (SciPy / statsmodels; see
// scripts/gen-bias-stats-fixtures.py).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  binomialTestTwoSided,
  holmAdjust,
  pairedEffect,
  partialSpearman,
  pearson,
  spearman,
  wilcoxonSignedRank,
} from '../../src/shared/stats';

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/stats/bias.json'), 'utf8'),
) as {
  paired: {
    diffs: number[];
    mean: number;
    sd: number;
    ci: [number, number];
    dz: number;
    t_p: number;
    wilcoxon_statistic: number;
    wilcoxon_p: number;
    wilcoxon_method: 'exact' | 'approx';
  }[];
  correlation: {
    x: number[];
    y: number[];
    z: number[];
    pearson: [number, number];
    spearman: [number, number];
    partial_spearman: [number, number];
  }[];
  binomial: { k: number; n: number; p: number }[];
  holm: { p: number[]; adjusted: number[] }[];
};

const close = (a: number | null, b: number, digits = 10) => {
  expect(a).not.toBeNull();
  expect(a!).toBeCloseTo(b, digits);
};

describe('pairedEffect and wilcoxonSignedRank (SciPy)', () => {
  for (const [i, f] of fixture.paired.entries()) {
    it(`case ${i + 1}: n = ${f.diffs.length}, Wilcoxon ${f.wilcoxon_method}`, () => {
      const e = pairedEffect(f.diffs);
      close(e.mean, f.mean, 12);
      close(e.sd, f.sd, 12);
      // SciPy 1.10's t.ppf is itself off by ~1e-9 (its quantile's sf misses 0.025 by that much;
      // mpmath agrees with our incomplete beta), so the bounds are compared to 8 digits.
      close(e.ci![0], f.ci[0], 8);
      close(e.ci![1], f.ci[1], 8);
      close(e.dz, f.dz, 12);
      close(e.tP, f.t_p, 10);
      const w = wilcoxonSignedRank(f.diffs)!;
      expect(w.method).toBe(f.wilcoxon_method);
      expect(w.statistic).toBe(f.wilcoxon_statistic);
      close(w.p, f.wilcoxon_p, 10);
    });
  }
  it('has no interval or d_z for one difference, and no test when every difference is zero', () => {
    expect(pairedEffect([2])).toMatchObject({ n: 1, mean: 2, ci: null, dz: null });
    expect(pairedEffect([2]).ci_undefined_reason).toBe('one difference only');
    // Every difference equal: no zero-width [1, 1], an undefined interval with its reason.
    expect(pairedEffect([1, 1, 1])).toMatchObject({
      ci: null,
      ci_undefined_reason: 'every difference is equal, so the t interval has no width to estimate',
      dz: null,
      tP: null,
    });
    expect(wilcoxonSignedRank([0, 0, 0])).toBeNull();
    expect(() => pairedEffect([])).toThrow(RangeError);
  });
});

describe('correlations (SciPy pearsonr, spearmanr; partial Spearman by rank residuals)', () => {
  for (const [i, f] of fixture.correlation.entries()) {
    it(`case ${i + 1}: n = ${f.x.length}`, () => {
      const p = pearson(f.x, f.y);
      close(p.r, f.pearson[0], 12);
      close(p.p, f.pearson[1], 9);
      const s = spearman(f.x, f.y);
      close(s.r, f.spearman[0], 12);
      close(s.p, f.spearman[1], 9);
      const ps = partialSpearman(f.x, f.y, f.z);
      close(ps.r, f.partial_spearman[0], 10);
      close(ps.p, f.partial_spearman[1], 9);
    });
  }
  it('is undefined for a constant variable', () => {
    expect(pearson([1, 2, 3], [4, 4, 4]).r).toBeNull();
    expect(spearman([1, 2, 3], [4, 4, 4]).p).toBeNull();
  });
});

describe('binomialTestTwoSided (SciPy binomtest)', () => {
  for (const f of fixture.binomial)
    it(`k = ${f.k}, n = ${f.n}`, () => close(binomialTestTwoSided(f.k, f.n), f.p, 12));
});

describe('holmAdjust (statsmodels multipletests holm)', () => {
  for (const f of fixture.holm)
    it(JSON.stringify(f.p), () => {
      const adj = holmAdjust(f.p);
      adj.forEach((a, i) => close(a, f.adjusted[i], 14));
    });
  it('skips missing p-values', () => {
    expect(holmAdjust([0.01, null, 0.04])).toEqual([0.02, null, 0.04]);
  });
});

// The human-rating statistics against test/fixtures/annotation/stats.json: SciPy, scikit-learn,
// statsmodels and R (psych::ICC, irr::kripp.alpha); see scripts/gen-annotation-fixtures.py.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyKnots,
  cohensKappa,
  crossValidate,
  fleissKappa,
  foldAssignment,
  fQuantile,
  icc21,
  isotonicFit,
  kendallTauB,
  krippendorffAlpha,
  linearFit,
  normalQuantile,
  pearsonR as pearson,
  spearmanInterval as spearman,
} from '../../src/shared/stats';

interface Fixture {
  correlations: {
    x: number[];
    y: number[];
    pearson: number;
    spearman: number;
    spearman_ci: [number, number];
    kendall_tau_b: number;
  }[];
  kappa: {
    a: (string | number)[];
    b: (string | number)[];
    categories: (string | number)[];
    weights: 'none' | 'quadratic';
    kappa: number;
    ci: [number, number];
  }[];
  icc21: { matrix: number[][]; icc: number; ci: [number, number] }[];
  krippendorff: { units: (number | null)[][]; nominal: number; ordinal: number }[];
  fleiss: { counts: number[][]; kappa: number }[];
  isotonic: {
    x: number[];
    y: number[];
    query: number[];
    isotonic: number[];
    fitted: number[];
    slope: number;
    intercept: number;
  }[];
  cv: {
    x: number[];
    y: number[];
    folds: number[];
    mae_before: number;
    mae_isotonic: number;
    mae_linear: number;
    rho_before: number;
    rho_isotonic: number;
    rho_linear: number;
  }[];
  distributions: {
    f_ppf: { p: number; d1: number; d2: number; q: number }[];
    norm_ppf: { p: number; q: number }[];
  };
}

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/annotation/stats.json'), 'utf8'),
) as Fixture;

describe('distributions match scipy.stats', () => {
  it.each(fixture.distributions.f_ppf)('F quantile p=$p d1=$d1 d2=$d2', ({ p, d1, d2, q }) => {
    expect(fQuantile(p, d1, d2) / q).toBeCloseTo(1, 9);
  });
  it.each(fixture.distributions.norm_ppf)('normal quantile p=$p', ({ p, q }) => {
    expect(normalQuantile(p)).toBeCloseTo(q, 12);
  });
});

describe('correlations match scipy (pearsonr, spearmanr, kendalltau)', () => {
  fixture.correlations.forEach((f, i) => {
    it(`set ${i} (n = ${f.x.length})`, () => {
      expect(pearson(f.x, f.y)).toBeCloseTo(f.pearson, 12);
      const s = spearman(f.x, f.y);
      expect(s.rho).toBeCloseTo(f.spearman, 12);
      if (f.spearman_ci === null) expect(s.ci_undefined_reason).toBe('ρ the same without any one item');
      else {
        expect(s.ci![0]).toBeCloseTo(f.spearman_ci[0], 7); // the t quantile: ~1e-8
        expect(s.ci![1]).toBeCloseTo(f.spearman_ci[1], 7);
      }
      expect(kendallTauB(f.x, f.y)).toBeCloseTo(f.kendall_tau_b, 12);
    });
  });
  it('has no correlation for a constant side and no interval below four pairs', () => {
    expect(pearson([1, 2, 3], [2, 2, 2])).toBeNull();
    expect(spearman([1, 2, 3], [1, 3, 2]).ci).toBeNull();
    expect(kendallTauB([1, 1], [1, 2])).toBeNull();
  });
});

describe("Cohen's kappa matches scikit-learn (value) and statsmodels (interval)", () => {
  fixture.kappa.forEach((f, i) => {
    it(`set ${i}: ${f.weights} weights over ${f.categories.length} categories`, () => {
      const r = cohensKappa(f.a, f.b, f.weights, f.categories);
      expect(r.kappa).toBeCloseTo(f.kappa, 12);
      expect(r.ci![0]).toBeCloseTo(f.ci[0], 10);
      expect(r.ci![1]).toBeCloseTo(f.ci[1], 10);
    });
  });
});

describe('ICC(2,1) matches R psych::ICC (Single_random_raters)', () => {
  fixture.icc21.forEach((f, i) => {
    it(`set ${i}: ${f.matrix.length} items x ${f.matrix[0].length} raters`, () => {
      const r = icc21(f.matrix);
      expect(r.icc).toBeCloseTo(f.icc, 12);
      expect(r.ci![0]).toBeCloseTo(f.ci[0], 8);
      expect(r.ci![1]).toBeCloseTo(f.ci[1], 8);
    });
  });
});

describe("Krippendorff's alpha matches R irr::kripp.alpha", () => {
  fixture.krippendorff.forEach((f, i) => {
    it(`set ${i}: ${f.units.length} units`, () => {
      expect(krippendorffAlpha(f.units, 'nominal').alpha).toBeCloseTo(f.nominal, 12);
      expect(krippendorffAlpha(f.units, 'ordinal').alpha).toBeCloseTo(f.ordinal, 12);
    });
  });
});

describe("Fleiss' kappa matches statsmodels", () => {
  fixture.fleiss.forEach((f, i) => {
    it(`set ${i}`, () => expect(fleissKappa(f.counts)).toBeCloseTo(f.kappa, 12));
  });
});

describe('isotonic regression and the line match scikit-learn and numpy.polyfit', () => {
  fixture.isotonic.forEach((f, i) => {
    it(`set ${i} (n = ${f.x.length})`, () => {
      const knots = isotonicFit(f.x, f.y);
      f.query.forEach((q, j) => expect(applyKnots(knots, q)).toBeCloseTo(f.isotonic[j], 12));
      f.x.forEach((x, j) => expect(applyKnots(knots, x)).toBeCloseTo(f.fitted[j], 12));
      const line = linearFit(f.x, f.y);
      expect(line.slope).toBeCloseTo(f.slope, 10);
      expect(line.intercept).toBeCloseTo(f.intercept, 10);
    });
  });
});

describe('k-fold cross-validation matches the same folds refitted with scikit-learn', () => {
  fixture.cv.forEach((f, i) => {
    it(`set ${i} (n = ${f.x.length})`, () => {
      const r = crossValidate(f.x, f.y, f.folds);
      expect(r.mae_before).toBeCloseTo(f.mae_before, 12);
      expect(r.mae_isotonic).toBeCloseTo(f.mae_isotonic, 12);
      expect(r.mae_linear).toBeCloseTo(f.mae_linear, 10);
      expect(r.rho_before).toBeCloseTo(f.rho_before, 12);
      expect(r.rho_isotonic).toBeCloseTo(f.rho_isotonic, 12);
      expect(r.rho_linear).toBeCloseTo(f.rho_linear, 10);
    });
  });
});

describe('edge cases and published values', () => {
  it("gives Krippendorff's (2011) published alphas for his 4-coder example (nominal 0.743, ordinal 0.815)", () => {
    const units = fixture.krippendorff[0].units;
    expect(krippendorffAlpha(units, 'nominal').alpha).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(units, 'ordinal').alpha).toBeCloseTo(0.815, 3);
  });
  it('gives Shrout & Fleiss (1979) ICC(2,1) = 0.29 for their six targets and four judges', () => {
    const r = icc21(fixture.icc21[fixture.icc21.length - 1].matrix);
    expect(r.icc).toBeCloseTo(0.29, 2);
  });
  it('has no alpha when only one value was ever given, and no ICC for a single rater', () => {
    expect(
      krippendorffAlpha(
        [
          [3, 3],
          [3, 3, null],
        ],
        'ordinal',
      ).alpha,
    ).toBeNull();
    expect(icc21([[1], [2], [3]]).icc).toBeNull();
  });
  it('deals folds that differ in size by at most one, the same for the same seed', () => {
    const folds = foldAssignment(23, 5, 'set-1');
    const sizes = [0, 1, 2, 3, 4].map((f) => folds.filter((g) => g === f).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(foldAssignment(23, 5, 'set-1')).toEqual(folds);
    expect(foldAssignment(23, 5, 'set-2')).not.toEqual(folds);
  });
  it('rejects unequal rating counts for Fleiss and unknown categories for Cohen', () => {
    expect(() =>
      fleissKappa([
        [1, 1],
        [2, 1],
      ]),
    ).toThrow(/item 1 has 3 ratings/);
    expect(() => cohensKappa([1, 7], [1, 2], 'quadratic', [1, 2, 3])).toThrow(/a\[1\]/);
  });
});

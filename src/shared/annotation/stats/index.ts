/**
 * Statistics for human ratings and judge–human agreement (DESIGN.md section 5d). Pure, no
 * dependencies, usable by main and renderer. Checked against SciPy, scikit-learn, statsmodels
 * and R (psych, irr) in test/fixtures/annotation/stats.json, written by
 * scripts/gen-annotation-fixtures.py (see its docstring for how to regenerate).
 */
export type { CI, SpearmanResult } from './correlation';
export { averageRanks, fisherInterval, kendallTauB, pearson, spearman } from './correlation';
export { fCdf, fQuantile, incompleteBeta, normalQuantile, Z_95 } from './distributions';
export { cohensKappa, exactAgreement, type KappaResult, type KappaWeights } from './kappa';
export { fleissKappa, icc21, krippendorffAlpha, type AlphaLevel, type IccResult } from './raters';
export {
  applyKnots,
  crossValidate,
  foldAssignment,
  isotonicFit,
  linearFit,
  type CvResult,
  type Knot,
  type LinearFit,
} from './calibration';

/** Median of finite numbers; null for an empty list. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

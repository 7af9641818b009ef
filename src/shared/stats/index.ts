/**
 * The one home of the statistics (DESIGN.md sections 5 and 5d): the protocols' metrics (Wilson
 * and normal-approximation intervals, the exact binomial and McNemar tests, bootstrap, Holm,
 * paired effects, Wilcoxon), correlations and agreement (Pearson, Spearman, partial Spearman,
 * Kendall, Cohen's kappa weighted or not, Fleiss, Krippendorff, ICC) and calibration fits. Pure
 * functions, no dependencies, importable by main and renderer alike.
 *
 * The tests (test/stats/stats.test.ts) compare these against test/fixtures/stats/reference.json, which
 * scripts/gen-stats-fixtures.py computes with independent implementations: scipy.stats.binomtest
 * (p-values), statsmodels proportion_confint(method='wilson') (Wilson intervals) and numpy with
 * scipy.stats.norm (mean intervals); the JSON records the versions used. The fixture is committed, so
 * the tests need no Python. To regenerate it (Debian: apt-get install python3-scipy python3-statsmodels):
 *
 *     /usr/bin/python3 scripts/gen-stats-fixtures.py
 *
 * The item-clustered bootstrap and Holm's adjustment are checked against
 * test/fixtures/stats/bootstrap-holm.json (scripts/gen-bootstrap-holm-fixtures.py: statsmodels
 * multipletests for Holm; numpy percentiles over the same seeded resamples for the bootstrap).
 * The correlation, agreement and calibration functions of human ratings are checked against
 * test/fixtures/annotation/stats.json (SciPy, scikit-learn, statsmodels and R's psych and irr;
 * scripts/gen-annotation-fixtures.py), the bias-probe correlations in test/stats/bias-stats.test.ts.
 */
export type { CI } from './intervals';
export {
  boundedMeanWilsonInterval,
  mean,
  meanNormalInterval,
  TIE_HALF_METHOD,
  wilsonInterval,
  Z_95,
} from './intervals';
export { binomialPmf, binomialTestTwoSided, mcnemarExact } from './binomial';
export { CLUSTERED_MCNEMAR_METHOD, clusteredMcnemar, clusteredMcnemarExact } from './clustered-mcnemar';
export { NEWCOMBE_PAIRED_METHOD, newcombePairedInterval } from './paired';
export {
  cohensKappa,
  cohensKappaTable,
  exactAgreement,
  type KappaCiUndefinedReason,
  type KappaResult,
  type KappaWeights,
  type TableKappaResult,
} from './agreement';
export {
  clusterBootstrap,
  clusterBootstrapRatio,
  pairedBootstrapDiff,
  DEFAULT_BOOTSTRAP_B,
  DEFAULT_BOOTSTRAP_SEED,
  type BootstrapOptions,
  type PairedCluster,
  type RatioCluster,
} from './bootstrap';
export { holmAdjust } from './holm';
export {
  FIRST_RATE_METHOD,
  leanColumns,
  pairedPositionTest,
  POSITION_TEST_METHOD,
  shownPosition,
  type PairedPositionTest,
  type PositionLean,
  type PositionLeanColumns,
  type PositionPair,
  type ShownPosition,
} from './position';
export { clusteredPairedEffect, itemSums, pairedEffect, type PairedEffect } from './paired-effect';
export { NO_UNITS, robustnessRate, type RobustnessRate } from './robustness';
export {
  clipInterval,
  intervalFields,
  NO_INTERVAL,
  RANGE,
  ruledBootstrap,
  ruleInterval,
  type RuledInterval,
} from './interval-rule';
export { wilcoxonSignedRank, type WilcoxonResult } from './wilcoxon';
export {
  fisherInterval,
  kendallTauB,
  partialSpearman,
  pearson,
  pearsonR,
  spearman,
  spearmanInterval,
  spearmanJackknifeSe,
  spearmanVarianceFactor,
  type Correlation,
  type RhoCiUndefinedReason,
  type SpearmanResult,
} from './correlation';
export { averageRanks } from './ranks';
export { fCdf, fQuantile, normalQuantile } from './distributions';
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
export { incompleteBeta, normalSf, studentTTwoSidedP, studentTUpperQuantile } from './special';

/** Median of finite numbers; null for an empty list. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
export {
  DEFAULT_ALPHA,
  DEFAULT_POWER,
  exactBinomialMde,
  exactBinomialPower,
  exactBinomialSampleSize,
  fisherZMde,
  fisherZPower,
  fisherZSampleSize,
  mcnemarExactMde,
  mcnemarExactPower,
  mcnemarExactSampleSize,
  noncentralTCdf,
  pairedTMde,
  pairedTPower,
  pairedTSampleSize,
  WILCOXON_ARE,
  wilcoxonMde,
  wilcoxonSampleSize,
} from './power';
// Judge and people together (issue 36): corrected estimates of a human quantity from the judge's
// labels on all items plus people's on a subset, Gwet's AC1/AC2, and the alternative annotator
// test. Checked in test/stats/people-estimators.test.ts against test/fixtures/stats/
// people-estimators.json (scripts/gen-people-fixtures.py: the AltTest authors' own code on their
// data, numpy closed forms for PPI/PPI++/Rogan–Gladen) and irrCAC's documented outputs for AC1/AC2.
export {
  humanOnlyEstimate,
  naiveEstimate,
  ppiLabelBudget,
  type LabelBudget,
  JUDGE_BANDS,
  neymanBandAllocation,
  type BandCount,
  type BandPlan,
  type JudgeBand,
  ppiMean,
  ppiPlusPlusLambda,
  ppiPlusPlusMean,
  sampleVariance,
  stratifiedPpiMean,
  type Estimate,
  type EstimateOptions,
  type EstimateUndefinedReason,
  type Stratum,
} from './ppi';
export {
  roganGladen,
  type RoganGladenInput,
  type RoganGladenResult,
  type RoganGladenUndefinedReason,
} from './rogan-gladen';
export { gwetAc, quadraticWeights, type GwetResult, type GwetUndefinedReason } from './gwet';
export {
  altTest,
  benjaminiYekutieli,
  DEFAULT_ALT_TEST_EPSILON,
  DEFAULT_ALT_TEST_Q,
  MIN_ALT_TEST_ANNOTATORS,
  MIN_ALT_TEST_ITEMS,
  type AltTestAnnotatorRow,
  type AltTestOptions,
  type AltTestResult,
  type AltTestScoring,
  type AltTestUndefinedReason,
} from './alt-test';
export {
  clusteredLinearTrend,
  clusteredSlopeBootstrap,
  TREND_REASONS,
  type LinearTrend,
  type TrendObservation,
} from './trend';

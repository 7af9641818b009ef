/**
 * Statistics for the protocols' metrics (DESIGN.md section 5): Wilson and normal-approximation
 * intervals, the exact two-sided binomial test and the exact McNemar test. Pure functions, no
 * dependencies.
 *
 * The tests (stats.test.ts) compare these against test/fixtures/stats/reference.json, which
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
 */
export type { CI } from './intervals';
export { mean, meanNormalInterval, wilsonInterval } from './intervals';
export { binomialPmf, binomialTestTwoSided, mcnemarExact } from './binomial';
export { newcombePairedInterval } from './paired';
export { cohensKappa, type KappaResult } from './agreement';
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
export { pairedEffect, type PairedEffect } from './paired-effect';
export { wilcoxonSignedRank, type WilcoxonResult } from './wilcoxon';
export { pearson, spearman, partialSpearman, type Correlation } from './correlation';
export { normalSf, studentTTwoSidedP, studentTUpperQuantile } from './special';

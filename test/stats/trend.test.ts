// The dose–response trend (issue 37): the OLS slope with item-clustered (CR1) standard errors and a
// t test on G − 1 df, and the item-clustered bootstrap of the slope, against statsmodels and numpy
// over the same observations and resamples (scripts/gen-trend-fixtures.py).
import { describe, expect, it } from 'vitest';
import fixture from '../fixtures/stats/trend.json';
import {
  clusteredLinearTrend,
  clusteredSlopeBootstrap,
  TREND_REASONS,
  type TrendObservation,
} from '../../src/shared/stats/trend';

describe('clustered linear trend against statsmodels OLS cov_type=cluster', () => {
  for (const c of fixture.cases) {
    it(c.name, () => {
      const t = clusteredLinearTrend(c.observations);
      expect(t.slope).toBeCloseTo(c.slope, 10);
      expect(t.intercept).toBeCloseTo(c.intercept, 10);
      expect(t.se).toBeCloseTo(c.se, 10);
      expect(t.ci![0]).toBeCloseTo(c.ci[0], 8);
      expect(t.ci![1]).toBeCloseTo(c.ci[1], 8);
      expect(t.p!).toBeCloseTo(c.p, 8);
      expect(t.clusters).toBe(c.df! + 1);
      const boot = clusteredSlopeBootstrap(c.observations, { B: c.boot_b, seed: c.boot_seed });
      expect(boot[0]).toBeCloseTo(c.boot_ci[0], 10);
      expect(boot[1]).toBeCloseTo(c.boot_ci[1], 10);
    });
  }

  it('says why a trend or its test does not exist', () => {
    const at = (x: number, y: number, cluster = 'a'): TrendObservation => ({ cluster, x, y });
    expect(clusteredLinearTrend([])).toMatchObject({
      slope: null,
      slope_undefined_reason: TREND_REASONS.noPairs,
    });
    expect(clusteredLinearTrend([at(0.5, 1), at(0.5, 0, 'b')])).toMatchObject({
      slope: null,
      slope_undefined_reason: TREND_REASONS.noSpread,
    });
    expect(clusteredLinearTrend([at(0, 0), at(1, 1), at(0.5, 1)])).toMatchObject({
      ci: null,
      p: null,
      test_undefined_reason: TREND_REASONS.oneCluster,
    });
    // No flip anywhere: slope 0, but no interval of zero width.
    const none = clusteredLinearTrend([at(0, 0), at(1, 0), at(0, 0, 'b'), at(1, 0, 'b')]);
    expect(none).toMatchObject({ slope: 0, ci: null, p: null, test_undefined_reason: TREND_REASONS.zeroSe });
  });
});

describe('the reasons in 中文', () => {
  it('every reason a trend gives has its 中文 words', async () => {
    const { UNDEFINED_REASONS_ZH } = await import('../../src/shared/report/undefined-zh');
    for (const reason of Object.values(TREND_REASONS))
      expect(UNDEFINED_REASONS_ZH[reason], reason).toBeTruthy();
  });
});

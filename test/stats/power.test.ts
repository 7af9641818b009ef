// Power and sample size (src/shared/stats/power.ts) against test/fixtures/stats/power.json
// (statsmodels.stats.power and scipy.stats; scripts/gen-power-fixtures.py) and published tables.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exactBinomialMde,
  exactBinomialPower,
  exactBinomialSampleSize,
  fisherZMde,
  fisherZPower,
  fisherZSampleSize,
  McNemarRegions,
  mcnemarExactMde,
  mcnemarExactPower,
  mcnemarExactSampleSize,
  noncentralTCdf,
  pairedTMde,
  pairedTPower,
  pairedTSampleSize,
  wilcoxonMde,
  wilcoxonSampleSize,
} from '../../src/shared/stats/power';
import { binomialTestTwoSided } from '../../src/shared/stats/binomial';

interface Fixture {
  noncentral_t: { t: number; df: number; delta: number; cdf: number }[];
  paired_t: {
    dz: number;
    n: number;
    power: number;
    mde: number;
    n_needed: number;
    wilcoxon_mde: number;
    wilcoxon_n_needed: number;
  }[];
  fisher_z: {
    rho1: number;
    rho0: number;
    n: number;
    power: number;
    n_needed: number;
    mde_up: number;
    mde_down: number;
  }[];
  exact_binomial: {
    n: number;
    p0: number;
    p1: number;
    power: number;
    mde: number | null;
    direction: 'up' | 'down';
    n_needed: number | null;
  }[];
  mcnemar_exact: {
    n: number;
    psi: number;
    delta: number;
    power: number;
    mde: number | null;
    n_needed: number | null;
  }[];
}

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/stats/power.json'), 'utf8'),
) as Fixture;

describe('noncentral t CDF (AS 243) against scipy.stats.nct', () => {
  for (const f of fixture.noncentral_t)
    it(`t=${f.t} df=${f.df} δ=${f.delta}`, () =>
      expect(noncentralTCdf(f.t, f.df, f.delta)).toBeCloseTo(f.cdf, 10));
});

describe('paired t and Wilcoxon (ARE 3/π) against statsmodels TTestPower', () => {
  for (const f of fixture.paired_t)
    it(`dz=${f.dz} n=${f.n}`, () => {
      expect(pairedTPower(f.dz, f.n)).toBeCloseTo(f.power, 8);
      expect(pairedTMde(f.n)).toBeCloseTo(f.mde, 7);
      expect(pairedTSampleSize(f.dz)).toBeCloseTo(f.n_needed, 5);
      expect(wilcoxonMde(f.n)).toBeCloseTo(f.wilcoxon_mde, 7);
      expect(wilcoxonSampleSize(f.dz)).toBeCloseTo(f.wilcoxon_n_needed, 5);
    });
  it("matches Cohen's (1988) table 2.4.1 / G*Power for the one-sample t at 80% power, α = .05 two-sided", () => {
    // d = 0.2, 0.5, 0.8 need 199, 34 and 15 pairs.
    expect(Math.ceil(pairedTSampleSize(0.2)!)).toBe(199);
    expect(Math.ceil(pairedTSampleSize(0.5)!)).toBe(34);
    expect(Math.ceil(pairedTSampleSize(0.8)!)).toBe(15);
  });
  it('says undefined (null) for fewer than 2 pairs or a zero effect', () => {
    expect(pairedTMde(1)).toBeNull();
    expect(pairedTSampleSize(0)).toBeNull();
  });
});

describe('Fisher-z interval excluding ρ0 against statsmodels NormalIndPower', () => {
  for (const f of fixture.fisher_z)
    it(`ρ1=${f.rho1} ρ0=${f.rho0} n=${f.n}`, () => {
      expect(fisherZPower(f.rho1, f.rho0, f.n)).toBeCloseTo(f.power, 8);
      expect(fisherZSampleSize(f.rho1, f.rho0)).toBeCloseTo(f.n_needed, 5);
      expect(fisherZMde(f.n, f.rho0, 'up')).toBeCloseTo(f.mde_up, 7);
      expect(fisherZMde(f.n, f.rho0, 'down')).toBeCloseTo(f.mde_down, 7);
    });
});

describe('exact binomial test power against scipy binomtest regions and binom.pmf', () => {
  for (const f of fixture.exact_binomial)
    it(`n=${f.n} p0=${f.p0} p1=${f.p1}`, () => {
      expect(exactBinomialPower(f.n, f.p0, f.p1)).toBeCloseTo(f.power, 10);
      expect(exactBinomialMde(f.n, f.p0, f.direction)).toBeCloseTo(f.mde!, 6);
      if (f.n_needed !== null) expect(exactBinomialSampleSize(f.p0, f.p1)).toBe(f.n_needed);
    });
});

describe('exact McNemar unconditional power against statsmodels mcnemar(exact) regions and scipy binom.pmf', () => {
  for (const f of fixture.mcnemar_exact)
    it(`n=${f.n} ψ=${f.psi} δ=${f.delta}`, () => {
      expect(mcnemarExactPower(f.n, f.psi, f.delta)).toBeCloseTo(f.power, 10);
      expect(mcnemarExactMde(f.n, f.psi)).toBeCloseTo(f.mde!, 6);
      expect(mcnemarExactSampleSize(f.psi, f.delta)).toBe(f.n_needed);
    });
  it("keeps the exact two-sided test's own rejection regions, at several levels", () => {
    // The regions read 2·P(X ≤ k) by symmetry; the test sums both tails. Same decisions.
    for (const alpha of [0.05, 0.01, 0.1, 0.001]) {
      const regions = new McNemarRegions(alpha);
      let k = -1;
      for (let d = 1; d <= 1500; d++) {
        while (k + 1 <= d / 2 && binomialTestTwoSided(k + 1, d, 0.5) <= alpha) k++;
        if (regions.boundary(d) !== k)
          expect({ alpha, d, boundary: regions.boundary(d) }).toEqual({ alpha, d, boundary: k });
      }
    }
  });
  it('has no power with too few pairs to ever reject, and says so instead of a number', () => {
    // Five discordant pairs at most: the smallest exact two-sided p is 2/32 > 0.05.
    expect(mcnemarExactPower(5, 1, 1)).toBe(0);
    expect(mcnemarExactMde(5, 1)).toBeNull();
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  binomialPmf,
  binomialTestTwoSided,
  mcnemarExact,
  mean,
  meanNormalInterval,
  wilsonInterval,
} from '../../src/shared/stats';

// Reference values from SciPy / statsmodels / numpy, written by scripts/gen-stats-fixtures.py.
const fixturePath = new URL('../fixtures/stats/reference.json', import.meta.url);
const ci = z.tuple([z.number(), z.number()]);
const Reference = z.object({
  versions: z.object({ scipy: z.string(), statsmodels: z.string(), numpy: z.string(), mpmath: z.string() }),
  z95: z.number(),
  binomtest: z.array(z.object({ k: z.number(), n: z.number(), p: z.number(), pvalue: z.number() })).min(100),
  binomtestExact: z
    .array(z.object({ k: z.number(), n: z.number(), p: z.number(), pvalue: z.number() }))
    .min(5),
  binomPmf: z.array(z.object({ k: z.number(), n: z.number(), p: z.number(), pmf: z.number() })).min(10),
  mcnemar: z.array(z.object({ b: z.number(), c: z.number(), pvalue: z.number() })).min(7),
  wilson: z.array(z.object({ k: z.number(), n: z.number(), z: z.number().nullable(), ci })).min(10),
  meanNormal: z
    .array(
      z.object({
        name: z.string(),
        values: z.array(z.number()),
        z: z.number().nullable(),
        bounds: ci.nullable(),
        ci,
      }),
    )
    .min(5),
});
const reference = Reference.parse(JSON.parse(readFileSync(fixturePath, 'utf8')));

/**
 * Probabilities must match to 1e-9 relative with no absolute slack, so a reference of 1e-220 is
 * checked as strictly as 0.3, and a reference of exactly 0 demands exactly 0.
 */
function expectProbability(actual: number, expected: number, label: string, relative = 1e-9): void {
  expect(Math.abs(actual - expected), `${label}: got ${actual}, reference ${expected}`).toBeLessThanOrEqual(
    relative * Math.abs(expected),
  );
}

/** Interval bounds: 1e-9 relative or 1e-12 absolute (the references round near 0 and 1). */
function expectBound(actual: number, expected: number, label: string): void {
  expect(Math.abs(actual - expected), `${label}: got ${actual}, reference ${expected}`).toBeLessThanOrEqual(
    Math.max(1e-9 * Math.abs(expected), 1e-12),
  );
}

/** n choose k exactly, for the brute-force check of the test's definition. */
function choose(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

describe('fixture', () => {
  it('was generated with the standard normal quantile our default z uses', () => {
    expect(reference.z95).toBe(1.959963984540054);
  });
});

describe('binomialTestTwoSided', () => {
  it.each(reference.binomtest.map((c) => [`k=${c.k} n=${c.n} p=${c.p}`, c] as const))(
    'matches scipy.stats.binomtest for %s',
    (label, c) => {
      expectProbability(binomialTestTwoSided(c.k, c.n, c.p), c.pvalue, label);
    },
  );

  it.each(reference.binomtestExact.map((c) => [`k=${c.k} n=${c.n} p=${c.p}`, c] as const))(
    'matches the 60-digit sum of its definition to 1e-12 for %s',
    (label, c) => {
      expectProbability(binomialTestTwoSided(c.k, c.n, c.p), c.pvalue, label, 1e-12);
    },
  );

  it('gives 0.109375 for 2 successes of 10 at p = 0.5 (2 * (1 + 10 + 45) / 1024)', () => {
    expect(binomialTestTwoSided(2, 10)).toBeCloseTo(0.109375, 15);
  });

  it('returns 1 for n = 0', () => {
    expect(binomialTestTwoSided(0, 0)).toBe(1);
    expect(binomialTestTwoSided(0, 0, 0.2)).toBe(1);
  });

  it('equals the exact rational definition for every k with n <= 40 at p = 0.5', () => {
    for (let n = 1; n <= 40; n++) {
      const total = 2n ** BigInt(n);
      for (let k = 0; k <= n; k++) {
        const observed = choose(n, k);
        let tail = 0n;
        for (let i = 0; i <= n; i++) if (choose(n, i) <= observed) tail += choose(n, i);
        const exact = Number(tail > total ? total : tail) / Number(total);
        expectProbability(binomialTestTwoSided(k, n), exact, `k=${k} n=${n}`);
      }
    }
  });

  it('is unchanged by swapping successes and failures together with p and 1 - p', () => {
    for (const [k, n, p] of [
      [3, 20, 0.25],
      [70, 100, 0.75],
      [1234, 10_000, 0.125],
    ]) {
      expect(binomialTestTwoSided(k, n, p)).toBeCloseTo(binomialTestTwoSided(n - k, n, 1 - p), 14);
    }
  });

  it('rejects counts and probabilities that are out of range', () => {
    expect(() => binomialTestTwoSided(11, 10)).toThrow(/k must not exceed n/);
    expect(() => binomialTestTwoSided(-1, 10)).toThrow(/k must be a non-negative integer/);
    expect(() => binomialTestTwoSided(2.5, 10)).toThrow(/k must be a non-negative integer/);
    expect(() => binomialTestTwoSided(2, 10, 1.5)).toThrow(/p must be a probability/);
    expect(() => binomialTestTwoSided(2, 10, Number.NaN)).toThrow(/p must be a probability/);
  });
});

describe('mcnemarExact', () => {
  it.each(reference.mcnemar.map((c) => [`b=${c.b} c=${c.c}`, c] as const))(
    'matches scipy.stats.binomtest(b, b + c) for %s',
    (label, c) => {
      expectProbability(mcnemarExact(c.b, c.c), c.pvalue, label);
    },
  );

  it('gives 0.21875 for 1 vs 5 discordant pairs (2 * (1 + 6) / 64)', () => {
    expect(mcnemarExact(1, 5)).toBeCloseTo(0.21875, 15);
  });

  it('returns 1 when there are no discordant pairs', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
  });

  it('is symmetric in b and c', () => {
    expect(mcnemarExact(37, 12)).toBe(mcnemarExact(12, 37));
  });

  it('rejects negative counts', () => {
    expect(() => mcnemarExact(-1, 3)).toThrow(/b must be a non-negative integer/);
  });
});

describe('binomialPmf', () => {
  it.each(reference.binomPmf.map((c) => [`k=${c.k} n=${c.n} p=${c.p}`, c] as const))(
    'matches scipy.stats.binom.pmf for %s',
    (label, c) => {
      expectProbability(binomialPmf(c.k, c.n, c.p), c.pmf, label);
    },
  );

  it('gives 120/1024 for 3 of 10 at p = 0.5', () => {
    expect(binomialPmf(3, 10, 0.5)).toBeCloseTo(0.1171875, 15);
  });

  it('sums to 1 over all outcomes for n = 1000', () => {
    let total = 0;
    for (let k = 0; k <= 1000; k++) total += binomialPmf(k, 1000, 0.37);
    expect(total).toBeCloseTo(1, 12);
  });

  it('is 0 outside [0, n] and rejects a non-integer k', () => {
    expect(binomialPmf(-1, 5, 0.5)).toBe(0);
    expect(binomialPmf(6, 5, 0.5)).toBe(0);
    expect(() => binomialPmf(0.5, 5, 0.5)).toThrow(/k must be an integer/);
  });
});

describe('wilsonInterval', () => {
  it.each(reference.wilson.map((c) => [`k=${c.k} n=${c.n} z=${c.z ?? 'default'}`, c] as const))(
    'matches statsmodels proportion_confint(method="wilson") for %s',
    (label, c) => {
      const [lower, upper] = c.z === null ? wilsonInterval(c.k, c.n) : wilsonInterval(c.k, c.n, c.z);
      expectBound(lower, c.ci[0], `${label} lower`);
      expectBound(upper, c.ci[1], `${label} upper`);
    },
  );

  it('gives [0.4902, 0.9433] for 8 of 10, whose bounds solve the score equation', () => {
    const [lower, upper] = wilsonInterval(8, 10);
    expect(lower).toBeCloseTo(0.4902, 4);
    expect(upper).toBeCloseTo(0.9433, 4);
    // Wilson bounds are the proportions pi with n (0.8 - pi)^2 = z^2 pi (1 - pi).
    const z2 = 1.959963984540054 ** 2;
    for (const pi of [lower, upper]) expect(10 * (0.8 - pi) ** 2 - z2 * pi * (1 - pi)).toBeCloseTo(0, 12);
  });

  it('returns [0, 1] for n = 0 and reaches exactly 0 at k = 0 and 1 at k = n', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(wilsonInterval(0, 25)[0]).toBe(0);
    expect(wilsonInterval(25, 25)[1]).toBe(1);
  });

  it('rejects k outside [0, n] and a non-positive z', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(/k must lie in \[0, n\]/);
    expect(() => wilsonInterval(1, -2)).toThrow(/n must be a non-negative number/);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(/z must be a positive finite number/);
  });
});

describe('meanNormalInterval', () => {
  it.each(reference.meanNormal.map((c) => [c.name, c] as const))(
    'matches numpy mean/std(ddof=1) with scipy norm quantiles for %s',
    (label, c) => {
      const z = c.z ?? undefined;
      const [lower, upper] =
        c.bounds === null ? meanNormalInterval(c.values, z) : meanNormalInterval(c.values, z, c.bounds);
      expectBound(lower, c.ci[0], `${label} lower`);
      expectBound(upper, c.ci[1], `${label} upper`);
    },
  );

  it('gives 0.75 -/+ z * 0.25 for [0, 1, 1, 1] (sample sd 0.5), the upper bound clipped to 1', () => {
    const [lower, upper] = meanNormalInterval([0, 1, 1, 1]);
    expect(lower).toBeCloseTo(0.75 - 1.959963984540054 * 0.25, 15);
    expect(upper).toBe(1);
  });

  it('returns the whole bounds for no values and a point for one value', () => {
    expect(meanNormalInterval([])).toEqual([0, 1]);
    expect(meanNormalInterval([], undefined, [-1, 1])).toEqual([-1, 1]);
    expect(meanNormalInterval([0.5])).toEqual([0.5, 0.5]);
  });

  it('rejects non-finite values and reversed bounds', () => {
    expect(() => meanNormalInterval([0.5, Number.NaN])).toThrow(/values\[1\] must be a finite number/);
    expect(() => meanNormalInterval([0.5], undefined, [1, 0])).toThrow(/bounds must be finite/);
  });
});

describe('mean', () => {
  it('averages and refuses an empty list', () => {
    expect(mean([1, 0.5, 0, 1])).toBe(0.625);
    expect(() => mean([])).toThrow(/empty/);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  clusterBootstrapRatio,
  holmAdjust,
  pairedBootstrapDiff,
  wilsonInterval,
} from '../../src/shared/stats';
import { quantileSorted } from '../../src/shared/stats/bootstrap';
import { mulberry32 } from '../../src/shared/random';

// Reference values from statsmodels / numpy, written by scripts/gen-bootstrap-holm-fixtures.py.
const fixturePath = new URL('../fixtures/stats/bootstrap-holm.json', import.meta.url);
const ci = z.tuple([z.number(), z.number()]);
const Reference = z.object({
  mulberry32: z.object({ seed: z.number(), first: z.array(z.number()).length(5) }),
  holm: z.array(z.object({ p: z.array(z.number()), adjusted: z.array(z.number()) })).min(5),
  bootstrap: z
    .array(
      z.object({
        kind: z.enum(['ratio', 'paired']),
        clusters: z.array(z.array(z.number())),
        B: z.number(),
        seed: z.number(),
        level: z.number(),
        ci,
      }),
    )
    .min(5),
});
const reference = Reference.parse(JSON.parse(readFileSync(fixturePath, 'utf8')));

describe('Holm adjustment', () => {
  it('matches statsmodels multipletests(method="holm")', () => {
    for (const c of reference.holm) {
      const got = holmAdjust(c.p);
      got.forEach((v, i) => expect(v, `p = ${JSON.stringify(c.p)} [${i}]`).toBeCloseTo(c.adjusted[i], 12));
    }
  });

  it('never lowers a p-value, keeps their order, and caps at 1', () => {
    const p = [0.3, 0.001, 0.04, 0.04, 0.9];
    const adj = holmAdjust(p);
    adj.forEach((a, i) => expect(a).toBeGreaterThanOrEqual(p[i]));
    expect(Math.max(...adj)).toBeLessThanOrEqual(1);
    expect(adj[1]).toBeLessThan(adj[2]);
    expect(adj[2]).toBe(adj[3]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('rejects a value that is not a probability, naming it', () => {
    expect(() => holmAdjust([0.1, 1.5])).toThrow(/pvalues\[1\]/);
  });
});

describe('item-clustered bootstrap', () => {
  it('draws the same uniforms as the fixture script', () => {
    const r = mulberry32(reference.mulberry32.seed);
    for (const u of reference.mulberry32.first) expect(r()).toBe(u);
  });

  it('uses numpy.percentile’s default quantile rule', () => {
    const xs = [1, 2, 3, 4, 10];
    expect(quantileSorted(xs, 0.5)).toBe(3);
    expect(quantileSorted(xs, 0.975)).toBeCloseTo(9.4, 12);
    expect(quantileSorted(xs, 0.025)).toBeCloseTo(1.1, 12);
  });

  it('matches numpy over the same resamples (ratio and paired difference)', () => {
    for (const c of reference.bootstrap) {
      const opts = { B: c.B, seed: c.seed, level: c.level };
      const got =
        c.kind === 'ratio'
          ? clusterBootstrapRatio(
              c.clusters.map(([num, den]) => ({ num, den })),
              opts,
            )
          : pairedBootstrapDiff(
              c.clusters.map(([numA, denA, numB, denB]) => ({ numA, denA, numB, denB })),
              opts,
            );
      expect(got[0], `${c.kind} n=${c.clusters.length} lower`).toBeCloseTo(c.ci[0], 12);
      expect(got[1], `${c.kind} n=${c.clusters.length} upper`).toBeCloseTo(c.ci[1], 12);
    }
  });

  it('is deterministic for a seed and changes with it', () => {
    const clusters = Array.from({ length: 50 }, (_, i) => ({ num: i % 3 === 0 ? 2 : i % 2, den: 2 }));
    const a = clusterBootstrapRatio(clusters, { seed: 9 });
    expect(clusterBootstrapRatio(clusters, { seed: 9 })).toEqual(a);
    expect(clusterBootstrapRatio(clusters, { seed: 10 })).not.toEqual(a);
  });

  it('covers the true rate about 95% of the time when verdicts cluster by item, where Wilson does not', () => {
    // Items differ in difficulty (Beta(2, 1.2), mean 0.625); each item is judged 4 times
    // (2 orders × 2 languages) with the item's own chance: strongly correlated within an item.
    const truth = 2 / 3.2;
    const random = mulberry32(2024);
    const beta21 = () => {
      // Beta(2, 1.2) by rejection against its bounded density; enough for a test.
      for (;;) {
        const x = random();
        if (random() * 1.6 <= (x * (1 - x) ** 0.2) / 0.52) return x;
      }
    };
    let bootHits = 0;
    let wilsonHits = 0;
    const sims = 300;
    for (let s = 0; s < sims; s++) {
      const clusters = Array.from({ length: 60 }, () => {
        const p = beta21();
        let k = 0;
        for (let j = 0; j < 4; j++) if (random() < p) k++;
        return { num: k, den: 4 };
      });
      const [lo, hi] = clusterBootstrapRatio(clusters, { B: 600, seed: s + 1 });
      if (lo <= truth && truth <= hi) bootHits++;
      const k = clusters.reduce((a, c) => a + c.num, 0);
      const [wl, wh] = wilsonInterval(k, 240);
      if (wl <= truth && truth <= wh) wilsonHits++;
    }
    expect(bootHits / sims).toBeGreaterThan(0.9);
    expect(bootHits / sims).toBeLessThan(0.985);
    // Treating 240 correlated verdicts as independent makes Wilson too narrow.
    expect(wilsonHits / sims).toBeLessThan(bootHits / sims);
  });

  it('gives NaN bounds with nothing to resample', () => {
    expect(clusterBootstrapRatio([])).toEqual([Number.NaN, Number.NaN]);
  });
});

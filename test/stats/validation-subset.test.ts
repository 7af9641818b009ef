// The CI-sized subset of `npm run validate` (issue 33): the cells marked `ci` in
// bench/validate/checks.ts, each run through the app's own statistics function on data with a
// planted truth, with the same seed, streams and bands as docs/VALIDATION.md (a cell's
// replicates here are the first ones of the full run's). A cell inside its method's claimed
// region fails when its coverage, error rate, power or bias leaves the Monte Carlo tolerance
// band (nominal ∓ 4 MC SE, one-sided for coverage and error), or when an interval leaves its
// parameter's range or shrinks to a point. Seeded, so not flaky; well under a minute of CPU.
import { describe, expect, it } from 'vitest';
import { allChecks } from '../../bench/validate/checks';
import {
  bivariateNormal,
  clusteredRate,
  iccRatings,
  pairedBinary,
  pairedClusters,
  pairedProbabilities,
  pearsonForSpearman,
  raterLabels,
  twoOrderItems,
  twoOrderTruth,
} from '../../bench/validate/generators';
import { cellRng } from '../../bench/validate/rng';
import { DEFAULT_SEED, judge, runCell, type Cell, type Check } from '../../bench/validate/runner';

const CORRECTED = new Set(['ppi', 'ppi-plus-plus', 'stratified-ppi-plus-plus', 'rogan-gladen']);

/** Replicates per CI cell: the bootstrap's cost is n × 2000 resamples, the rest is cheap. */
function ciReps(check: Check, cell: Cell): number {
  if (check.id.endsWith('-boot')) return 200;
  if (check.id === 'calibration-heldout-rho' || check.id === 'kendall-bias') return 300;
  if (check.kind === 'power') return cell.n > 400 ? 400 : 800;
  // The corrected estimates draw the judge's 2,000 unlabelled units per replicate.
  if (CORRECTED.has(check.id)) return 500;
  return 1000;
}

const checks = allChecks();

describe('validation subset: every method within its Monte Carlo band where it claims to work', () => {
  for (const check of checks) {
    const ciCells = check.cells.filter((c) => c.ci);
    const cells = ciCells.filter((c) => c.claimed !== false);
    // A check that claims no region (an interval shown only to say why another is read) has no CI cells.
    if (check.cells.some((c) => c.claimed !== false))
      it(`${check.id} has CI cells inside its claim`, () => expect(cells.length).toBeGreaterThan(0));
    const results = new Map<string, ReturnType<typeof runCell>>();
    const result = (cell: Cell) => {
      if (!results.has(cell.key))
        results.set(cell.key, runCell(check, cell, DEFAULT_SEED, ciReps(check, cell)));
      return results.get(cell.key)!;
    };
    for (const cell of cells) {
      it(`${check.id} ${cell.key}`, () => {
        const r = result(cell);
        const shown =
          check.kind === 'bias'
            ? `bias ${(r.mean! - r.truth!).toFixed(4)} (band ±${r.band[1].toFixed(4)})`
            : `rate ${(r.rate * 100).toFixed(1)} % (band ${(r.band[0] * 100).toFixed(1)}–${(r.band[1] * 100).toFixed(1)} %, ${r.defined} defined of ${r.reps})`;
        expect(r.defined, `${check.id} ${cell.key}: no defined replicate`).toBeGreaterThan(0);
        expect(r.inBand, `${check.id} ${cell.key}: ${shown}`).toBe(true);
      });
    }
    // The range holds everywhere, claimed region or not (an interval stays inside its parameter's range).
    if (check.kind === 'coverage' && ciCells.length) {
      it(`${check.id}: intervals stay inside the parameter's range`, () => {
        for (const cell of ciCells)
          expect(result(cell).outOfRangeShare, `${check.id} ${cell.key}: intervals outside the range`).toBe(
            0,
          );
      });
      it(`${check.id}: no interval shrinks to a point`, () => {
        for (const cell of ciCells)
          expect(result(cell).zeroWidthShare, `${check.id} ${cell.key}: zero-width intervals`).toBe(0);
      });
    }
  }
});

describe('validation bands', () => {
  const coverage = checks.find((c) => c.id === 'wilson')!;
  const cell = coverage.cells.find((c) => c.key === 'n=200 p=0.5')!;
  const counts = (hits: number) => ({
    reps: 1000,
    defined: 1000,
    hits,
    outOfRange: 0,
    zeroWidth: 0,
    sum: 0,
    sumSq: 0,
  });

  it('puts coverage 4 MC SE below 95 % outside the band, and 3 SE inside', () => {
    const se = Math.sqrt((0.95 * 0.05) / 1000);
    expect(judge(coverage, cell, counts(Math.floor((0.95 - 4.2 * se) * 1000))).inBand).toBe(false);
    expect(judge(coverage, cell, counts(Math.ceil((0.95 - 3 * se) * 1000))).inBand).toBe(true);
    // Conservative is not a failure.
    expect(judge(coverage, cell, counts(1000)).inBand).toBe(true);
  });

  it('flags coverage below 93 % at n ≥ 30 and any interval outside its range', () => {
    expect(judge(coverage, cell, counts(925)).flagged).toBe(true);
    expect(judge(coverage, cell, counts(935)).flagged).toBe(false);
    expect(judge(coverage, cell, { ...counts(950), outOfRange: 1 }).flagged).toBe(true);
    expect(judge(coverage, cell, { ...counts(950), zeroWidth: 1 }).flagged).toBe(true);
  });

  it('judges a type I error rate against α + 4 SE and flags it above 6.5 %', () => {
    const t1 = checks.find((c) => c.id === 'mcnemar-type1')!;
    const c = t1.cells[0];
    expect(judge(t1, c, counts(50)).inBand).toBe(true);
    expect(judge(t1, c, counts(80)).inBand).toBe(false);
    expect(judge(t1, c, counts(66)).flagged).toBe(true);
  });
});

// The planted truths are arithmetic, not the app's code: if one were wrong, every coverage
// figure built on it would be too. Each generator's empirical moments at a large sample must
// match its stated truth (tolerances ≈ 5 SE).
describe('planted-truth generators', () => {
  const rng = () => cellRng(DEFAULT_SEED, 'generators', 'moments');

  it('paired binary: margins p1, p2 and correlation φ', () => {
    const n = 200_000;
    const [a, b, c, d] = pairedBinary(rng(), n, pairedProbabilities(0.6, 0.5, 0.3));
    expect((a + b) / n).toBeCloseTo(0.6, 2);
    expect((a + c) / n).toBeCloseTo(0.5, 2);
    const phi = (a * d - b * c) / Math.sqrt((a + b) * (c + d) * (a + c) * (b + d));
    expect(Math.abs(phi - 0.3)).toBeLessThan(0.012);
  });

  it('items in two orders: first-position rate and the discordant cells', () => {
    const n = 200_000;
    const t = twoOrderTruth(0.2, 0.3);
    let first = 0;
    let both = 0;
    let neither = 0;
    for (const [o, s] of twoOrderItems(rng(), n, 0.2, 0.3)) {
      first += (o ? 1 : 0) + (s ? 1 : 0);
      if (o && s) both++;
      if (!o && !s) neither++;
    }
    expect(Math.abs(first / (2 * n) - t.rate)).toBeLessThan(0.004);
    expect(Math.abs(both / n - t.bothFirst)).toBeLessThan(0.005);
    expect(Math.abs(neither / n - t.bothSecond)).toBeLessThan(0.005);
  });

  it('clustered rates and the paired clusters: means μ and μ(1 − f) + (1 − μ)f', () => {
    const n = 100_000;
    const k = clusteredRate(rng(), n, 0.1, 2).reduce((s, x) => s + x, 0);
    expect(Math.abs(k / (2 * n) - 0.1)).toBeLessThan(0.004);
    const { a, b } = pairedClusters(rng(), n, 0.8, 2, 0.1);
    const diff = (b.reduce((s, x) => s + x, 0) - a.reduce((s, x) => s + x, 0)) / (2 * n);
    expect(Math.abs(diff - 0.1 * (1 - 1.6))).toBeLessThan(0.006);
  });

  it('rater labels: two raters agree with probability κ + (1 − κ)Σπ²', () => {
    const n = 200_000;
    const pi = [0.6, 0.3, 0.1];
    let agree = 0;
    for (const [x, y] of raterLabels(rng(), n, 2, pi, 0.6)) if (x === y) agree++;
    const pe = pi.reduce((s, p) => s + p * p, 0);
    expect(Math.abs(agree / n - (0.6 + 0.4 * pe))).toBeLessThan(0.006);
  });

  it('ICC ratings: item variance share equals the planted ICC', () => {
    // Variance of the item means against the total, over many rater draws: Var(r) / Var(x).
    const r = rng();
    let item = 0;
    let total = 0;
    for (let rep = 0; rep < 400; rep++) {
      const m = iccRatings(r, 200, 3, 0.7, 0.5);
      const cov = (j: number, l: number) => {
        const mj = m.reduce((s, row) => s + row[j], 0) / m.length;
        const ml = m.reduce((s, row) => s + row[l], 0) / m.length;
        return m.reduce((s, row) => s + (row[j] - mj) * (row[l] - ml), 0) / (m.length - 1);
      };
      // Within one sample the rater effects are constants: the covariance of two raters' columns is σr².
      item += cov(0, 1);
      const all = m.flat();
      const mean = all.reduce((s, x) => s + x, 0) / all.length;
      total += all.reduce((s, x) => s + (x - mean) ** 2, 0) / all.length;
    }
    // total misses the rater variance's share lost to estimating the grand mean from 3 raters: E = σr² + σe² + (2/3)σc².
    expect(Math.abs(item / 400 - 0.7)).toBeLessThan(0.02);
    expect(Math.abs(total / 400 - (0.7 + 0.15 + (2 / 3) * 0.15))).toBeLessThan(0.03);
  });

  it('bivariate normal for a planted Spearman ρ: r = 2 sin(πρ/6)', () => {
    const { x, y } = bivariateNormal(rng(), 100_000, pearsonForSpearman(0.8));
    let sxy = 0;
    for (let i = 0; i < x.length; i++) sxy += x[i] * y[i];
    expect(Math.abs(sxy / x.length - pearsonForSpearman(0.8))).toBeLessThan(0.01);
  });
});

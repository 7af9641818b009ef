// Calibration mappings from a judge's score to the human score: isotonic regression (pool
// adjacent violators, ties in x pooled first, predictions interpolated linearly between knots
// and clipped outside them, as scikit-learn's IsotonicRegression(out_of_bounds='clip')) and an
// ordinary least-squares line for comparison; k-fold cross-validation of both.
import { spearman } from './correlation';
import { seededRandom, shuffled } from '../annotation/random';

export interface Knot {
  x: number;
  y: number;
}

/** Increasing isotonic fit; returns the knots (distinct x, fitted y), sorted by x. */
export function isotonicFit(x: readonly number[], y: readonly number[]): Knot[] {
  if (x.length !== y.length) throw new RangeError(`x and y differ in length (${x.length} vs ${y.length})`);
  if (x.length === 0) return [];
  // Pool equal x values (their mean y, weighted by count), as scikit-learn does before PAVA.
  const order = x.map((_, i) => i).sort((a, b) => x[a] - x[b]);
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (const i of order) {
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === x[i]) {
      ys[last] = (ys[last] * ws[last] + y[i]) / (ws[last] + 1);
      ws[last] += 1;
    } else {
      xs.push(x[i]);
      ys.push(y[i]);
      ws.push(1);
    }
  }
  // Pool adjacent violators over blocks (value, weight, count of x points).
  const value: number[] = [];
  const weight: number[] = [];
  const size: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    value.push(ys[i]);
    weight.push(ws[i]);
    size.push(1);
    while (value.length > 1 && value[value.length - 2] > value[value.length - 1]) {
      const v2 = value.pop()!;
      const w2 = weight.pop()!;
      const s2 = size.pop()!;
      const last = value.length - 1;
      value[last] = (value[last] * weight[last] + v2 * w2) / (weight[last] + w2);
      weight[last] += w2;
      size[last] += s2;
    }
  }
  const knots: Knot[] = [];
  let p = 0;
  for (let b = 0; b < value.length; b++) {
    for (let s = 0; s < size[b]; s++) knots.push({ x: xs[p++], y: value[b] });
  }
  return knots;
}

/** The isotonic mapping at x: linear between knots, the end values outside them. */
export function applyKnots(knots: readonly Knot[], x: number): number {
  if (knots.length === 0) throw new RangeError('no knots to apply');
  if (x <= knots[0].x) return knots[0].y;
  const last = knots[knots.length - 1];
  if (x >= last.x) return last.y;
  let lo = 0;
  let hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid].x <= x) lo = mid;
    else hi = mid;
  }
  const a = knots[lo];
  const b = knots[hi];
  return a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
}

export interface LinearFit {
  slope: number;
  intercept: number;
}

/** Ordinary least squares y = intercept + slope · x; a constant x gives slope 0 at mean y. */
export function linearFit(x: readonly number[], y: readonly number[]): LinearFit {
  if (x.length !== y.length) throw new RangeError(`x and y differ in length (${x.length} vs ${y.length})`);
  const n = x.length;
  if (n === 0) throw new RangeError('a line needs at least one point');
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** Fold of each item (0..k-1): a seeded shuffle dealt round-robin, so folds differ by at most one. */
export function foldAssignment(n: number, k: number, seed: number | string): number[] {
  const order = shuffled(
    Array.from({ length: n }, (_, i) => i),
    seededRandom(seed),
  );
  const folds = new Array<number>(n);
  order.forEach((item, position) => (folds[item] = position % k));
  return folds;
}

export interface CvResult {
  n: number;
  k: number;
  /** Held-out MAE of the raw judge score against the human score. */
  mae_before: number;
  mae_isotonic: number;
  mae_linear: number;
  /** Spearman rho over the pooled held-out predictions. */
  rho_before: number | null;
  rho_isotonic: number | null;
  rho_linear: number | null;
}

/**
 * k-fold cross-validation: each fold is predicted by mappings fitted on the other folds; MAE and
 * rho are computed over all held-out predictions pooled. `folds[i]` is item i's fold.
 */
export function crossValidate(
  x: readonly number[],
  y: readonly number[],
  folds: readonly number[],
): CvResult {
  const n = x.length;
  if (y.length !== n || folds.length !== n) throw new RangeError('x, y and folds must have the same length');
  const k = new Set(folds).size;
  if (k < 2) throw new RangeError('cross-validation needs at least two folds');
  const iso = new Array<number>(n);
  const lin = new Array<number>(n);
  for (const f of new Set(folds)) {
    const train = folds.map((g, i) => (g === f ? -1 : i)).filter((i) => i >= 0);
    const knots = isotonicFit(
      train.map((i) => x[i]),
      train.map((i) => y[i]),
    );
    const line = linearFit(
      train.map((i) => x[i]),
      train.map((i) => y[i]),
    );
    for (let i = 0; i < n; i++) {
      if (folds[i] !== f) continue;
      iso[i] = applyKnots(knots, x[i]);
      lin[i] = line.intercept + line.slope * x[i];
    }
  }
  const mae = (pred: readonly number[]): number => pred.reduce((s, p, i) => s + Math.abs(p - y[i]), 0) / n;
  return {
    n,
    k,
    mae_before: mae(x),
    mae_isotonic: mae(iso),
    mae_linear: mae(lin),
    rho_before: spearman(x, y).r,
    rho_isotonic: spearman(iso, y).r,
    rho_linear: spearman(lin, y).r,
  };
}

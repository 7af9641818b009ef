// Correlations, one implementation each: Pearson's r, Spearman's rho (Pearson's r of average
// ranks), partial Spearman and Kendall's tau-b. Two forms of the tests around them:
// - `pearson` / `spearman` / `partialSpearman` give r with a two-sided p-value (t test on n − 2,
//   resp. n − 3, degrees of freedom), as scipy.stats.pearsonr / spearmanr and, for the partial
//   one, the correlation of rank residuals (pingouin's partial_corr, method 'spearman');
//   checked in test/stats/bias-stats.test.ts;
// - `pearsonR` / `spearmanInterval` / `kendallTauB` give the coefficient (with a jackknife
//   Fisher-z interval for rho), as the human-rating agreement reports them; checked against scipy
//   in test/fixtures/annotation/stats.json (test/annotation/stats.test.ts) and, for the jackknife,
//   against numpy in test/fixtures/stats/spearman-jackknife.json (scripts/gen-spearman-jackknife-fixtures.py).
import type { CI } from './intervals';
import { normalQuantile } from './distributions';
import { averageRanks } from './ranks';
import { studentTTwoSidedP, studentTUpperQuantile } from './special';

export interface Correlation {
  n: number;
  /** null when a variable is constant. */
  r: number | null;
  p: number | null;
}

/**
 * Why rho or its interval is undefined: a constant side (rho itself undefined), |rho| = 1
 * (atanh is infinite, so no Fisher-z interval exists), fewer than 4 items, or a leave-one-out rho
 * that is ±1 or undefined (one item alone keeps the ranks from agreeing perfectly, so the
 * jackknife's spread of atanh rho is infinite: the data cannot say how much rho varies), or every
 * leave-one-out rho equal (a spread of 0 would give a zero-width interval).
 */
export type RhoCiUndefinedReason =
  | 'one side constant'
  | 'ρ = ±1'
  | 'fewer than 4 items'
  | 'ρ = ±1 without one item'
  | 'ρ the same without any one item';

export interface SpearmanResult {
  n: number;
  rho: number | null;
  /**
   * Jackknife Fisher-z interval: tanh(atanh(rho) ± t_{n−1} · se), se the jackknife standard error
   * of atanh(rho) over leave-one-out items (spearmanJackknifeSe); null when undefined (see the reason).
   */
  ci: CI | null;
  /** The jackknife standard error of atanh(rho) the interval used; absent when ci is null. */
  z_se?: number;
  /** Set whenever ci is null and n ≥ 2. */
  ci_undefined_reason?: RhoCiUndefinedReason;
}

function check(xs: readonly number[], ys: readonly number[]): void {
  if (xs.length !== ys.length) throw new RangeError(`lengths differ: ${xs.length} vs ${ys.length}`);
  for (const [i, v] of [...xs, ...ys].entries())
    if (!Number.isFinite(v)) throw new RangeError(`value ${i} must be a finite number, got ${v}`);
}

function r(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

function rho(xs: readonly number[], ys: readonly number[]): number | null {
  return xs.length < 2 ? null : r(averageRanks(xs), averageRanks(ys));
}

function withP(n: number, coefficient: number | null, df: number): Correlation {
  if (coefficient === null || df < 1) return { n, r: coefficient, p: null };
  if (Math.abs(coefficient) === 1) return { n, r: coefficient, p: 0 };
  const t = coefficient * Math.sqrt(df / (1 - coefficient * coefficient));
  return { n, r: coefficient, p: studentTTwoSidedP(t, df) };
}

/** Pearson's r; null when n < 2 or either side is constant (undefined, as scipy's nan). */
export function pearsonR(xs: readonly number[], ys: readonly number[]): number | null {
  check(xs, ys);
  return r(xs, ys);
}

/** Pearson's r with its two-sided p-value. */
export function pearson(xs: readonly number[], ys: readonly number[]): Correlation {
  check(xs, ys);
  return withP(xs.length, r(xs, ys), xs.length - 2);
}

/** Spearman's rho with its two-sided p-value. */
export function spearman(xs: readonly number[], ys: readonly number[]): Correlation {
  check(xs, ys);
  return withP(xs.length, rho(xs, ys), xs.length - 2);
}

/**
 * Spearman's rho with its jackknife Fisher-z interval (default 95%).
 *
 * Why a jackknife and not a formula: every closed-form variance of atanh(rho) (Pearson's 1/(n − 3),
 * Fieller–Hartley–Pearson's 1.06/(n − 3), Bonett & Wright's (1 + rho²/2)/(n − 3)) is the bivariate
 * normal's. Judge and people ratings on a 1–5 scale are not: a rating that is either the true
 * score or a random one makes rho vary about twice as much at high rho, and Bonett–Wright covered
 * 87–89 % at rho 0.63, 76–78 % at 0.81 and 63–66 % at 0.905 at every n from 30 to 500
 * (docs/VALIDATION.md, spearman-fisher-z). The jackknife measures the spread from the data
 * themselves: Quenouille–Tukey's jackknife standard error on Fisher's z of the leave-one-out
 * coefficients with a t_{n−1} quantile, the form Efron & Tibshirani (1993, An Introduction to the
 * Bootstrap, ch. 11 and 14.3) and Miller (1974, Biometrika 61, 1–15) give for a correlation;
 * Bishara & Hittner (2017, Behav. Res. Methods 49, 294–309) find transformed/resampling intervals
 * keep their coverage on non-normal data where the formula ones do not. It covers 94–96 % on both
 * the discrete ratings and the bivariate normal from 30 items on. The interval is symmetric on the
 * z scale, so tanh keeps it inside (−1, 1).
 */
export function spearmanInterval(
  xs: readonly number[],
  ys: readonly number[],
  confidence = 0.95,
): SpearmanResult {
  check(xs, ys);
  const n = xs.length;
  const coefficient = rho(xs, ys);
  if (n < 2) return { n, rho: coefficient, ci: null };
  if (coefficient === null) return { n, rho: null, ci: null, ci_undefined_reason: 'one side constant' };
  if (n < 4) return { n, rho: coefficient, ci: null, ci_undefined_reason: 'fewer than 4 items' };
  // Within rounding of ±1 (ranks of perfectly agreeing data can sum to 0.9999999999999999).
  if (Math.abs(coefficient) >= 1 - 1e-12)
    return { n, rho: coefficient, ci: null, ci_undefined_reason: 'ρ = ±1' };
  const se = spearmanJackknifeSe(xs, ys);
  if (typeof se === 'string') return { n, rho: coefficient, ci: null, ci_undefined_reason: se };
  const z = Math.atanh(coefficient);
  const half = studentTUpperQuantile((1 - confidence) / 2, n - 1) * se;
  return { n, rho: coefficient, ci: [Math.tanh(z - half), Math.tanh(z + half)], z_se: se };
}

/**
 * The jackknife standard error of atanh(Spearman's rho): sqrt((n − 1)/n · Σ (z₍ᵢ₎ − z̄)²) with
 * z₍ᵢ₎ = atanh(rho without item i). The reason instead when some leave-one-out rho is ±1 or
 * undefined (its atanh is infinite) or every z₍ᵢ₎ is equal (a zero-width interval is not an
 * interval; e.g. 1–6 against 2,1,4,3,6,5). O(n²): removing
 * item i lowers the average rank of every larger value by 1 and of every tie by ½, so each
 * leave-one-out rho is one pass, without re-sorting.
 */
export function spearmanJackknifeSe(
  xs: readonly number[],
  ys: readonly number[],
): number | 'fewer than 4 items' | 'ρ = ±1 without one item' | 'ρ the same without any one item' {
  check(xs, ys);
  const n = xs.length;
  if (n < 4) return 'fewer than 4 items';
  // Typed copies: the O(n²) loop runs ~4× faster on them than on number[] (validation draws it
  // thousands of times).
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  const rx = Float64Array.from(averageRanks(xs));
  const ry = Float64Array.from(averageRanks(ys));
  const zs = new Float64Array(n);
  const m = n - 1;
  for (let i = 0; i < n; i++) {
    const xi = x[i];
    const yi = y[i];
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const xj = x[j];
      const yj = y[j];
      const a = rx[j] - (xj > xi ? 1 : xj === xi ? 0.5 : 0);
      const b = ry[j] - (yj > yi ? 1 : yj === yi ? 0.5 : 0);
      sx += a;
      sy += b;
      sxx += a * a;
      syy += b * b;
      sxy += a * b;
    }
    const vx = sxx - (sx * sx) / m;
    const vy = syy - (sy * sy) / m;
    // Ranks are multiples of ½, so a constant side gives exactly 0 up to rounding of the sums.
    if (vx <= 1e-9 * sxx || vy <= 1e-9 * syy) return 'ρ = ±1 without one item';
    const r = (sxy - (sx * sy) / m) / Math.sqrt(vx * vy);
    if (Math.abs(r) >= 1 - 1e-12) return 'ρ = ±1 without one item';
    zs[i] = Math.atanh(r);
  }
  const mean = zs.reduce((a, b) => a + b, 0) / n;
  const ss = zs.reduce((a, z) => a + (z - mean) ** 2, 0);
  const se = Math.sqrt(((n - 1) / n) * ss);
  // Rounding leaves ~1e-16 where every z₍ᵢ₎ is mathematically equal.
  return se > 1e-9 ? se : 'ρ the same without any one item';
}

/**
 * How much more atanh(Spearman's rho) varies than atanh(Pearson's r) on bivariate normal data:
 * 1 + rho²/2 (Bonett & Wright 2000, Psychometrika 65, 23–28). The interval no longer uses it (it
 * measures the spread with the jackknife); the power planner still does, before any data exist,
 * and says so.
 */
export function spearmanVarianceFactor(rho: number): number {
  return 1 + (rho * rho) / 2;
}

/**
 * The Fisher-z interval of a correlation; null for n < 4 and for |r| = 1, where atanh is
 * infinite and no interval exists (it used to return the zero-width [r, r]). `varianceFactor`
 * scales atanh's variance 1/(n − 3) (Spearman: spearmanVarianceFactor).
 */
export function fisherInterval(
  coefficient: number,
  n: number,
  confidence = 0.95,
  varianceFactor = 1,
): CI | null {
  if (n < 4) return null;
  if (Math.abs(coefficient) >= 1) return null;
  const z = Math.atanh(coefficient);
  const half = (normalQuantile(1 - (1 - confidence) / 2) * Math.sqrt(varianceFactor)) / Math.sqrt(n - 3);
  return [Math.tanh(z - half), Math.tanh(z + half)];
}

/** Spearman of x and y controlling for z: the partial correlation of their ranks. */
export function partialSpearman(
  xs: readonly number[],
  ys: readonly number[],
  zs: readonly number[],
): Correlation {
  check(xs, ys);
  check(xs, zs);
  const n = xs.length;
  if (n < 3) return { n, r: null, p: null };
  const [rx, ry, rz] = [averageRanks(xs), averageRanks(ys), averageRanks(zs)];
  const rxy = r(rx, ry);
  const rxz = r(rx, rz);
  const ryz = r(ry, rz);
  if (rxy === null || rxz === null || ryz === null) return { n, r: null, p: null };
  const den = Math.sqrt((1 - rxz * rxz) * (1 - ryz * ryz));
  if (den === 0) return { n, r: null, p: null };
  return withP(n, Math.max(-1, Math.min(1, (rxy - rxz * ryz) / den)), n - 3);
}

/**
 * Kendall's tau-b: (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)) with n1, n2 the pairs
 * tied in x and in y. O(n^2), fine for annotation sets (hundreds of items).
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  check(x, y);
  const n = x.length;
  if (n < 2) return null;
  let s = 0;
  let tiedX = 0;
  let tiedY = 0;
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      pairs++;
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      s += dx * dy;
    }
  }
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  if (denominator === 0) return null;
  return Math.max(-1, Math.min(1, s / denominator));
}

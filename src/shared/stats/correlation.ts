// Correlations, one implementation each: Pearson's r, Spearman's rho (Pearson's r of average
// ranks), partial Spearman and Kendall's tau-b. Two forms of the tests around them:
// - `pearson` / `spearman` / `partialSpearman` give r with a two-sided p-value (t test on n − 2,
//   resp. n − 3, degrees of freedom), as scipy.stats.pearsonr / spearmanr and, for the partial
//   one, the correlation of rank residuals (pingouin's partial_corr, method 'spearman');
//   checked in test/stats/bias-stats.test.ts;
// - `pearsonR` / `spearmanInterval` / `kendallTauB` give the coefficient (with a Fisher-z
//   interval for rho), as the human-rating agreement reports them; checked against scipy in
//   test/fixtures/annotation/stats.json (test/annotation/stats.test.ts).
import type { CI } from './intervals';
import { normalQuantile } from './distributions';
import { averageRanks } from './ranks';
import { studentTTwoSidedP } from './special';

export interface Correlation {
  n: number;
  /** null when a variable is constant. */
  r: number | null;
  p: number | null;
}

/**
 * Why rho or its interval is undefined: a constant side (rho itself undefined), |rho| = 1
 * (atanh is infinite, so the Fisher-z interval does not exist), or fewer than 4 items (z/√(n − 3)).
 */
export type RhoCiUndefinedReason = 'one side constant' | 'ρ = ±1' | 'fewer than 4 items';

export interface SpearmanResult {
  n: number;
  rho: number | null;
  /**
   * Fisher-z interval with Bonett & Wright's variance for Spearman's rho:
   * tanh(atanh(rho) ± z · sqrt((1 + rho²/2) / (n − 3))); null when undefined (see the reason).
   */
  ci: CI | null;
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

/** Spearman's rho with its Fisher-z interval (default 95%). */
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
  const ci = fisherInterval(coefficient, n, confidence, spearmanVarianceFactor(coefficient));
  if (ci) return { n, rho: coefficient, ci };
  return { n, rho: coefficient, ci, ci_undefined_reason: n < 4 ? 'fewer than 4 items' : 'ρ = ±1' };
}

/**
 * How much more atanh(Spearman's rho) varies than atanh(Pearson's r): 1 + rho²/2 (Bonett &
 * Wright 2000, Psychometrika 65, 23–28). With Pearson's 1/(n − 3) alone the interval covered
 * 92–93.5 % at rho = 0.8, the agreement decision's threshold, and 89–91 % at 0.95, at every n
 * (docs/VALIDATION.md, spearman-fisher-z).
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

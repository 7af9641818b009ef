// Pearson, Spearman and partial Spearman correlations with two-sided p-values (t test on
// n − 2, resp. n − 3, degrees of freedom), as scipy.stats.pearsonr / spearmanr and, for the
// partial one, the correlation of rank residuals (pingouin's partial_corr, method 'spearman').
import { averageRanks } from './ranks';
import { studentTTwoSidedP } from './special';

export interface Correlation {
  n: number;
  /** null when a variable is constant. */
  r: number | null;
  p: number | null;
}

function check(xs: readonly number[], ys: readonly number[]): void {
  if (xs.length !== ys.length) throw new RangeError(`lengths differ: ${xs.length} vs ${ys.length}`);
  for (const [i, v] of [...xs, ...ys].entries())
    if (!Number.isFinite(v)) throw new RangeError(`value ${i} must be a finite number, got ${v}`);
}

function pearsonR(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
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

function withP(n: number, r: number | null, df: number): Correlation {
  if (r === null || df < 1) return { n, r, p: null };
  if (Math.abs(r) === 1) return { n, r, p: 0 };
  const t = r * Math.sqrt(df / (1 - r * r));
  return { n, r, p: studentTTwoSidedP(t, df) };
}

export function pearson(xs: readonly number[], ys: readonly number[]): Correlation {
  check(xs, ys);
  return withP(xs.length, xs.length < 2 ? null : pearsonR(xs, ys), xs.length - 2);
}

export function spearman(xs: readonly number[], ys: readonly number[]): Correlation {
  check(xs, ys);
  if (xs.length < 2) return { n: xs.length, r: null, p: null };
  return withP(xs.length, pearsonR(averageRanks(xs), averageRanks(ys)), xs.length - 2);
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
  const rxy = pearsonR(rx, ry);
  const rxz = pearsonR(rx, rz);
  const ryz = pearsonR(ry, rz);
  if (rxy === null || rxz === null || ryz === null) return { n, r: null, p: null };
  const den = Math.sqrt((1 - rxz * rxz) * (1 - ryz * ryz));
  if (den === 0) return { n, r: null, p: null };
  const r = Math.max(-1, Math.min(1, (rxy - rxz * ryz) / den));
  return withP(n, r, n - 3);
}

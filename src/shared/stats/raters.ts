// Agreement among several raters: ICC(2,1), Krippendorff's alpha (nominal, ordinal), Fleiss'
// kappa. Matched against R's psych::ICC ("Single_random_raters"), irr::kripp.alpha and
// statsmodels' fleiss_kappa in test/fixtures/annotation/stats.json.
import type { CI } from './intervals';
import { fQuantile } from './distributions';
import { RANGE, ruleInterval } from './interval-rule';

export interface IccResult {
  n: number;
  k: number;
  icc: number | null;
  /** 95% interval of McGraw & Wong (1996) case 2A, as psych::ICC reports for ICC2, clipped to [−1, 1]. */
  ci: CI | null;
}

/**
 * ICC(2,1): two-way random effects, absolute agreement, single rater (Shrout & Fleiss 1979).
 * `matrix[i][j]` = rater j's score of item i; complete rows only (items every rater scored),
 * as psych::ICC does by default.
 */
export function icc21(matrix: readonly (readonly number[])[], alpha = 0.05): IccResult {
  const n = matrix.length;
  const k = n > 0 ? matrix[0].length : 0;
  for (const [i, row] of matrix.entries()) {
    if (row.length !== k) throw new RangeError(`row ${i} has ${row.length} ratings, expected ${k}`);
    row.forEach((v, j) => {
      if (!Number.isFinite(v)) throw new RangeError(`rating [${i}][${j}] is not a finite number`);
    });
  }
  if (n < 2 || k < 2) return { n, k, icc: null, ci: null };
  const grand = matrix.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0) / (n * k);
  const rowMeans = matrix.map((row) => row.reduce((a, b) => a + b, 0) / k);
  const colMeans = Array.from({ length: k }, (_, j) => matrix.reduce((s, row) => s + row[j], 0) / n);
  let ssRows = 0;
  for (const m of rowMeans) ssRows += k * (m - grand) ** 2;
  let ssCols = 0;
  for (const m of colMeans) ssCols += n * (m - grand) ** 2;
  let ssTotal = 0;
  for (const row of matrix) for (const v of row) ssTotal += (v - grand) ** 2;
  const ssError = ssTotal - ssRows - ssCols;
  const msr = ssRows / (n - 1);
  const msc = ssCols / (k - 1);
  const mse = ssError / ((n - 1) * (k - 1));
  const denominator = msr + (k - 1) * mse + (k * (msc - mse)) / n;
  if (denominator === 0) return { n, k, icc: null, ci: null };
  const icc = (msr - mse) / denominator;
  // psych::ICC's interval for ICC2 (McGraw & Wong 1996, with a Satterthwaite df v).
  const fj = msc / mse;
  const vn = (k - 1) * (n - 1) * (k * icc * fj + n * (1 + (k - 1) * icc) - k * icc) ** 2;
  const vd = (n - 1) * k ** 2 * icc ** 2 * fj ** 2 + (n * (1 + (k - 1) * icc) - k * icc) ** 2;
  // Without residual error (raters differ by constant offsets only) fj is infinite; v tends to
  // k - 1 there, the value R reaches through its rounding residue.
  const v = Number.isFinite(fj) ? vn / vd : k - 1;
  let ci: CI | null = null;
  if (Number.isFinite(v) && v > 0) {
    const fU = fQuantile(1 - alpha / 2, n - 1, v);
    const fL = fQuantile(1 - alpha / 2, v, n - 1);
    const base = k * msc + (k * n - k - n) * mse;
    const lower = (n * (msr - fU * mse)) / (fU * base + n * msr);
    const upper = (n * (fL * msr - mse)) / (base + n * fL * msr);
    // With few items the lower end can fall below −1, which ICC cannot take: clipped to [−1, 1].
    // A degenerate table (no variance between items) gives NaN ends: no interval, not NaN.
    ci = ruleInterval([lower, upper], RANGE.agreement, { none: 'none', zeroWidth: 'none' }).ci;
  }
  return { n, k, icc, ci };
}

export type AlphaLevel = 'nominal' | 'ordinal';

/**
 * Krippendorff's alpha for units × coders with missing values (null). Nominal: delta = 0 for
 * equal values, 1 otherwise. Ordinal: delta^2(c, k) = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2 over
 * the pairable values' marginals (Krippendorff 2011). Null when fewer than two pairable values
 * or no disagreement is expected (a single value everywhere).
 */
export function krippendorffAlpha(
  units: readonly (readonly (number | string | null)[])[],
  level: AlphaLevel,
): { alpha: number | null; pairable: number } {
  const pairableUnits = units
    .map((u) => u.filter((v): v is number | string => v !== null))
    .filter((u) => u.length >= 2);
  const values = [...new Set(pairableUnits.flat())].sort((x, y) =>
    typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)),
  );
  const index = new Map(values.map((v, i) => [v, i]));
  const c = values.length;
  const o = Array.from({ length: c }, () => new Array<number>(c).fill(0));
  for (const u of pairableUnits) {
    const m = u.length;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i !== j) o[index.get(u[i])!][index.get(u[j])!] += 1 / (m - 1);
      }
    }
  }
  const nc = o.map((row) => row.reduce((a, b) => a + b, 0));
  const total = nc.reduce((a, b) => a + b, 0);
  if (total < 2) return { alpha: null, pairable: total };
  const delta2 = (a: number, b: number): number => {
    if (level === 'nominal') return a === b ? 0 : 1;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    let s = 0;
    for (let g = lo; g <= hi; g++) s += nc[g];
    return (s - (nc[lo] + nc[hi]) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let a = 0; a < c; a++) {
    for (let b = 0; b < c; b++) {
      const d = delta2(a, b);
      observed += o[a][b] * d;
      expected += nc[a] * nc[b] * d;
    }
  }
  if (expected === 0) return { alpha: null, pairable: total };
  return { alpha: 1 - ((total - 1) * observed) / expected, pairable: total };
}

/**
 * Fleiss' kappa from per-item category counts (`counts[i][c]` = raters who put item i in
 * category c); every item must have the same number of ratings (at least two).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): number | null {
  const n = counts.length;
  if (n === 0) return null;
  const m = counts[0].reduce((a, b) => a + b, 0);
  for (const [i, row] of counts.entries()) {
    const s = row.reduce((a, b) => a + b, 0);
    if (s !== m) throw new RangeError(`item ${i} has ${s} ratings, expected ${m} as the first item`);
  }
  if (m < 2) return null;
  const k = counts[0].length;
  const pj = Array.from({ length: k }, (_, j) => counts.reduce((s, row) => s + row[j], 0) / (n * m));
  const pBar = counts.reduce((s, row) => s + (row.reduce((a, x) => a + x * x, 0) - m) / (m * (m - 1)), 0) / n;
  const pe = pj.reduce((s, p) => s + p * p, 0);
  if (pe >= 1) return null;
  return (pBar - pe) / (1 - pe);
}

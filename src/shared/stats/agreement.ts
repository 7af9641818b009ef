// Agreement between two raters on categories: Cohen's kappa, unweighted (labels, preferences,
// verdicts against reference labels) or quadratic-weighted (ordinal scores), with the
// large-sample interval of Fleiss, Cohen & Everitt (1969) as statsmodels' cohens_kappa computes
// it; and exact agreement. Two entry points over one computation: paired ratings
// (`cohensKappa`, checked against scikit-learn's cohen_kappa_score and statsmodels in
// test/fixtures/annotation/stats.json) and a contingency table (`cohensKappaTable`, checked in
// test/stats/refsens-stats.test.ts against test/fixtures/stats/refsens.json).
import { checkCount } from './checks';
import { normalQuantile } from './distributions';
import { Z_95, type CI } from './intervals';
import { clipInterval, RANGE } from './interval-rule';

export type KappaWeights = 'none' | 'quadratic';

/**
 * Why κ has a value but no interval: its large-sample variance is 0, so κ ± z · SE would be a
 * zero-width interval that claims certainty. "one side constant": one rater gave every item the
 * same category (κ is then 0; statsmodels gives no usable interval either); "variance 0":
 * otherwise (perfect agreement, κ = 1).
 */
export type KappaCiUndefinedReason = 'one side constant' | 'variance 0';

export interface KappaResult {
  n: number;
  kappa: number | null;
  /** kappa ± z · SE clipped to [−1, 1]; null when kappa is undefined (no pairs, or chance agreement is 1) or its variance is 0. */
  ci: CI | null;
  /** Set when kappa has a value and ci is null (its variance is 0). */
  ci_undefined_reason?: KappaCiUndefinedReason;
  weights: KappaWeights;
}

/**
 * Cohen's kappa of paired ratings. `categories` is the ordered scale (for quadratic weights the
 * weight of a disagreement is 1 - (a - b)^2 / (max - min)^2 by category value, so unobserved
 * scale points count); without it, the sorted union of observed values.
 */
export function cohensKappa<T extends string | number>(
  a: readonly T[],
  b: readonly T[],
  weights: KappaWeights = 'none',
  categories?: readonly T[],
  confidence = 0.95,
): KappaResult {
  if (a.length !== b.length) throw new RangeError(`a and b differ in length (${a.length} vs ${b.length})`);
  const n = a.length;
  const cats = categories ? [...categories] : [...new Set<T>([...a, ...b])].sort(compare);
  const index = new Map<T, number>(cats.map((c, i) => [c, i]));
  const k = cats.length;
  if (n === 0 || k === 0) return { n, kappa: null, ci: null, weights };
  if (weights === 'quadratic' && cats.some((c) => typeof c !== 'number')) {
    throw new RangeError('quadratic weights need numeric categories');
  }
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < n; i++) {
    const r = index.get(a[i]);
    const c = index.get(b[i]);
    if (r === undefined) throw new RangeError(`rating a[${i}] = ${String(a[i])} is not a category`);
    if (c === undefined) throw new RangeError(`rating b[${i}] = ${String(b[i])} is not a category`);
    table[r][c]++;
  }
  const w = agreementWeights(cats, weights);
  return { ...kappaOfTable(table, w, normalQuantile(1 - (1 - confidence) / 2)), weights };
}

function compare<T extends string | number>(x: T, y: T): number {
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
}

function agreementWeights<T extends string | number>(cats: readonly T[], weights: KappaWeights): number[][] {
  const k = cats.length;
  if (weights === 'none') return cats.map((_, i) => cats.map((__, j) => (i === j ? 1 : 0)));
  const values = cats as readonly number[];
  const span = Math.max(...values) - Math.min(...values);
  return values.map((x) => values.map((y) => (span === 0 ? 1 : 1 - (x - y) ** 2 / span ** 2))).slice(0, k);
}

/**
 * Kappa of a contingency table under agreement weights w (identity: unweighted), with the
 * large-sample interval kappa ± z · SE of Fleiss, Cohen & Everitt (1969); the one kappa
 * computation behind both forms above and below.
 */
function kappaOfTable(
  table: readonly (readonly number[])[],
  w: readonly (readonly number[])[],
  z: number,
): { n: number; kappa: number | null; ci: CI | null; ci_undefined_reason?: KappaCiUndefinedReason } {
  const k = table.length;
  const n = table.reduce((s, row) => s + row.reduce((x, y) => x + y, 0), 0);
  if (n === 0) return { n, kappa: null, ci: null };
  const p = table.map((row) => row.map((v) => v / n));
  const rows = p.map((row) => row.reduce((x, y) => x + y, 0));
  const cols = p[0].map((_, j) => p.reduce((s, row) => s + row[j], 0));
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      observed += w[i][j] * p[i][j];
      expected += w[i][j] * rows[i] * cols[j];
    }
  }
  if (expected >= 1 - 1e-15) return { n, kappa: null, ci: null };
  const kappa = (observed - expected) / (1 - expected);
  // Fleiss, Cohen & Everitt (1969): var = [sum p_ij (w_ij - (wbar_i. + wbar_.j)(1 - kappa))^2
  //   - (kappa - pe (1 - kappa))^2] / (n (1 - pe)^2), with wbar_i. = sum_j p_.j w_ij.
  const rowBar = w.map((row) => row.reduce((s, wij, j) => s + cols[j] * wij, 0));
  const colBar = w[0].map((_, j) => w.reduce((s, row, i) => s + rows[i] * row[j], 0));
  let sum = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) sum += p[i][j] * (w[i][j] - (rowBar[i] + colBar[j]) * (1 - kappa)) ** 2;
  }
  const variance = Math.max(0, (sum - (kappa - expected * (1 - kappa)) ** 2) / (n * (1 - expected) ** 2));
  // A margin with all its mass in one category: that rater is constant. Counted from the table,
  // not the rounded variance (which comes out as ±1e-17 there).
  const constant = (margins: number[]) => margins.some((m) => Math.abs(m - 1) < 1e-12);
  if (constant(rows) || constant(cols))
    return { n, kappa, ci: null, ci_undefined_reason: 'one side constant' };
  if (variance < 1e-15) return { n, kappa, ci: null, ci_undefined_reason: 'variance 0' };
  const half = z * Math.sqrt(variance);
  // κ ± z·SE can pass 1 (κ 0.400 ± 0.768 on 4 items gave [−0.368, 1.168]); κ cannot, so the
  // interval is clipped to κ's range [−1, 1] (the captions say so).
  return { n, kappa, ci: clipInterval([kappa - half, kappa + half], RANGE.agreement) };
}

export interface TableKappaResult {
  n: number;
  kappa: number | null;
  /** kappa ± z · SE, as statsmodels' cohens_kappa, clipped to [−1, 1]; null when kappa is undefined (no items, or
   * chance agreement is 1) or its variance is 0 (then `kappa_ci_undefined_reason` says why). */
  kappa_ci: CI | null;
  kappa_ci_undefined_reason?: KappaCiUndefinedReason;
}

/**
 * Cohen's kappa (unweighted) of a square contingency table: table[i][j] = items rater 1 put in
 * category i and rater 2 in category j (a judge's verdicts against reference labels).
 */
export function cohensKappaTable(table: readonly (readonly number[])[], z: number = Z_95): TableKappaResult {
  const k = table.length;
  for (const row of table) {
    if (row.length !== k) throw new RangeError('the table must be square');
    row.forEach((v, j) => checkCount(`table cell ${j}`, v));
  }
  const identity = table.map((_, i) => table.map((__, j) => (i === j ? 1 : 0)));
  const { n, kappa, ci, ci_undefined_reason } = kappaOfTable(table, identity, z);
  return ci_undefined_reason
    ? { n, kappa, kappa_ci: ci, kappa_ci_undefined_reason: ci_undefined_reason }
    : { n, kappa, kappa_ci: ci };
}

/** Share of pairs with the same rating; null without pairs. */
export function exactAgreement<T>(a: readonly T[], b: readonly T[]): number | null {
  if (a.length !== b.length) throw new RangeError(`a and b differ in length (${a.length} vs ${b.length})`);
  if (a.length === 0) return null;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

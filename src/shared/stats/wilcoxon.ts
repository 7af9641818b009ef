// Wilcoxon signed-rank test of paired differences, two-sided, as scipy.stats.wilcoxon(d) with its
// defaults (zero_method='wilcox', correction=False, mode/method 'auto'):
// - zeros are dropped first ('wilcox');
// - exact null distribution when the remaining n ≤ 50 and there are no zeros and no ties;
// - otherwise the normal approximation: T = min(R+, R−), mean n(n+1)/4, variance
//   n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over tie groups of |d|, no continuity correction.
import { averageRanks, tieGroups } from './ranks';
import { normalSf } from './special';

export interface WilcoxonResult {
  /** Non-zero differences used. */
  n: number;
  /** min(R+, R−). */
  statistic: number;
  p: number;
  method: 'exact' | 'approx';
}

/** Number of subsets of {1..n} with each rank sum s = 0..n(n+1)/2. */
function signedRankCounts(n: number): number[] {
  const max = (n * (n + 1)) / 2;
  const counts = new Array<number>(max + 1).fill(0);
  counts[0] = 1;
  for (let k = 1; k <= n; k++) for (let s = max; s >= k; s--) counts[s] += counts[s - k];
  return counts;
}

/** null when every difference is zero (nothing to test). */
export function wilcoxonSignedRank(diffs: readonly number[]): WilcoxonResult | null {
  const hadZeros = diffs.some((d) => d === 0);
  const d = diffs.filter((x) => x !== 0);
  const n = d.length;
  if (n === 0) return null;
  const abs = d.map(Math.abs);
  const ranks = averageRanks(abs);
  let rPlus = 0;
  let rMinus = 0;
  for (let i = 0; i < n; i++) {
    if (d[i] > 0) rPlus += ranks[i];
    else rMinus += ranks[i];
  }
  const statistic = Math.min(rPlus, rMinus);
  const ties = tieGroups(abs);
  if (n <= 50 && !hadZeros && ties.length === 0) {
    const counts = signedRankCounts(n);
    const total = 2 ** n;
    let cdf = 0;
    for (let s = 0; s <= statistic; s++) cdf += counts[s];
    return { n, statistic, p: Math.min(1, (2 * cdf) / total), method: 'exact' };
  }
  const mean = (n * (n + 1)) / 4;
  let variance = (n * (n + 1) * (2 * n + 1)) / 24;
  for (const t of ties) variance -= (t ** 3 - t) / 48;
  if (variance <= 0) return { n, statistic, p: 1, method: 'approx' };
  const z = (statistic - mean) / Math.sqrt(variance);
  return { n, statistic, p: Math.min(1, 2 * normalSf(Math.abs(z))), method: 'approx' };
}

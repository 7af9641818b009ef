// Correlations between a judge's scores and the human median: Pearson r, Spearman rho with a
// Fisher-z interval, Kendall tau-b. Matched against scipy.stats (pearsonr, spearmanr,
// kendalltau with its default variant 'b') in test/fixtures/annotation/stats.json.
import { normalQuantile } from './distributions';

export type CI = [number, number];

function checkPaired(x: readonly number[], y: readonly number[]): void {
  if (x.length !== y.length) throw new RangeError(`x and y differ in length (${x.length} vs ${y.length})`);
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) throw new RangeError(`pair ${i} is not finite`);
  }
}

/** Ranks 1..n with ties given their average rank (scipy.stats.rankdata 'average'). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = rank;
    i = j + 1;
  }
  return ranks;
}

/** Pearson's r; null when n < 2 or either side is constant (undefined, as scipy's nan). */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  checkPaired(x, y);
  const n = x.length;
  if (n < 2) return null;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

export interface SpearmanResult {
  n: number;
  rho: number | null;
  /**
   * Fisher-z interval: tanh(atanh(rho) ± z / sqrt(n - 3)). Null for n < 4 or an undefined rho;
   * [rho, rho] when |rho| = 1 (atanh is infinite there, the interval degenerates).
   */
  ci: CI | null;
}

/** Spearman's rho (Pearson's r of average ranks) with its Fisher-z 95% interval. */
export function spearman(x: readonly number[], y: readonly number[], confidence = 0.95): SpearmanResult {
  checkPaired(x, y);
  const n = x.length;
  const rho = pearson(averageRanks(x), averageRanks(y));
  return { n, rho, ci: rho === null ? null : fisherInterval(rho, n, confidence) };
}

export function fisherInterval(r: number, n: number, confidence = 0.95): CI | null {
  if (n < 4) return null;
  if (Math.abs(r) >= 1) return [r, r];
  const z = Math.atanh(r);
  const half = normalQuantile(1 - (1 - confidence) / 2) / Math.sqrt(n - 3);
  return [Math.tanh(z - half), Math.tanh(z + half)];
}

/**
 * Kendall's tau-b: (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)) with n1, n2 the pairs
 * tied in x and in y. O(n^2), fine for annotation sets (hundreds of items).
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  checkPaired(x, y);
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

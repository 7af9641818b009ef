// Paired effects: a judge's score on a variant minus its score on the original, per item.
import type { CI } from './intervals';
import { clipInterval, NO_INTERVAL } from './interval-rule';
import { studentTTwoSidedP, studentTUpperQuantile } from './special';

export interface PairedEffect {
  n: number;
  /** Mean of the differences. */
  mean: number;
  /** Sample SD of the differences (n − 1); null for n < 2. */
  sd: number | null;
  /**
   * mean ± t_{0.975, n−1} · sd / √n, clipped to the differences' range when given; null for n < 2
   * and when every difference is the same (sd 0: the interval would have zero width).
   */
  ci: CI | null;
  /** Why `ci` is null. */
  ci_undefined_reason: string | null;
  /** Cohen's d_z = mean / sd; null when sd is 0 or undefined. */
  dz: number | null;
  /** Paired t-test two-sided p (scipy.stats.ttest_1samp of the differences); null where undefined. */
  tP: number | null;
}

/**
 * The paired mean difference of `diffs` with its t interval, d_z and t-test p. `range`: what a
 * difference can take (scores on 1–5: [−4, 4]); the t interval, which knows no bounds, is clipped
 * to it.
 */
export function pairedEffect(diffs: readonly number[], range?: readonly [number, number]): PairedEffect {
  const n = diffs.length;
  if (n === 0) throw new RangeError('pairedEffect needs at least one difference');
  for (const [i, d] of diffs.entries())
    if (!Number.isFinite(d)) throw new RangeError(`diffs[${i}] must be a finite number, got ${d}`);
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  if (n < 2)
    return {
      n,
      mean,
      sd: null,
      ci: null,
      ci_undefined_reason: NO_INTERVAL.oneDifference,
      dz: null,
      tP: null,
    };
  let ss = 0;
  for (const d of diffs) ss += (d - mean) ** 2;
  const sd = Math.sqrt(ss / (n - 1));
  // With every difference equal there is no interval (it would be the point) and the t-test is
  // undefined (0/0).
  if (sd === 0)
    return { n, mean, sd, ci: null, ci_undefined_reason: NO_INTERVAL.equalDifferences, dz: null, tP: null };
  const se = sd / Math.sqrt(n);
  const q = studentTUpperQuantile(0.025, n - 1);
  const ci: CI = [mean - q * se, mean + q * se];
  return {
    n,
    mean,
    sd,
    ci: range ? clipInterval(ci, range) : ci,
    ci_undefined_reason: null,
    dz: mean / sd,
    tP: studentTTwoSidedP(mean / se, n - 1),
  };
}

/**
 * The paired mean difference when an item holds several differences (a pairwise item's two
 * orders, a pointwise item's responses), which are not independent: the mean is over all
 * differences as `pairedEffect`'s, its interval and t-test use the item-clustered (cluster-robust)
 * standard error — with S_k and m_k item k's sum and count of differences, G items and N
 * differences, var = G/(G − 1) · Σ (S_k − mean · m_k)² / N², on t with G − 1 degrees of freedom
 * (Liang & Zeger 1986; statsmodels' OLS intercept with cov_type='cluster'). With one difference
 * per item it is `pairedEffect`, to the last digit.
 */
export function clusteredPairedEffect(
  diffs: readonly number[],
  itemOf: readonly string[],
  range?: readonly [number, number],
): PairedEffect & { items: number } {
  if (itemOf.length !== diffs.length)
    throw new RangeError(`itemOf has ${itemOf.length} entries for ${diffs.length} differences`);
  const base = pairedEffect(diffs, range);
  const sums = itemSums(diffs, itemOf);
  const items = sums.length;
  if (items === diffs.length) return { ...base, items };
  // Zero-width (every difference equal) stays undefined as pairedEffect says; so does one item.
  if (base.sd === 0 || base.sd === null) return { ...base, items };
  if (items < 2) return { ...base, items, ci: null, ci_undefined_reason: NO_INTERVAL.oneItem, tP: null };
  const n = diffs.length;
  let ss = 0;
  for (const [sum, m] of sums) ss += (sum - base.mean * m) ** 2;
  const se = Math.sqrt(((items / (items - 1)) * ss) / (n * n));
  // Every item's differences average to the overall mean: the clustered spread is 0 though the
  // differences vary, and an interval would have zero width.
  if (se === 0)
    return { ...base, items, ci: null, ci_undefined_reason: NO_INTERVAL.equalItemMeans, tP: null };
  const q = studentTUpperQuantile(0.025, items - 1);
  const ci: CI = [base.mean - q * se, base.mean + q * se];
  return {
    ...base,
    items,
    ci: range ? clipInterval(ci, range) : ci,
    ci_undefined_reason: null,
    tP: studentTTwoSidedP(base.mean / se, items - 1),
  };
}

/** Each item's sum and count of `values` (first-seen item order): the clusters of an item-level test. */
export function itemSums(values: readonly number[], itemOf: readonly string[]): [number, number][] {
  const sums = new Map<string, [number, number]>();
  values.forEach((v, i) => {
    const s = sums.get(itemOf[i]);
    if (s) {
      s[0] += v;
      s[1]++;
    } else sums.set(itemOf[i], [v, 1]);
  });
  return [...sums.values()];
}

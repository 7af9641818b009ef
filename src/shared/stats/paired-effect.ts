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

// The item-clustered exact McNemar test. A study that judges each item more than once per
// condition (both answer orders, repeats) holds several matched pairs per item, and they are not
// independent: an item whose translation confuses the judge loses in both orders. McNemar's test
// counts every pair as its own draw, so such items weigh twice and the test rejects too often
// when items differ in how the condition affects them (simulated: 9 % at alpha 5 % with 200 items
// and strong item effects; docs/VALIDATION.md). Durkalski et al. (Stat Med 2003;22:2417-28) keep
// the item as the unit: with d_k = (pairs correct only in the first condition) - (pairs correct
// only in the second) for item k, X^2 = (sum d_k)^2 / sum d_k^2. Its exact form is the sign-flip
// test used here: under the null each item's d_k is as likely +|d_k| as -|d_k|, so the sum's
// distribution is the convolution of the items' two-point laws. With one pair per item every
// |d_k| <= 1 and the test is the exact McNemar test itself, p for p.
import { binomialPmf, mcnemarExact } from './binomial';
import { itemSums } from './paired-effect';

/** How the test is named in captions, column help and Methods. */
export const CLUSTERED_MCNEMAR_METHOD = 'exact McNemar, item-clustered (sign-flip over items)';

/** Relative slack when comparing |s| to the observed |sum|: sums are integers, so any slack < 1 works. */
const HALF = 0.5;

/**
 * Two-sided exact p of the item-clustered McNemar test.
 * @param differences one integer per item: its pairs right only in the first condition minus those
 *   right only in the second (0 for an item with no discordant pair or with as many each way).
 */
export function clusteredMcnemarExact(differences: readonly number[]): number {
  const byMagnitude = new Map<number, number>();
  let observed = 0;
  for (const d of differences) {
    if (!Number.isSafeInteger(d)) throw new RangeError(`each difference must be an integer, got ${d}`);
    observed += d;
    const m = Math.abs(d);
    if (m > 0) byMagnitude.set(m, (byMagnitude.get(m) ?? 0) + 1);
  }
  if (byMagnitude.size === 0) return 1;
  if (byMagnitude.size === 1 && byMagnitude.has(1)) {
    // One pair's worth per item: the plain exact McNemar test (Loader's binomial keeps tiny p exact).
    const b = differences.filter((d) => d > 0).length;
    return mcnemarExact(b, byMagnitude.get(1)! - b);
  }
  // The sum's law over s = -total..total, built one magnitude at a time: the items of magnitude m
  // contribute m (2X - n_m) with X ~ Binomial(n_m, 1/2).
  let total = 0;
  let law = new Float64Array([1]);
  for (const [m, n] of [...byMagnitude].sort((a, b) => a[0] - b[0])) {
    const part = new Float64Array(n + 1);
    for (let x = 0; x <= n; x++) part[x] = binomialPmf(x, n, 0.5);
    const span = m * n;
    const next = new Float64Array(2 * (total + span) + 1);
    for (let i = 0; i < law.length; i++) {
      const pi = law[i];
      if (pi === 0) continue;
      // law[i] is the probability of s = i - total; part[x] adds m (2x - n).
      for (let x = 0; x <= n; x++) next[i + m * 2 * x] += pi * part[x];
    }
    law = next;
    total += span;
  }
  const cut = Math.abs(observed) - HALF;
  let p = 0;
  for (let i = 0; i < law.length; i++) if (Math.abs(i - total) > cut) p += law[i];
  return Math.min(1, p);
}

/**
 * The clustered test over matched pairs grouped by item: `difference` is +1 for a pair that only
 * the first condition got right (or changed), -1 for one only the second did, 0 otherwise.
 */
export function clusteredMcnemar<T>(
  pairs: readonly T[],
  itemOf: (pair: T) => string,
  difference: (pair: T) => -1 | 0 | 1,
): number {
  const sums = itemSums(pairs.map(difference), pairs.map(itemOf));
  return clusteredMcnemarExact(sums.map(([sum]) => sum));
}

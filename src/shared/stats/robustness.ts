// The robustness rate (RR) of the CALM battery (Ye et al., ICLR 2025, "Justice or Prejudice?
// Quantifying Biases in LLM-as-a-Judge", arXiv 2410.02736, section "Metrics"): RR = (1/|D|) Σ
// I(Y = Ŷ), the share of judged units whose verdict Y on the original equals the verdict Ŷ after
// the bias is injected. Asked twice with nothing changed, the same share is the paper's
// consistency rate: the rerun-noise baseline a probe's RR is read against.
import { wilsonInterval, type CI } from './intervals';
import { itemSums } from './paired-effect';

export interface RobustnessRate {
  /** Paired units (pointwise: responses; pairwise: item × order). */
  n: number;
  items: number;
  unchanged: number;
  /** null without units. */
  rate: number | null;
  /** Wilson 95% on the design-effect-adjusted n; null without units (`ci_undefined_reason`). */
  ci: CI | null;
  ci_undefined_reason?: string;
  /** The design effect the interval used (≥ 1). */
  deff: number | null;
}

export const NO_UNITS = 'no paired units: no verdict was judged in both conditions';

/**
 * RR with an interval that respects clustering. An item's units (its two orders, its responses)
 * move together, so they are not independent draws. Wilson on n / deff, with the design effect
 * deff = (clustered variance of the ratio estimator) / (binomial variance) clamped to [1, the
 * mean item size]: an item-level percentile bootstrap would collapse to a zero-width point when
 * every unit is unchanged (the common case for a robust judge), where Wilson keeps a width and
 * stays inside [0, 1]; clamping at 1 never credits clustering with more information than
 * independent units, and at the mean item size never treats an item as less than one unit. At a
 * rate of 0 or 1 both variances are 0 and the data say nothing about the clustering: the most
 * conservative deff (the mean item size, each item one unit) is taken.
 */
export function robustnessRate(unchanged: readonly boolean[], itemOf: readonly string[]): RobustnessRate {
  const n = unchanged.length;
  if (n === 0)
    return { n: 0, items: 0, unchanged: 0, rate: null, ci: null, ci_undefined_reason: NO_UNITS, deff: null };
  const values = unchanged.map((u) => (u ? 1 : 0));
  const sums = itemSums(values, itemOf);
  const k = sums.length;
  const hits = values.reduce((a: number, b) => a + b, 0);
  const p = hits / n;
  const meanSize = n / k;
  let deff = meanSize;
  if (p > 0 && p < 1 && k > 1) {
    let ss = 0;
    for (const [sum, m] of sums) ss += (sum - p * m) ** 2;
    const clustered = ((k / (k - 1)) * ss) / (n * n);
    deff = Math.min(meanSize, Math.max(1, clustered / ((p * (1 - p)) / n)));
  }
  const nEff = n / deff;
  return { n, items: k, unchanged: hits, rate: p, ci: wilsonInterval(p * nEff, nEff), deff };
}

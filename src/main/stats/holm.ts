// Holm's step-down adjustment (Holm 1979) for the comparisons of one table: it controls the
// family-wise error rate without assuming the tests independent, and is uniformly more powerful
// than Bonferroni. Checked against statsmodels multipletests(method='holm').
import { checkProbability } from './checks';

/**
 * Holm-adjusted p-values, in the input's order: sorted ascending, p(i) · (m − i) for rank
 * i = 0…m−1, made monotone by a running maximum and capped at 1. Ties keep their input order
 * (the adjusted values of tied p-values come out equal either way).
 */
export function holmAdjust(pvalues: readonly number[]): number[] {
  pvalues.forEach((p, i) => checkProbability(`pvalues[${i}]`, p));
  const m = pvalues.length;
  const order = pvalues.map((_, i) => i).sort((a, b) => pvalues[a] - pvalues[b] || a - b);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pvalues[index]));
    adjusted[index] = running;
  });
  return adjusted;
}

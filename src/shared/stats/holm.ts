// Holm's step-down adjustment (Holm 1979) for the comparisons of one table or one experiment's
// probes: it controls the family-wise error rate without assuming the tests independent, and is
// uniformly more powerful than Bonferroni. Checked against statsmodels multipletests(method='holm').
import { checkProbability } from './checks';

/**
 * Holm-adjusted p-values, in the input's order: sorted ascending, p(k) · (m − k) for rank
 * k = 0…m−1, made monotone by a running maximum and capped at 1. Null entries (no test) are
 * skipped and stay null; m counts only the tests present. Ties keep their input order (their
 * adjusted values come out equal either way).
 */
export function holmAdjust(pvalues: readonly number[]): number[];
export function holmAdjust(pvalues: readonly (number | null)[]): (number | null)[];
export function holmAdjust(pvalues: readonly (number | null)[]): (number | null)[] {
  const present = pvalues.flatMap((p, i) => (p === null ? [] : [{ p, i }]));
  for (const { p, i } of present) checkProbability(`pvalues[${i}]`, p);
  present.sort((a, b) => a.p - b.p || a.i - b.i);
  const m = present.length;
  const adjusted: (number | null)[] = pvalues.map(() => null);
  let running = 0;
  present.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

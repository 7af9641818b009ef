/**
 * Holm's step-down adjustment of p-values (statsmodels multipletests(method='holm')): sort
 * ascending, multiply the k-th smallest by (m − k + 1), carry the running maximum, cap at 1.
 * Returned in the input order; null entries (no test) are skipped and stay null.
 */
export function holmAdjust(ps: readonly (number | null)[]): (number | null)[] {
  const present = ps.flatMap((p, i) => (p === null ? [] : [{ p, i }]));
  for (const { p, i } of present)
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p[${i}] must be a probability, got ${p}`);
  present.sort((a, b) => a.p - b.p);
  const m = present.length;
  const out: (number | null)[] = ps.map(() => null);
  let running = 0;
  for (const [k, { p, i }] of present.entries()) {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  }
  return out;
}

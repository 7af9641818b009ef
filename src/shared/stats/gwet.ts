// Gwet's AC1 (nominal) and AC2 (weighted, for ordinal scales) among any number of raters with
// missing ratings allowed (Gwet 2008, "Computing inter-rater reliability and its variance in the
// presence of high agreement", Br. J. Math. Stat. Psychol. 61:29–48; Gwet 2014, Handbook of
// Inter-Rater Reliability, 4th ed.), with the variance conditional on the raters as in the author's
// R package irrCAC (gwet.ac1.raw): a linearised per-subject term, a t interval with n − 1 df,
// bounded to [−1, 1]. Unlike κ, AC1's chance agreement does not blow up when one category is
// rare, so it stays meaningful at high agreement (the "kappa paradox").
import { studentTUpperQuantile } from './special';
import type { CI } from './intervals';
import { clipInterval, RANGE } from './interval-rule';

export type GwetUndefinedReason =
  'fewer than 2 subjects with 2 ratings' | 'fewer than 2 categories' | 'zero variance';

export interface GwetResult {
  coefficient: number | null;
  /** 'AC1' unweighted, 'AC2' with weights. */
  name: 'AC1' | 'AC2';
  pa: number | null;
  pe: number | null;
  se: number | null;
  ci: CI | null;
  /** Subjects with at least one rating. */
  n: number;
  undefined_reason?: GwetUndefinedReason;
}

/** Quadratic agreement weights 1 − (k − l)² / (max − min)² over ordered numeric categories. */
export function quadraticWeights(categories: readonly number[]): number[][] {
  const lo = Math.min(...categories);
  const hi = Math.max(...categories);
  const span = hi - lo || 1;
  return categories.map((a) => categories.map((b) => 1 - ((a - b) / span) ** 2));
}

/**
 * `ratings[i][r]` is rater r's category on subject i (null: not rated); `categories` lists every
 * category of the scale (unused ones included, as irrCAC's categ.labels); `weights` (q × q) makes it
 * AC2, identity (the default) AC1.
 */
export function gwetAc(
  ratings: readonly (readonly (string | number | null)[])[],
  categories: readonly (string | number)[],
  weights?: readonly (readonly number[])[],
  conflev = 0.95,
): GwetResult {
  const q = categories.length;
  const w = weights ?? categories.map((_, a) => categories.map((__, b) => (a === b ? 1 : 0)));
  const name = weights ? 'AC2' : 'AC1';
  const index = new Map(categories.map((c, k) => [String(c), k]));
  // Subjects nobody rated carry no information (irrCAC drops them before counting n).
  const counts = ratings
    .map((row) => {
      const c = new Array<number>(q).fill(0);
      for (const v of row) {
        if (v === null) continue;
        const k = index.get(String(v));
        if (k === undefined) throw new RangeError(`rating ${String(v)} is not one of the categories`);
        c[k]++;
      }
      return c;
    })
    .filter((c) => c.some((x) => x > 0));
  const n = counts.length;
  const none = (reason: GwetUndefinedReason): GwetResult => ({
    coefficient: null,
    name,
    pa: null,
    pe: null,
    se: null,
    ci: null,
    n,
    undefined_reason: reason,
  });
  if (q < 2) return none('fewer than 2 categories');
  const r = counts.map((c) => c.reduce((s, x) => s + x, 0));
  const weighted = counts.map((c) => c.map((_, k) => c.reduce((s, x, l) => s + w[k][l] * x, 0)));
  const sumQ = counts.map((c, i) => c.reduce((s, x, k) => s + x * (weighted[i][k] - 1), 0));
  const n2 = r.filter((x) => x >= 2).length;
  if (n2 < 2) return none('fewer than 2 subjects with 2 ratings');
  let pa = 0;
  for (let i = 0; i < n; i++) if (r[i] >= 2) pa += sumQ[i] / (r[i] * (r[i] - 1));
  pa /= n2;
  const pi = new Array<number>(q).fill(0);
  for (let i = 0; i < n; i++) for (let k = 0; k < q; k++) pi[k] += counts[i][k] / r[i] / n;
  const wSum = w.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0);
  const peScale = wSum / (q * (q - 1));
  const pe = peScale * pi.reduce((s, p) => s + p * (1 - p), 0);
  const ac = (pa - pe) / (1 - pe);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const paI = r[i] >= 2 ? sumQ[i] / (r[i] * (r[i] - 1)) : 0;
    const acI = ((n / n2) * (paI - (r[i] >= 2 ? pe : 0))) / (1 - pe);
    const peI = (peScale * counts[i].reduce((s, x, k) => s + x * (1 - pi[k]), 0)) / r[i];
    const x = acI - (2 * (1 - ac) * (peI - pe)) / (1 - pe);
    ss += (x - ac) ** 2;
  }
  const se = Math.sqrt(ss / (n * (n - 1)));
  if (!(se > 0))
    return { coefficient: ac, name, pa, pe, se: 0, ci: null, n, undefined_reason: 'zero variance' };
  const t = studentTUpperQuantile((1 - conflev) / 2, n - 1);
  return {
    coefficient: ac,
    name,
    pa,
    pe,
    se,
    ci: clipInterval([ac - t * se, ac + t * se], RANGE.agreement),
    n,
  };
}

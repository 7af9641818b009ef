// The statistics of repeated asks (pure): agreement of one question's repeats, the majority of the
// first k, and ICC(1) (one-way random effects, single rating; Shrout & Fleiss 1979, case 1),
// which psych::ICC reports as "ICC1" and checked against it in test/protocols/self-consistency/.
import type { CI } from '../../report/format';
import { fQuantile } from '../../stats/distributions';

/** How many times each verdict occurs (keys as given; numbers and strings kept apart). */
export function verdictCounts<T>(values: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

/** Share of the m(m − 1)/2 pairs of repeats that differ; null with fewer than two repeats. */
export function pairDisagreement<T>(values: readonly T[]): number | null {
  const m = values.length;
  if (m < 2) return null;
  let same = 0;
  for (const c of verdictCounts(values).values()) same += c * (c - 1);
  return 1 - same / (m * (m - 1));
}

/** Repeats giving the most frequent verdict. */
export function modalCount<T>(values: readonly T[]): number {
  return Math.max(0, ...verdictCounts(values).values());
}

/**
 * The plurality verdict of a list, or null when two verdicts tie for most (the tie rule: a tied
 * vote names no winner and counts as not correct).
 */
export function plurality<T>(values: readonly T[]): T | null {
  let best: T | null = null;
  let bestCount = 0;
  let tied = false;
  for (const [v, c] of verdictCounts(values)) {
    if (c > bestCount) {
      best = v;
      bestCount = c;
      tied = false;
    } else if (c === bestCount) tied = true;
  }
  return tied ? null : best;
}

/** The median of an odd number of scores (a score itself); null for an even count. */
export function oddMedian(values: readonly number[]): number | null {
  if (values.length % 2 === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[(s.length - 1) / 2];
}

/** Sample SD (n − 1); null below two values. */
export function sampleSd(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
}

export interface Icc1Result {
  icc: number | null;
  ci: CI | null;
  /** Why the ICC is undefined. */
  undefinedReason?: string;
}

/**
 * ICC(1) of `matrix[i][j]` = repeat j's score of question i (complete rows, k ≥ 2 each): the
 * repeats are not the same "raters" across questions, so the one-way model is the right one.
 * ICC(1) = (MSB − MSW) / (MSB + (k − 1) MSW); its 95% interval from F = MSB/MSW with (n − 1,
 * n(k − 1)) df, as psych::ICC computes it.
 */
export function icc1(matrix: readonly (readonly number[])[], alpha = 0.05): Icc1Result {
  const n = matrix.length;
  const k = n > 0 ? matrix[0].length : 0;
  if (n < 2 || k < 2) return { icc: null, ci: null, undefinedReason: 'fewer than 2 complete questions' };
  for (const [i, row] of matrix.entries())
    if (row.length !== k) throw new RangeError(`row ${i} has ${row.length} scores, expected ${k}`);
  const grand = matrix.reduce((s, r) => s + r.reduce((a, b) => a + b, 0), 0) / (n * k);
  let ssb = 0;
  let ssw = 0;
  for (const row of matrix) {
    const m = row.reduce((a, b) => a + b, 0) / k;
    ssb += k * (m - grand) ** 2;
    for (const v of row) ssw += (v - m) ** 2;
  }
  const msb = ssb / (n - 1);
  const msw = ssw / (n * (k - 1));
  if (msb + (k - 1) * msw === 0) return { icc: null, ci: null, undefinedReason: 'every score equal' };
  const icc = (msb - msw) / (msb + (k - 1) * msw);
  // No within-question variance: perfect agreement, and F is infinite (no interval).
  if (msw === 0) return { icc, ci: null, undefinedReason: 'no variation between repeats' };
  const f = msb / msw;
  const df1 = n - 1;
  const df2 = n * (k - 1);
  const fl = f / fQuantile(1 - alpha / 2, df1, df2);
  const fu = f * fQuantile(1 - alpha / 2, df2, df1);
  return { icc, ci: [(fl - 1) / (fl + k - 1), (fu - 1) / (fu + k - 1)] };
}

// Stratified sampling of units for annotation (DESIGN.md section 5d): strata are the judges'
// score terciles (a quality proxy: the mean of the judges' ratings on the numeric coding of
// shared/annotation/agreement.ts) crossed with the category; each stratum gets its proportional
// share of N (largest remainders), drawn by a shuffle seeded with the set's seed and the stratum.
// With `bandCounts` (the label budget's Neyman allocation, issue 36) each judge band takes its own
// count instead, shared among its categories by size; unjudged units then get none.
import { bandOf, numericValue, tercileCuts } from '../../shared/annotation/agreement';
import { seededRandom, shuffled } from '../../shared/annotation/random';
import type { AnnotationUnit, JudgeRating, RatingScale } from '../../shared/annotation/types';
import type { StratumCount } from './store';
import { JUDGE_BANDS, type JudgeBand } from '../../shared/stats';

export interface SampledUnit extends AnnotationUnit {
  stratum: string;
}

export function stratumOf(
  units: readonly AnnotationUnit[],
  ratings: readonly JudgeRating[],
  scale: RatingScale,
) {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of ratings) {
    const v = numericValue(scale, r.value);
    if (v === null) continue;
    const s = sums.get(r.itemKey) ?? { sum: 0, n: 0 };
    s.sum += v;
    s.n++;
    sums.set(r.itemKey, s);
  }
  const proxy = new Map([...sums].map(([k, s]) => [k, s.sum / s.n]));
  const cuts = proxy.size ? tercileCuts([...proxy.values()]) : null;
  return (u: AnnotationUnit): string => {
    const p = proxy.get(u.itemKey);
    const band = p === undefined || !cuts ? 'unjudged' : `judge-${bandOf(p, cuts)}`;
    return `${band} × ${u.category ?? '(none)'}`;
  };
}

export function stratifiedSample(
  units: readonly AnnotationUnit[],
  ratings: readonly JudgeRating[],
  scale: RatingScale,
  size: number,
  seed: number,
  bandCounts?: Readonly<Partial<Record<JudgeBand, number>>>,
): { units: SampledUnit[]; strata: StratumCount[] } {
  const band = stratumOf(units, ratings, scale);
  const stratum = (u: AnnotationUnit) => u.stratum ?? band(u);
  const groups = new Map<string, AnnotationUnit[]>();
  for (const u of units) {
    const s = stratum(u);
    groups.set(s, [...(groups.get(s) ?? []), u]);
  }
  const names = [...groups.keys()].sort();
  const quota = bandCounts
    ? names.map(() => 0)
    : largestRemainders(
        names.map((s) => groups.get(s)!.length),
        Math.min(size, units.length),
      );
  if (bandCounts)
    for (const band of JUDGE_BANDS) {
      const idx = names.map((s, i) => [s, i] as const).filter(([s]) => s.startsWith(`judge-${band} × `));
      const got = largestRemainders(
        idx.map(([s]) => groups.get(s)!.length),
        bandCounts[band] ?? 0,
      );
      idx.forEach(([, i], k) => (quota[i] = got[k]));
    }
  const chosen = new Set<string>();
  const strata: StratumCount[] = names.map((s, i) => {
    const members = groups.get(s)!;
    for (const u of shuffled(members, seededRandom(`${seed}\u0000${s}`)).slice(0, quota[i]))
      chosen.add(u.itemKey);
    return { stratum: s, available: members.length, sampled: quota[i] };
  });
  return {
    units: units.filter((u) => chosen.has(u.itemKey)).map((u) => ({ ...u, stratum: stratum(u) })),
    strata,
  };
}

/** `n` over groups of these sizes in proportion (largest remainders), none above its size. */
function largestRemainders(sizes: readonly number[], want: number): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  const n = Math.min(want, total);
  if (n === 0) return sizes.map(() => 0);
  const exact = sizes.map((g) => (n * g) / total);
  const quota = exact.map(Math.floor);
  let left = n - quota.reduce((a, b) => a + b, 0);
  const byRemainder = sizes
    .map((_, i) => i)
    .sort((a, b) => exact[b] - quota[b] - (exact[a] - quota[a]) || a - b);
  for (const i of byRemainder) {
    if (left === 0) break;
    if (quota[i] < sizes[i]) {
      quota[i]++;
      left--;
    }
  }
  return quota;
}

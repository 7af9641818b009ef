// The one rule every reported interval follows (DESIGN.md, "Multiplicity and intervals"): it lies
// within the range its parameter can take, and an interval that does not exist is null with the
// reason beside it — never NaN, never zero width (a zero-width interval claims a certainty no
// finite sample gives: every resample alike, every difference equal, a variance of 0).
import type { CI } from './intervals';

/** The ranges of the parameters the app reports intervals for. */
export const RANGE = {
  /** Rates and shares. */
  proportion: [0, 1],
  /** Cohen's κ, ICC, correlations. */
  agreement: [-1, 1],
  /** A difference of two rates. */
  rateDifference: [-1, 1],
} as const satisfies Record<string, readonly [number, number]>;

/** Why an interval does not exist, in the words tables show ("undefined (reason)"). */
export const NO_INTERVAL = {
  noValue: 'no items',
  sameResample: 'every resample gives the same value',
  oneDifference: 'one difference only',
  equalDifferences: 'every difference is equal, so the t interval has no width to estimate',
  oneItem: 'every difference comes from one item',
  equalItemMeans:
    "every item's differences average to the overall mean, so the item-clustered interval has no width to estimate",
} as const;

export type RuledInterval = { ci: CI; reason: null } | { ci: null; reason: string };

/** The interval clipped to `range` (a method whose bounds can pass the parameter's range). */
export function clipInterval(ci: CI, range: readonly [number, number]): CI {
  const [low, high] = range;
  return [Math.min(high, Math.max(low, ci[0])), Math.min(high, Math.max(low, ci[1]))];
}

/**
 * The rule applied: `ci` clipped to `range`; null with `none` when there is no interval (null or a
 * NaN bound), null with `zeroWidth` when its bounds coincide.
 */
export function ruleInterval(
  ci: CI | null | undefined,
  range: readonly [number, number],
  reasons: { none: string; zeroWidth: string },
): RuledInterval {
  if (!ci || !Number.isFinite(ci[0]) || !Number.isFinite(ci[1])) return { ci: null, reason: reasons.none };
  const clipped = clipInterval(ci, range);
  if (clipped[0] === clipped[1]) return { ci: null, reason: reasons.zeroWidth };
  return { ci: clipped, reason: null };
}

/**
 * A percentile bootstrap interval under the rule: bounded by construction (its ends are values the
 * statistic took), undefined when no resample had a value or every resample had the same one.
 */
export function ruledBootstrap(ci: CI | null | undefined, range: readonly [number, number]): RuledInterval {
  return ruleInterval(ci, range, { none: NO_INTERVAL.noValue, zeroWidth: NO_INTERVAL.sameResample });
}

/**
 * The rule's result as metrics fields: `{ [name]: ci }`, or `{ [name]: null,
 * [name_undefined_reason]: reason }` (the reason key present only then, so metrics that have an
 * interval keep their shape).
 */
export function intervalFields<N extends string>(
  name: N,
  r: RuledInterval,
): Record<N, CI | null> & Partial<Record<`${N}_undefined_reason`, string>> {
  return (r.ci ? { [name]: r.ci } : { [name]: null, [`${name}_undefined_reason`]: r.reason }) as Record<
    N,
    CI | null
  > &
    Partial<Record<`${N}_undefined_reason`, string>>;
}

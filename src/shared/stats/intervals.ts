import { checkZ } from './checks';

/** A confidence interval [lower, upper]. */
export type CI = [number, number];

/** The standard normal 0.975 quantile, scipy.stats.norm.ppf(0.975): two-sided 95% intervals. */
export const Z_95 = 1.959963984540054;

/** Arithmetic mean; throws on an empty list, since a rate over nothing has no value to report. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('mean of an empty list is undefined');
  let sum = 0;
  for (const [i, value] of values.entries()) {
    if (!Number.isFinite(value)) throw new RangeError(`values[${i}] must be a finite number, got ${value}`);
    sum += value;
  }
  return sum / values.length;
}

/** Wilson score interval for k successes in n trials; n = 0 gives [0, 1]. */
export function wilsonInterval(k: number, n: number, z: number = Z_95): CI {
  if (!(Number.isFinite(n) && n >= 0)) throw new RangeError(`n must be a non-negative number, got ${n}`);
  if (!(k >= 0 && k <= n)) throw new RangeError(`k must lie in [0, n], got k = ${k}, n = ${n}`);
  checkZ(z);
  if (n === 0) return [0, 1];
  const z2 = z * z;
  const denominator = n + z2;
  const center = (k + z2 / 2) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((k * (n - k)) / n + z2 / 4);
  const upper = center + halfWidth;
  // center^2 - halfWidth^2 = k^2 / (n (n + z^2)), so the lower bound follows from the upper one
  // without the cancellation of center - halfWidth (which matters for k << n).
  const lower = (k * k) / (n * denominator * upper);
  // At k = n the upper bound is exactly 1; rounding would otherwise leave it a hair below.
  return [Math.max(0, lower), k === n ? 1 : Math.min(1, upper)];
}

/** How the tie-half interval is named in captions, column help and exports. */
export const TIE_HALF_METHOD = 'Wilson score 95% CI on the tie-half mean, n = verdicts';

/**
 * Interval for the mean of scores in [0, 1] (tie-half accuracy: 1 correct, ½ tie, 0 wrong): the
 * Wilson score interval with k = the sum of the scores and n = their number. A variable on
 * [0, 1] with mean μ has variance at most μ(1 − μ) (Bhatia & Davis 2000, Amer Math Monthly
 * 107:353), the variance the Wilson interval inverts, so it is conservative for such a mean;
 * without ties it is the strict Wilson interval. Unlike the normal approximation it keeps a
 * width at 0% and 100% (8 of 8 correct: [67.6, 100], not [100, 100]). n = 0 gives [0, 1].
 */
export function boundedMeanWilsonInterval(scores: readonly number[], z: number = Z_95): CI {
  let sum = 0;
  for (const [i, v] of scores.entries()) {
    if (!(Number.isFinite(v) && v >= 0 && v <= 1))
      throw new RangeError(`scores[${i}] must lie in [0, 1], got ${v}`);
    sum += v;
  }
  // A sum of halves is exact in floating point, so k = n at 100% and the upper end is exactly 1.
  return wilsonInterval(Math.min(sum, scores.length), scores.length, z);
}

/**
 * Normal-approximation interval for the mean of values: mean +- z * s / sqrt(n) with the sample
 * standard deviation s (n - 1 denominator), clipped to bounds. n = 0 gives the whole of bounds
 * (default [0, 1]); n = 1 gives [mean, mean].
 */
export function meanNormalInterval(
  values: readonly number[],
  z: number = Z_95,
  bounds: [number, number] = [0, 1],
): CI {
  checkZ(z);
  const [low, high] = bounds;
  if (!(Number.isFinite(low) && Number.isFinite(high) && low <= high)) {
    throw new RangeError(`bounds must be finite with lower <= upper, got [${low}, ${high}]`);
  }
  const n = values.length;
  if (n === 0) return [low, high];
  const m = mean(values);
  if (n === 1) return [clip(m, low, high), clip(m, low, high)];
  // Two-pass variance: exact for the 0 / 0.5 / 1 scores the metrics feed in, and stable in general.
  let squares = 0;
  for (const value of values) squares += (value - m) ** 2;
  const standardError = Math.sqrt(squares / (n - 1) / n);
  return [clip(m - z * standardError, low, high), clip(m + z * standardError, low, high)];
}

function clip(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

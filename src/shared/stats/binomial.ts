import { checkCount, checkProbability } from './checks';

// Binomial probabilities follow Catherine Loader, "Fast and Accurate Computation of Binomial
// Probabilities" (2000): the mass is written as exp(-(deviance terms) + Stirling corrections), which
// keeps full relative precision for large n where naive log-gamma differences cancel badly.

const LN_2PI = Math.log(2 * Math.PI);
const LN_SQRT_2PI = 0.5 * LN_2PI;

/** Largest m whose stirlerr comes from the exact factorial; beyond it the asymptotic series is exact to ~1e-16. */
const EXACT_FACTORIAL_MAX = 15;

/** stirlerr(m) for m = 1..15 from m! held exactly in a double (15! < 2^53). Index 0 is unused. */
const SMALL_STIRLERR: readonly number[] = (() => {
  const table = [Number.NaN];
  let factorial = 1;
  for (let m = 1; m <= EXACT_FACTORIAL_MAX; m++) {
    factorial *= m;
    table.push(Math.log(factorial) - ((m + 0.5) * Math.log(m) - m + LN_SQRT_2PI));
  }
  return table;
})();

/** ln(m!) minus its Stirling approximation ln(sqrt(2 pi m) (m/e)^m), for integers m >= 1. */
function stirlerr(m: number): number {
  if (m <= EXACT_FACTORIAL_MAX) return SMALL_STIRLERR[m];
  const inv = 1 / m;
  const inv2 = inv * inv;
  // Stirling series with Bernoulli coefficients B_2j / (2j (2j - 1)); the first omitted term is
  // below 1.2e-16 at m = 16.
  return (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - inv2 / 1188) * inv2) * inv2) * inv2) * inv;
}

/** Deviance term x ln(x / mu) + mu - x (>= 0), without cancellation when x is close to mu. */
function bd0(x: number, mu: number): number {
  const diff = x - mu;
  if (Math.abs(diff) < 0.1 * (x + mu)) {
    // With v = (x - mu) / (x + mu): ln(x / mu) = 2 artanh(v), so the deviance is
    // diff * v + 2x (v^3/3 + v^5/5 + ...); |v| < 0.1 makes the series converge fast.
    const v = diff / (x + mu);
    const v2 = v * v;
    let sum = diff * v;
    let power = 2 * x * v;
    for (let j = 1; ; j++) {
      power *= v2;
      const next = sum + power / (2 * j + 1);
      if (next === sum) return sum;
      sum = next;
    }
  }
  return x * Math.log(x / mu) + mu - x;
}

/** Natural log of the binomial mass; -Infinity where the mass is exactly zero. Arguments are unchecked. */
function logPmf(k: number, n: number, p: number): number {
  if (k < 0 || k > n) return -Infinity;
  if (p === 0) return k === 0 ? 0 : -Infinity;
  if (p === 1) return k === n ? 0 : -Infinity;
  const q = 1 - p;
  // Take each log from whichever of p, q is held exactly (1 - p is exact when p >= 0.5).
  if (k === 0) return n * (p < 0.5 ? Math.log1p(-p) : Math.log(q));
  if (k === n) return n * (p < 0.5 ? Math.log(p) : Math.log1p(-q));
  const lc = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, n * p) - bd0(n - k, n * q);
  // ln(2 pi k (n - k) / n)
  const lf = LN_2PI + Math.log(k) + Math.log1p(-k / n);
  return lc - 0.5 * lf;
}

function checkTrials(k: number, n: number): void {
  checkCount('n', n);
  checkCount('k', k);
  if (k > n) throw new RangeError(`k must not exceed n, got k = ${k}, n = ${n}`);
}

/** Binomial probability mass P(X = k) for X ~ Bin(n, p); 0 for integers k outside [0, n]. */
export function binomialPmf(k: number, n: number, p: number): number {
  checkCount('n', n);
  if (!Number.isSafeInteger(k)) throw new RangeError(`k must be an integer, got ${k}`);
  checkProbability('p', p);
  return Math.exp(logPmf(k, n, p));
}

/**
 * Sum of pmf(x) for x = from, from + step, ... up to limit, where the terms decrease (a tail walked
 * away from the mode). Stops once the rest cannot matter: the pmf is log-concave, so with the current
 * ratio r of consecutive terms everything left is at most term * r / (1 - r).
 */
function tailSum(n: number, p: number, from: number, step: 1 | -1, limit: number): number {
  let sum = 0;
  let compensation = 0; // Neumaier summation
  let previous = 0;
  for (let x = from; step > 0 ? x <= limit : x >= limit; x += step) {
    const term = Math.exp(logPmf(x, n, p));
    const total = sum + term;
    compensation += Math.abs(sum) >= term ? sum - total + term : term - total + sum;
    sum = total;
    if (term === 0) break;
    if (x !== from) {
      const ratio = term / previous;
      if (ratio < 1 && (term * ratio) / (1 - ratio) <= (sum + compensation) * 2 ** -60) break;
    }
    previous = term;
  }
  return sum + compensation;
}

/** Smallest x in [lo, hi] with pred(x) true, for pred monotone false...true on that range; hi + 1 if none. */
function firstTrue(lo: number, hi: number, pred: (x: number) => boolean): number {
  let left = lo;
  let right = hi + 1;
  while (left < right) {
    const mid = left + Math.floor((right - left) / 2);
    if (pred(mid)) right = mid;
    else left = mid + 1;
  }
  return left;
}

/**
 * SciPy's relative tolerance when deciding that an outcome is "not more likely" than the observed one,
 * so that outcomes tied in exact arithmetic still count despite rounding.
 */
const TIE_TOLERANCE = 1 + 1e-7;

/**
 * Exact two-sided binomial test: the summed probability of all outcomes not more likely than k (within
 * SciPy's relative tolerance 1 + 1e-7), as scipy.stats.binomtest(k, n, p).pvalue; 1 when n = 0.
 */
export function binomialTestTwoSided(k: number, n: number, p = 0.5): number {
  checkTrials(k, n);
  checkProbability('p', p);
  if (n === 0) return 1;
  // Floating-point p * n on purpose: the side of the mode is decided exactly as SciPy decides it.
  const expected = p * n;
  if (k === expected) return 1;
  const threshold = Math.exp(logPmf(k, n, p)) * TIE_TOLERANCE;
  const notMoreLikely = (x: number): boolean => Math.exp(logPmf(x, n, p)) <= threshold;
  let pValue: number;
  if (k < expected) {
    // The mass falls from ceil(expected) upwards; that side contributes from its first small-enough outcome.
    const start = firstTrue(Math.ceil(expected), n, notMoreLikely);
    pValue = tailSum(n, p, k, -1, 0) + (start <= n ? tailSum(n, p, start, 1, n) : 0);
  } else {
    // The mass rises up to floor(expected); that side contributes up to its last small-enough outcome.
    const end = firstTrue(0, Math.floor(expected), (x) => !notMoreLikely(x)) - 1;
    pValue = (end >= 0 ? tailSum(n, p, end, -1, 0) : 0) + tailSum(n, p, k, 1, n);
  }
  return Math.min(1, pValue);
}

/** Exact McNemar test: two-sided binomial test of b of the b + c discordant pairs at p = 0.5; 1 when b = c = 0. */
export function mcnemarExact(b: number, c: number): number {
  checkCount('b', b);
  checkCount('c', c);
  return binomialTestTwoSided(b, b + c, 0.5);
}

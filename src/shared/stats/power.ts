// Power and sample size for the tests the protocols run (issue 24, DESIGN.md "Paper kit"): how
// many items a question needs, and the smallest effect the chosen items can detect, at the
// planned α and power. Every model here is the power of the test the metrics actually report:
//
// - exact McNemar (binomialTestTwoSided on the discordant pairs at p = 0.5): unconditional power,
//   summing the conditional exact power over the Bin(n, ψ) number of discordant pairs
//   (Suissa & Shuster 1991; Lachin 1992), ψ the discordant share;
// - exact one-sample binomial test of a rate against a reference rate p0 (same test as above);
// - paired t: the noncentral t (Lenth 1989, AS 243), as statsmodels' TTestPower; the Wilcoxon
//   signed-rank test through its asymptotic relative efficiency 3/π against the t under normal
//   differences (Noether 1987; Lehmann 1975): n_Wilcoxon = n_t · π / 3;
// - Fisher-z interval of a correlation excluding a threshold ρ0: the two-sided normal test of
//   atanh ρ with standard error 1/√(n − 3), as statsmodels' NormalIndPower with ratio 0.
//
// The tests (test/stats/power.test.ts) compare every figure with test/fixtures/stats/power.json,
// written by scripts/gen-power-fixtures.py from statsmodels.stats.power and scipy.stats.
import { binomialPmf, binomialTestTwoSided } from './binomial';
import { normalQuantile } from './distributions';
import { incompleteBeta, logGamma, normalSf, studentTUpperQuantile } from './special';

/** The planning defaults of the issue: 80% power at two-sided α = 0.05. */
export const DEFAULT_POWER = 0.8;
export const DEFAULT_ALPHA = 0.05;
/** The largest sample the inverse searches tell about; beyond it they answer null. */
export const MAX_PLANNED_N = 1_000_000;

/** The Wilcoxon signed-rank test's efficiency against the t test under normal differences. */
export const WILCOXON_ARE = 3 / Math.PI;

const normalCdf = (z: number) => normalSf(-z);

/** P(X ≤ k) for X ~ Bin(n, p), through the incomplete beta. */
function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  return incompleteBeta(1 - p, n - k, k + 1);
}

/**
 * CDF of the noncentral t with df degrees of freedom (real) and noncentrality δ: Lenth's
 * algorithm AS 243 (Applied Statistics 38, 1989), a Poisson-weighted series of incomplete betas.
 */
export function noncentralTCdf(t: number, df: number, delta: number): number {
  if (!(df > 0)) throw new RangeError(`df must be positive, got ${df}`);
  if (t < 0) return 1 - noncentralTCdf(-t, df, -delta);
  // The series' weights start at e^{-δ²/2}: far out the mass sits wholly on one side of t.
  if (delta > 37) return t >= delta * 10 ? 1 : 0;
  const x = (t * t) / (t * t + df);
  let tnc = 0;
  if (x > 0) {
    const lambda = delta * delta;
    let p = 0.5 * Math.exp(-0.5 * lambda);
    let q = Math.sqrt(2 / Math.PI) * p * delta;
    let s = 0.5 - p;
    let a = 0.5;
    const b = 0.5 * df;
    const rxb = Math.pow(1 - x, b);
    const lnBeta = logGamma(a) + logGamma(b) - logGamma(a + b);
    let xodd = incompleteBeta(x, a, b);
    let godd = 2 * rxb * Math.exp(a * Math.log(x) - lnBeta);
    let xeven = 1 - rxb;
    let geven = b * x * rxb;
    tnc = p * xodd + q * xeven;
    for (let en = 1; en <= 10_000; en++) {
      a += 1;
      xodd -= godd;
      xeven -= geven;
      godd *= (x * (a + b - 1)) / a;
      geven *= (x * (a + b - 0.5)) / (a + 0.5);
      p *= lambda / (2 * en);
      q *= lambda / (2 * en + 1);
      s -= p;
      tnc += p * xodd + q * xeven;
      if (Math.abs(2 * s * (xodd - godd)) <= 1e-15 && en > 1) break;
    }
  }
  return Math.min(1, Math.max(0, tnc + normalCdf(-delta)));
}

/**
 * Smallest x in [lo, hi] (reals) with f(x) ≥ target, for f increasing there; null when f(hi) < target.
 * Brent's method (zeroin: inverse quadratic and secant steps, bisection when they do not shrink
 * the bracket): the powers solved for are smooth, so it closes in ~10 evaluations where halving
 * took 40, to the same tolerance. An exact McNemar power is a sum over every count of discordant
 * pairs, and this search was most of the estimate's power plan.
 */
export function solveIncreasing(
  f: (x: number) => number,
  target: number,
  lo: number,
  hi: number,
): number | null {
  const g = (x: number) => f(x) - target;
  let fb = g(hi);
  if (fb < 0) return null;
  let fa = g(lo);
  if (fa >= 0) return lo;
  const tol = 1e-12 * Math.max(1, hi);
  let [a, b] = [lo, hi];
  let [c, fc] = [a, fa];
  let d = b - a;
  let e = d;
  for (let i = 0; i < 400; i++) {
    if (Math.sign(fb) === Math.sign(fc) && fb !== 0) {
      [c, fc] = [a, fa];
      d = e = b - a;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      [a, fa] = [b, fb];
      [b, fb] = [c, fc];
      [c, fc] = [a, fa];
    }
    const tol1 = 2 * Number.EPSILON * Math.abs(b) + 0.5 * tol;
    const xm = 0.5 * (c - b);
    if (Math.abs(xm) <= tol1 || fb === 0) break;
    if (Math.abs(e) >= tol1 && Math.abs(fa) > Math.abs(fb)) {
      let p: number;
      let q: number;
      const s = fb / fa;
      if (a === c) {
        p = 2 * xm * s;
        q = 1 - s;
      } else {
        const qq = fa / fc;
        const r = fb / fc;
        p = s * (2 * xm * qq * (qq - r) - (b - a) * (r - 1));
        q = (qq - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * xm * q - Math.abs(tol1 * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else d = e = xm;
    } else d = e = xm;
    [a, fa] = [b, fb];
    b += Math.abs(d) > tol1 ? d : xm > 0 ? tol1 : -tol1;
    fb = g(b);
  }
  // The root lies between b and c: the end where f reaches the target.
  return fb >= 0 ? b : c;
}

/**
 * The first n at which a sawtooth power reaches its target: a scan up from a start below the
 * normal approximation's n (halved until the power there falls short), so the answer is the
 * first crossing, not just some n that reaches it.
 */
function firstReaching(reaches: (n: number) => boolean, approx: number): number | null {
  let start = Math.max(1, Math.floor(approx / 2));
  while (start > 1 && reaches(start)) start = Math.max(1, Math.floor(start / 2));
  const end = Math.min(MAX_PLANNED_N, Math.ceil(4 * approx) + 100);
  if (approx > EXACT_SCAN_LIMIT) {
    // Past a few thousand the saw's teeth are far below a point of power: bisect for the crossing.
    if (!reaches(end)) return null;
    let lo = start;
    let hi = end;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (reaches(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  for (let n = start; n <= end; n++) if (reaches(n)) return n;
  return null;
}

/** Up to this many units the inverse scans every n; beyond, it bisects (see firstReaching). */
export const EXACT_SCAN_LIMIT = 5000;

// ---- paired t and Wilcoxon ---------------------------------------------------------------

/**
 * Power of the two-sided one-sample (paired) t test with n pairs (real n ≥ 2 allowed, as
 * statsmodels) for the standardized effect dz = mean difference / SD of the differences.
 */
export function pairedTPower(dz: number, n: number, alpha = DEFAULT_ALPHA): number {
  if (!(n >= 2)) throw new RangeError(`n must be at least 2, got ${n}`);
  const df = n - 1;
  const crit = studentTUpperQuantile(alpha / 2, df);
  const nc = dz * Math.sqrt(n);
  return 1 - noncentralTCdf(crit, df, nc) + noncentralTCdf(-crit, df, nc);
}

/** The smallest |dz| the paired t detects with n pairs at the given power; null below 2 pairs. */
export function pairedTMde(n: number, alpha = DEFAULT_ALPHA, power = DEFAULT_POWER): number | null {
  if (!(n >= 2)) return null;
  return solveIncreasing((d) => pairedTPower(d, n, alpha), power, 0, 50);
}

/** Pairs the paired t needs for |dz| (real, as statsmodels' solve_power; round up to plan). */
export function pairedTSampleSize(dz: number, alpha = DEFAULT_ALPHA, power = DEFAULT_POWER): number | null {
  if (!(Math.abs(dz) > 0)) return null;
  return solveIncreasing((n) => pairedTPower(Math.abs(dz), n, alpha), power, 2, MAX_PLANNED_N);
}

/** Wilcoxon signed-rank: the t's figure at the ARE-equivalent number of pairs n · 3/π. */
export function wilcoxonMde(n: number, alpha = DEFAULT_ALPHA, power = DEFAULT_POWER): number | null {
  return pairedTMde(n * WILCOXON_ARE, alpha, power);
}

export function wilcoxonSampleSize(dz: number, alpha = DEFAULT_ALPHA, power = DEFAULT_POWER): number | null {
  const nt = pairedTSampleSize(dz, alpha, power);
  return nt === null ? null : nt / WILCOXON_ARE;
}

// ---- exact binomial and McNemar ----------------------------------------------------------

/**
 * The rejection region of the exact two-sided binomial test of k successes in n at p0, level α:
 * reject when k ≤ lower or k ≥ upper (lower = −1 / upper = n + 1 when a side rejects nothing).
 * The p-value falls monotonically away from the mode on each side, so each boundary is a search.
 */
export function binomialRejectionRegion(
  n: number,
  p0: number,
  alpha = DEFAULT_ALPHA,
): { lower: number; upper: number } {
  const rejects = (k: number) => binomialTestTwoSided(k, n, p0) <= alpha;
  const mode = Math.floor(n * p0);
  // lower: the largest k ≤ mode rejected (the rejected ones form 0..lower).
  let lower = -1;
  {
    let lo = 0;
    let hi = mode;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (rejects(mid)) {
        lower = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
  }
  let upper = n + 1;
  {
    let lo = Math.ceil(n * p0);
    let hi = n;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (rejects(mid)) {
        upper = mid;
        hi = mid - 1;
      } else lo = mid + 1;
    }
  }
  return { lower, upper };
}

/** Power of the exact two-sided binomial test of n trials against p0 when the true rate is p1. */
export function exactBinomialPower(n: number, p0: number, p1: number, alpha = DEFAULT_ALPHA): number {
  const { lower, upper } = binomialRejectionRegion(n, p0, alpha);
  return binomialCdf(lower, n, p1) + (upper <= n ? 1 - binomialCdf(upper - 1, n, p1) : 0);
}

/**
 * The smallest rate above p0 (direction 'up') or below it ('down') that the exact test detects
 * with n trials at the given power; null when no rate in (p0, 1] (or [0, p0)) reaches it.
 */
export function exactBinomialMde(
  n: number,
  p0: number,
  direction: 'up' | 'down' = 'up',
  alpha = DEFAULT_ALPHA,
  power = DEFAULT_POWER,
): number | null {
  const { lower, upper } = binomialRejectionRegion(n, p0, alpha);
  const pw = (p1: number) => binomialCdf(lower, n, p1) + (upper <= n ? 1 - binomialCdf(upper - 1, n, p1) : 0);
  if (direction === 'up') {
    const span = solveIncreasing((d) => pw(p0 + d), power, 0, 1 - p0);
    return span === null ? null : p0 + span;
  }
  const span = solveIncreasing((d) => pw(p0 - d), power, 0, p0);
  return span === null ? null : p0 - span;
}

/**
 * The exact McNemar test's rejection boundaries for every number of discordant pairs d ≤ n:
 * reject when the smaller cell is ≤ lower[d] (the region is symmetric at p = 0.5). Kept per n, so
 * a search over effects reuses it.
 */
export class McNemarRegions {
  private readonly lower: number[] = [-1];
  constructor(readonly alpha = DEFAULT_ALPHA) {}

  /** The largest smaller-cell count rejected with d discordant pairs (−1: none). */
  boundary(d: number): number {
    // The boundary never falls as d grows: extend from the last one.
    while (this.lower.length <= d) {
      const m = this.lower.length;
      let k = this.lower[m - 1];
      while (k + 1 <= m / 2 && this.rejects(k + 1, m)) k++;
      this.lower.push(k);
    }
    return this.lower[d];
  }

  /**
   * The two-sided test's decision at p = ½ for k < m/2, where by symmetry its p-value is
   * 2·P(X ≤ k): one incomplete beta instead of summing both tails term by term (the regions
   * up to a few thousand pairs took most of a power plan). Within a hair of α the decision is
   * the test's own, so the regions are the test's exactly.
   */
  private rejects(k: number, m: number): boolean {
    const p = 2 * binomialCdf(k, m, 0.5);
    if (Math.abs(p - this.alpha) > 1e-9 * this.alpha) return p <= this.alpha;
    return binomialTestTwoSided(k, m, 0.5) <= this.alpha;
  }
}

/**
 * The regions at a level, kept for the process: they depend on α alone, and each search (the
 * MDE, the sample size, every row of a power plan, every estimate) extended its own from d = 0,
 * a binomial test per count of discordant pairs. A few levels (α is typed in the wizard).
 */
const regionsAt = new Map<number, McNemarRegions>();
function mcnemarRegions(alpha: number): McNemarRegions {
  let r = regionsAt.get(alpha);
  if (!r) {
    regionsAt.set(alpha, (r = new McNemarRegions(alpha)));
    if (regionsAt.size > 4) regionsAt.delete(regionsAt.keys().next().value!);
  }
  return r;
}

/**
 * Unconditional power of the exact McNemar test with n pairs, discordant share ψ = p10 + p01 and
 * difference δ = p10 − p01 (|δ| ≤ ψ): Σ_d Bin(d; n, ψ) · P(reject | d), with the conditional
 * power over Bin(d, p10/ψ). Terms of Bin(n, ψ) below 1e-17 are skipped.
 */
export function mcnemarExactPower(
  n: number,
  psi: number,
  delta: number,
  alpha = DEFAULT_ALPHA,
  regions = mcnemarRegions(alpha),
  rejecting = conditionalPower(psi, delta, regions),
): number {
  const mean = n * psi;
  const sd = Math.sqrt(n * psi * (1 - psi));
  const from = Math.max(0, Math.floor(mean - 12 * sd - 10));
  const to = Math.min(n, Math.ceil(mean + 12 * sd + 10));
  let power = 0;
  for (let d = from; d <= to; d++) {
    const w = binomialPmf(d, n, psi);
    if (w < 1e-17) continue;
    const r = rejecting(d);
    if (r !== null) power += w * r;
  }
  return Math.min(1, power);
}

/**
 * P(reject | d discordant pairs) for (ψ, δ), null when d pairs can never reject; remembered per
 * d, since it does not depend on n: the inverse's scan over n (hundreds of n) computed each d's
 * two incomplete betas again for every n.
 */
function conditionalPower(psi: number, delta: number, regions: McNemarRegions): (d: number) => number | null {
  if (!(psi > 0 && psi <= 1)) throw new RangeError(`psi must lie in (0, 1], got ${psi}`);
  if (!(Math.abs(delta) <= psi + 1e-15)) throw new RangeError(`|delta| must not exceed psi, got ${delta}`);
  const pi = Math.min(1, Math.max(0, (psi + delta) / (2 * psi)));
  const known: (number | null)[] = [];
  return (d) => {
    let r = known[d];
    if (r === undefined) {
      const k = regions.boundary(d);
      // Reject when X ≤ k or X ≥ d − k, X ~ Bin(d, π); the two tails are disjoint since k < d/2.
      known[d] = r = k < 0 ? null : binomialCdf(k, d, pi) + 1 - binomialCdf(d - k - 1, d, pi);
    }
    return r;
  };
}

/** The smallest |p10 − p01| the exact McNemar test detects with n pairs and discordant share ψ; null when even |δ| = ψ falls short. */
export function mcnemarExactMde(
  n: number,
  psi: number,
  alpha = DEFAULT_ALPHA,
  power = DEFAULT_POWER,
): number | null {
  const regions = mcnemarRegions(alpha);
  return solveIncreasing((d) => mcnemarExactPower(n, psi, d, alpha, regions), power, 0, psi);
}

/**
 * The smallest n whose exact McNemar power reaches the target for (ψ, δ). Exact power is a
 * sawtooth in n; this is the first n that reaches it, found by a scan up from half the normal
 * approximation's n (Connor 1987), which lies below it. Null beyond MAX_PLANNED_N.
 */
export function mcnemarExactSampleSize(
  psi: number,
  delta: number,
  alpha = DEFAULT_ALPHA,
  power = DEFAULT_POWER,
): number | null {
  if (!(Math.abs(delta) > 0)) return null;
  const approx = mcnemarNormalSampleSize(psi, delta, alpha, power);
  if (approx > MAX_PLANNED_N) return null;
  const regions = mcnemarRegions(alpha);
  const rejecting = conditionalPower(psi, delta, regions);
  return firstReaching((n) => mcnemarExactPower(n, psi, delta, alpha, regions, rejecting) >= power, approx);
}

/** Connor's (1987) normal approximation of McNemar's sample size (real; only a search's start). */
export function mcnemarNormalSampleSize(
  psi: number,
  delta: number,
  alpha = DEFAULT_ALPHA,
  power = DEFAULT_POWER,
): number {
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  const d = Math.abs(delta);
  return Math.pow(za * Math.sqrt(psi) + zb * Math.sqrt(psi - d * d), 2) / (d * d);
}

/** The smallest n whose exact binomial power against p0 reaches the target at rate p1 (first n, scanned). */
export function exactBinomialSampleSize(
  p0: number,
  p1: number,
  alpha = DEFAULT_ALPHA,
  power = DEFAULT_POWER,
): number | null {
  if (p0 === p1) return null;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  const approx =
    Math.pow(za * Math.sqrt(p0 * (1 - p0)) + zb * Math.sqrt(p1 * (1 - p1)), 2) / Math.pow(p1 - p0, 2);
  if (approx > MAX_PLANNED_N) return null;
  return firstReaching((n) => exactBinomialPower(n, p0, p1, alpha) >= power, approx);
}

// ---- Fisher-z interval of a correlation --------------------------------------------------

/**
 * Power of the two-sided test that the Fisher-z interval of ρ excludes ρ0, with n items, at true
 * ρ1. `spearman`: atanh ρ̂'s variance is (1 + ρ1²/2)/(n − 3) (Bonett & Wright 2000), the bivariate
 * normal's; without it, Pearson's 1/(n − 3) (statsmodels' NormalIndPower). The agreement's interval
 * measures the spread with a jackknife instead (spearmanInterval): on bivariate-normal-like ratings
 * the two agree, on agree-or-random 1–5 ratings ρ varies up to about twice as much at high ρ, so a
 * plan made before any rating is optimistic there (docs/VALIDATION.md, e2e-human-agreement-power).
 */
export function fisherZPower(
  rho1: number,
  rho0: number,
  n: number,
  alpha = DEFAULT_ALPHA,
  spearman = false,
): number {
  if (!(n > 3)) throw new RangeError(`n must exceed 3, got ${n}`);
  const factor = spearman ? 1 + (rho1 * rho1) / 2 : 1;
  const es = (Math.abs(Math.atanh(rho1) - Math.atanh(rho0)) * Math.sqrt(n - 3)) / Math.sqrt(factor);
  const za = normalQuantile(1 - alpha / 2);
  return normalCdf(es - za) + normalCdf(-es - za);
}

/** Items needed for the Fisher-z interval of ρ to exclude ρ0 when the true value is ρ1 (real; round up). */
export function fisherZSampleSize(
  rho1: number,
  rho0: number,
  alpha = DEFAULT_ALPHA,
  power = DEFAULT_POWER,
  spearman = false,
): number | null {
  if (!(Math.abs(rho1) < 1 && Math.abs(rho0) < 1) || rho1 === rho0) return null;
  return solveIncreasing((n) => fisherZPower(rho1, rho0, n, alpha, spearman), power, 3 + 1e-9, MAX_PLANNED_N);
}

/** The ρ1 nearest ρ0 on the given side whose interval excludes ρ0 with n items at the given power. */
export function fisherZMde(
  n: number,
  rho0: number,
  direction: 'up' | 'down' = 'up',
  alpha = DEFAULT_ALPHA,
  power = DEFAULT_POWER,
  spearman = false,
): number | null {
  if (!(n > 3)) return null;
  const z0 = Math.atanh(rho0);
  const dz = solveIncreasing((d) => fisherZPower(Math.tanh(z0 + d), rho0, n, alpha, spearman), power, 0, 20);
  if (dz === null) return null;
  return Math.tanh(direction === 'up' ? z0 + dz : z0 - dz);
}

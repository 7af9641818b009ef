// A trend of a binary outcome over a continuous dose, on clustered data (issue 37: flips against
// English over the measured mixing ratio, each item judged at every ratio).
//
// The slope of a linear probability model (ordinary least squares of y ∈ {0, 1} on x), so it reads
// as "the rate rises by slope · 100 points from x = 0 to x = 1". Its test is Cochran–Armitage's
// idea (the score test of a linear trend in proportions is the OLS slope's test) with the variance
// fixed for the design: an item is judged at every ratio and in two orders against one English
// verdict, so its outcomes are correlated and Cochran–Armitage's binomial variance is wrong. The
// variance here is the cluster-robust sandwich (Liang & Zeger 1986) over items with the CR1
// small-sample factor G/(G − 1) · (N − 1)/(N − 2), and the test and interval use Student's t with
// G − 1 degrees of freedom — statsmodels' OLS `cov_type='cluster'` with `use_t=True`, which
// test/fixtures/stats/trend.json checks. The item-clustered percentile bootstrap of the same slope is
// the alternative interval (`clusteredSlopeBootstrap`).
import { clusterBootstrap, type BootstrapOptions } from './bootstrap';
import type { CI } from './intervals';
import { studentTTwoSidedP, studentTUpperQuantile } from './special';

/** One outcome: its cluster (item), dose x and 0/1 outcome y. */
export interface TrendObservation {
  cluster: string;
  x: number;
  y: number;
}

export interface LinearTrend {
  n: number;
  clusters: number;
  /** null with `slope_undefined_reason` when x does not vary. */
  slope: number | null;
  intercept: number | null;
  se: number | null;
  /** Cluster-robust t interval (G − 1 df); null with the reason when it does not exist. */
  ci: CI | null;
  p: number | null;
  /** Why slope (and so everything after it) is null. */
  slope_undefined_reason?: string;
  /** Why the interval and p are null while the slope exists. */
  test_undefined_reason?: string;
}

export const TREND_REASONS = {
  noPairs: 'no observations',
  noSpread: 'the measured ratios do not vary',
  oneCluster: 'one item only: a cluster-robust variance needs two',
  zeroSe: 'standard error 0 (every outcome lies on the fitted line, e.g. no flip at any ratio)',
} as const;

/** Per-cluster sums: all the OLS fit and its sandwich need. */
interface ClusterSums {
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  sxy: number;
}

function clusterSums(obs: readonly TrendObservation[]): ClusterSums[] {
  const by = new Map<string, ClusterSums>();
  for (const o of obs) {
    let c = by.get(o.cluster);
    if (!c) by.set(o.cluster, (c = { n: 0, sx: 0, sy: 0, sxx: 0, sxy: 0 }));
    c.n++;
    c.sx += o.x;
    c.sy += o.y;
    c.sxx += o.x * o.x;
    c.sxy += o.x * o.y;
  }
  return [...by.values()];
}

/** OLS of y on x from summed columns: [intercept, slope], or null when x does not vary. */
function fit(n: number, sx: number, sy: number, sxx: number, sxy: number): [number, number] | null {
  const det = n * sxx - sx * sx;
  // Relative to the scale of x: a spread this small is rounding, not variation.
  if (n === 0 || det <= 1e-12 * Math.max(1, n * sxx)) return null;
  const slope = (n * sxy - sx * sy) / det;
  return [(sy - slope * sx) / n, slope];
}

/** The linear trend of y over x with item-clustered (CR1) standard errors and a t test on G − 1 df. */
export function clusteredLinearTrend(obs: readonly TrendObservation[], level = 0.95): LinearTrend {
  const groups = new Map<string, TrendObservation[]>();
  for (const o of obs) {
    const g = groups.get(o.cluster);
    if (g) g.push(o);
    else groups.set(o.cluster, [o]);
  }
  const n = obs.length;
  const G = groups.size;
  const none = (reason: string): LinearTrend => ({
    n,
    clusters: G,
    slope: null,
    intercept: null,
    se: null,
    ci: null,
    p: null,
    slope_undefined_reason: reason,
  });
  if (n === 0) return none(TREND_REASONS.noPairs);
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (const o of obs) {
    sx += o.x;
    sy += o.y;
    sxx += o.x * o.x;
    sxy += o.x * o.y;
  }
  const b = fit(n, sx, sy, sxx, sxy);
  if (!b) return none(TREND_REASONS.noSpread);
  const [intercept, slope] = b;
  const base = { n, clusters: G, slope, intercept };
  if (G < 2) return { ...base, se: null, ci: null, p: null, test_undefined_reason: TREND_REASONS.oneCluster };
  // Bread (X'X)^-1 and meat Σ_g (X_g' e_g)(X_g' e_g)'.
  const det = n * sxx - sx * sx;
  const inv = [sxx / det, -sx / det, n / det]; // [a, b; b, c] symmetric
  let m00 = 0;
  let m01 = 0;
  let m11 = 0;
  for (const g of groups.values()) {
    let s0 = 0;
    let s1 = 0;
    for (const o of g) {
      const e = o.y - intercept - slope * o.x;
      s0 += e;
      s1 += e * o.x;
    }
    m00 += s0 * s0;
    m01 += s0 * s1;
    m11 += s1 * s1;
  }
  // Var(slope) = row 2 of bread · meat · bread column 2.
  const r0 = inv[1];
  const r1 = inv[2];
  const v = r0 * r0 * m00 + 2 * r0 * r1 * m01 + r1 * r1 * m11;
  const factor = (G / (G - 1)) * ((n - 1) / (n - 2));
  const se = n > 2 ? Math.sqrt(Math.max(0, v * factor)) : 0;
  if (!(se > 1e-12))
    return { ...base, se: 0, ci: null, p: null, test_undefined_reason: TREND_REASONS.zeroSe };
  const df = G - 1;
  const t = studentTUpperQuantile((1 - level) / 2, df);
  return {
    ...base,
    se,
    ci: [slope - t * se, slope + t * se],
    p: Math.min(1, studentTTwoSidedP(slope / se, df)),
  };
}

/**
 * Item-clustered percentile bootstrap of the same slope (whole items resampled, with every
 * outcome they hold): the stats/bootstrap.ts generator and quantile rule. A replicate whose x
 * does not vary has no slope and is left out.
 */
export function clusteredSlopeBootstrap(obs: readonly TrendObservation[], opts: BootstrapOptions = {}): CI {
  const sums = clusterSums(obs);
  const col = (f: (c: ClusterSums) => number) => Float64Array.from(sums, f);
  const [cn, cx, cy, cxx, cxy] = [
    col((c) => c.n),
    col((c) => c.sx),
    col((c) => c.sy),
    col((c) => c.sxx),
    col((c) => c.sxy),
  ];
  return clusterBootstrap(
    sums.length,
    (idx) => {
      let n = 0;
      let sx = 0;
      let sy = 0;
      let sxx = 0;
      let sxy = 0;
      for (let i = 0; i < idx.length; i++) {
        const k = idx[i];
        n += cn[k];
        sx += cx[k];
        sy += cy[k];
        sxx += cxx[k];
        sxy += cxy[k];
      }
      return fit(n, sx, sy, sxx, sxy)?.[1] ?? Number.NaN;
    },
    opts,
  );
}

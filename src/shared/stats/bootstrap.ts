// Item-clustered bootstrap (DESIGN.md section 5): the verdicts of one item (its two answer
// orders, its languages) are not independent, so intervals resample whole items. Seeded and
// deterministic; the generator and the quantile rule are simple enough that
// scripts/gen-bootstrap-holm-fixtures.py re-implements them to check our numbers with numpy.
import type { CI } from './intervals';
import { checkCount } from './checks';
import { mulberry32 } from '../random';

/** Replicates when a config does not say (DESIGN.md section 5). */
export const DEFAULT_BOOTSTRAP_B = 2000;
/** Seed when the experiment has none: results must not change from one look to the next. */
export const DEFAULT_BOOTSTRAP_SEED = 1;

/** numpy.percentile's default ("linear", Hyndman–Fan type 7) of sorted values, q in [0, 1]. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('quantile of an empty list is undefined');
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * The drawn indices of every replicate (replicate after replicate), kept for the last few
 * (n, B, seed): a metrics table asks for many intervals over the same items, and drawing is
 * most of the work (2000 × 419 draws per interval on LLMBar).
 */
const drawn = new Map<string, Uint32Array>();
const DRAWN_KEPT = 8;

function resamples(n: number, B: number, seed: number): Uint32Array {
  const key = `${n}:${B}:${seed}`;
  const hit = drawn.get(key);
  if (hit) return hit;
  const random = mulberry32(seed);
  const all = new Uint32Array(n * B);
  for (let i = 0; i < all.length; i++) all[i] = Math.floor(random() * n);
  if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
  drawn.set(key, all);
  return all;
}

export interface BootstrapOptions {
  /** Replicates (default 2000). */
  B?: number;
  seed?: number;
  /** Coverage of the two-sided percentile interval (default 0.95). */
  level?: number;
}

/**
 * Percentile bootstrap over clusters: each replicate draws `n` cluster indices with replacement
 * (index = floor(u · n), u from mulberry32(seed), replicate after replicate) and evaluates
 * `statistic` on them; replicates where it is NaN (no observation drawn) are left out.
 * Returns [NaN, NaN] when no replicate has a value.
 */
export function clusterBootstrap(
  n: number,
  statistic: (indices: Uint32Array) => number,
  opts: BootstrapOptions = {},
): CI {
  checkCount('n', n);
  const B = opts.B ?? DEFAULT_BOOTSTRAP_B;
  checkCount('B', B);
  const level = opts.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`level must lie in (0, 1), got ${level}`);
  if (n === 0 || B === 0) return [Number.NaN, Number.NaN];
  const all = resamples(n, B, opts.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const values: number[] = [];
  for (let b = 0; b < B; b++) {
    const v = statistic(all.subarray(b * n, (b + 1) * n));
    if (!Number.isNaN(v)) values.push(v);
  }
  if (!values.length) return [Number.NaN, Number.NaN];
  const sorted = Float64Array.from(values).sort();
  const alpha = (1 - level) / 2;
  return [quantileSorted(sorted, alpha), quantileSorted(sorted, 1 - alpha)];
}

/** One cluster (item) of a rate: `num` successes among its `den` observations. */
export interface RatioCluster {
  num: number;
  den: number;
}

/**
 * Interval for a pooled rate Σnum / Σden that resamples whole clusters (items), so verdicts of
 * one item move together. Clusters without observations should be left out by the caller.
 */
export function clusterBootstrapRatio(clusters: readonly RatioCluster[], opts: BootstrapOptions = {}): CI {
  const num = Float64Array.from(clusters, (c) => c.num);
  const den = Float64Array.from(clusters, (c) => c.den);
  return clusterBootstrap(
    clusters.length,
    (idx) => {
      let s = 0;
      let d = 0;
      for (let i = 0; i < idx.length; i++) {
        s += num[idx[i]];
        d += den[idx[i]];
      }
      return d === 0 ? Number.NaN : s / d;
    },
    opts,
  );
}

/** One shared cluster of two rates (condition A and B on the same item). */
export interface PairedCluster {
  numA: number;
  denA: number;
  numB: number;
  denB: number;
}

/**
 * Paired bootstrap of the difference of two pooled rates on shared clusters (rate B − rate A):
 * both rates are evaluated on the same resampled items, so what the items share cancels.
 */
export function pairedBootstrapDiff(clusters: readonly PairedCluster[], opts: BootstrapOptions = {}): CI {
  const cols = (f: (c: PairedCluster) => number) => Float64Array.from(clusters, f);
  const [na, da, nb, db] = [
    cols((c) => c.numA),
    cols((c) => c.denA),
    cols((c) => c.numB),
    cols((c) => c.denB),
  ];
  return clusterBootstrap(
    clusters.length,
    (idx) => {
      let sa = 0;
      let ta = 0;
      let sb = 0;
      let tb = 0;
      for (let i = 0; i < idx.length; i++) {
        const k = idx[i];
        sa += na[k];
        ta += da[k];
        sb += nb[k];
        tb += db[k];
      }
      return ta === 0 || tb === 0 ? Number.NaN : sb / tb - sa / ta;
    },
    opts,
  );
}

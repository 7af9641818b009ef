// Draws for the validation (issue 33): the app's one seeded generator (src/shared/random.ts)
// with the few distributions the planted truths need. Every cell of every check gets its own
// stream, seeded from (run seed, check id, cell key), so a cell's replicates are the same
// whether the whole run, one check or the CI subset asks for them: the subset's R replicates
// are the first R of the full run's.
import { hashSeed } from '../../src/shared/annotation/random';
import { mulberry32, type Rng } from '../../src/shared/random';

export type { Rng };

/** The stream of one cell. */
export function cellRng(seed: number, checkId: string, cellKey: string): Rng {
  return mulberry32(hashSeed(`${seed}\u0000${checkId}\u0000${cellKey}`));
}

/** Standard normal by Box–Muller (one of the pair; simple beats fast here). */
export function normal(rng: Rng): number {
  let u = rng();
  while (u === 0) u = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

export function bernoulli(rng: Rng, p: number): boolean {
  return rng() < p;
}

/** Bin(n, p) by counting: n ≤ a few thousand here, so the O(n) loop is cheap and exact. */
export function binomial(rng: Rng, n: number, p: number): number {
  if (p <= 0) return 0;
  if (p >= 1) return n;
  let k = 0;
  for (let i = 0; i < n; i++) if (rng() < p) k++;
  return k;
}

/** Index drawn from probabilities summing to 1. */
export function categorical(rng: Rng, probs: readonly number[]): number {
  const u = rng();
  let acc = 0;
  for (let i = 0; i < probs.length; i++) {
    acc += probs[i];
    if (u < acc) return i;
  }
  return probs.length - 1;
}

/** Multinomial counts of n draws over probs. */
export function multinomial(rng: Rng, n: number, probs: readonly number[]): number[] {
  const counts = new Array<number>(probs.length).fill(0);
  for (let i = 0; i < n; i++) counts[categorical(rng, probs)]++;
  return counts;
}

/** Gamma(shape, 1) by Marsaglia & Tsang (shape < 1 through the boost u^(1/shape)). */
export function gamma(rng: Rng, shape: number): number {
  if (shape < 1) return gamma(rng, shape + 1) * Math.pow(rng() || Number.MIN_VALUE, 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

export function beta(rng: Rng, a: number, b: number): number {
  const x = gamma(rng, a);
  const y = gamma(rng, b);
  return x / (x + y);
}

// The one seeded generator of the app: statistics (bootstrap resamples), annotation (samples,
// item orders, CV folds), the simulated provider and the test fuzzer all draw from it, so the
// same seed gives the same sequence everywhere (main, renderer, fixtures). Not cryptographic.
import { z } from 'zod';

/** A generator of uniforms in [0, 1). */
export type Rng = () => number;

/**
 * mulberry32: a 32-bit seeded generator of uniforms in [0, 1). Chosen because it is a few lines
 * in any language, so a Python fixture (scripts/gen-bootstrap-holm-fixtures.py) can draw the
 * very same numbers.
 */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seed a person gives (a config file, an API call): a whole number from 0 to 2^31 − 1, which
 * every reader of it (mulberry32, SQLite, JSON, Python's fixtures) holds exactly.
 */
export const seedSchema = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

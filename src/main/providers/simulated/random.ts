import { createHash } from 'node:crypto';
import type { Rng } from '../../../shared/random';

// Seeded randomness for the simulated provider: the same request always gets the same answer,
// so a simulated run is reproducible and its ledger cache behaves like a real one.

/** A 32-bit seed from any text (the first four bytes of its SHA-256). */
export function seedOf(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

export function pick<T>(rng: Rng, options: readonly T[]): T {
  return options[Math.floor(rng() * options.length) % options.length];
}

/**
 * `fn` remembered for the `size` keys last asked for (the one unused longest forgotten first). For
 * the simulated provider's pure per-word and per-text functions: a study asks about the same words
 * and answers thousands of times, and each answer was a SHA-256 per word (issue 39: e2e-planted's
 * test file 75.9 → 57.5 CPU-s). Same input, same output: nothing a simulated answer says changes.
 */
export function remembered<T>(fn: (key: string) => T, size: number): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    if (kept.has(key)) {
      const v = kept.get(key) as T;
      // Most recently used last, so a study's working set stays while old studies' keys go.
      kept.delete(key);
      kept.set(key, v);
      return v;
    }
    const v = fn(key);
    if (kept.size >= size) kept.delete(kept.keys().next().value!);
    kept.set(key, v);
    return v;
  };
}

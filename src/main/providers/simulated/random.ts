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

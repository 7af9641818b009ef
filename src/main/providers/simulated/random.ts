import { createHash } from 'node:crypto';

// Seeded randomness for the simulated provider: the same request always gets the same answer,
// so a simulated run is reproducible and its ledger cache behaves like a real one.

export type Rng = () => number;

/** A 32-bit seed from any text (the first four bytes of its SHA-256). */
export function seedOf(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

/** mulberry32: small, fast and good enough for simulated answers (not for statistics). */
export function rngFrom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rng: Rng, options: readonly T[]): T {
  return options[Math.floor(rng() * options.length) % options.length];
}

// A small seeded generator for reproducible sampling, item orders and CV folds. mulberry32 over
// a 32-bit FNV-1a hash of a text seed: the same seed text gives the same sequence everywhere
// (main and renderer), which is all the annotation code needs (not cryptographic).
import { mulberry32, type Rng } from '../random';

export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The shared generator (src/shared/random.ts), seeded by a number or by the hash of a text. */
export function seededRandom(seed: number | string): Rng {
  return mulberry32(typeof seed === 'number' ? seed : hashSeed(seed));
}

/** Fisher–Yates shuffle of a copy, driven by `random`. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

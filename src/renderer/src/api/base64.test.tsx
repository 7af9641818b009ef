import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from './base64';

function pseudoRandomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('bytesToBase64', () => {
  it('matches Node for sizes around slice boundaries', async () => {
    for (const n of [0, 1, 2, 3, 4, 98_303, 98_304, 98_305, 200_001]) {
      const bytes = pseudoRandomBytes(n);
      expect(await bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });

  it('encodes a multi-megabyte file and reports progress up to 1', async () => {
    const bytes = pseudoRandomBytes(5 * 1024 * 1024 + 7);
    const progress: number[] = [];
    const out = await bytesToBase64(bytes, (f) => progress.push(f));
    expect(out).toBe(Buffer.from(bytes).toString('base64'));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
  });
});

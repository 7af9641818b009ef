// The app's one seeded generator must keep drawing exactly the numbers its former copies drew
// (bootstrap, annotation sampling, simulated provider, fuzzer): stored results, simulated
// answers and ledger cache keys depend on them. The fixture was recorded from the four copies
// before they were merged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mulberry32 } from '../../src/shared/random';
import { seededRandom } from '../../src/shared/annotation/random';
import { seedOf } from '../../src/main/providers/simulated/random';

const Fixture = z.object({
  numeric: z.array(z.object({ seed: z.number(), first: z.array(z.number()).length(8) })).min(1),
  text: z.array(z.object({ seed: z.string(), first: z.array(z.number()).length(8) })).min(1),
  simulated: z
    .array(z.object({ parts: z.array(z.string()), seed: z.number(), first: z.array(z.number()).length(8) }))
    .min(1),
});
const fixture = Fixture.parse(
  JSON.parse(readFileSync(join(__dirname, '../fixtures/random/mulberry32.json'), 'utf8')),
);
const take = (r: () => number) => Array.from({ length: 8 }, () => r());

describe('the shared mulberry32 generator', () => {
  it('draws the recorded sequence for numeric seeds (including negative and 2^32-1)', () => {
    for (const { seed, first } of fixture.numeric) expect(take(mulberry32(seed))).toEqual(first);
  });

  it('gives annotation the same sequence for a number seed as mulberry32 does', () => {
    for (const { seed, first } of fixture.numeric) expect(take(seededRandom(seed))).toEqual(first);
  });

  it('draws the recorded sequence for text seeds (annotation samples and orders)', () => {
    for (const { seed, first } of fixture.text) expect(take(seededRandom(seed))).toEqual(first);
  });

  it('draws the recorded sequence for simulated-provider seeds', () => {
    for (const { parts, seed, first } of fixture.simulated) {
      expect(seedOf(...parts)).toBe(seed);
      expect(take(mulberry32(seed))).toEqual(first);
    }
  });
});

// Issue 15 item 12 at the CLI: a CSV whose columns are named otherwise is refused with its
// columns and the --column options that map them; mapped, it imports, and the next file with
// the same columns imports with the remembered mapping.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('judge-lab import --column', () => {
  it('names the file columns, maps them with --column, and remembers the mapping', async () => {
    const first = join(dir, 'arena.csv');
    writeFileSync(first, 'prompt,response_a,response_b,winner\nSay hi,hi,bye,1\nAdd 2+2,4,5,1\n');
    const refused = await runCliInProcess(['import', first, '--data-dir', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("the file's columns: prompt, response_a, response_b, winner");
    expect(refused.stderr).toContain(
      '--column instruction=<column> --column output_1=<column> --column output_2=<column> --column label=<column>',
    );

    const bad = await runCliInProcess(['import', first, '--data-dir', dir, '--column', 'instruction']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--column "instruction": write it as field=column');

    const mapped = await runCliInProcess([
      'import',
      first,
      '--data-dir',
      dir,
      ...['instruction=prompt', 'output_1=response_a', 'output_2=response_b', 'label=winner'].flatMap((c) => [
        '--column',
        c,
      ]),
    ]);
    expect(mapped.stderr).toBe('');
    expect(mapped.code).toBe(0);
    expect(mapped.stdout).toMatch(/2 items/);

    const second = join(dir, 'arena-2.csv');
    writeFileSync(second, 'winner,response_b,response_a,prompt\n2,Paris,Lyon,Capital of France?\n');
    const again = await runCliInProcess(['import', second, '--data-dir', dir]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/: 1 items \(/);
  });
});

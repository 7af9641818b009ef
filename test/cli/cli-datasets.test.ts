import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, runCli, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
const sample = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');

beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('judge-lab CLI: datasets', () => {
  it('imports the LLMBar file and reports its subsets', async () => {
    const r = await runCliInProcess(['import', sample, '--data-dir', dir, '--name', 'LLMBar']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/419 items/);
    expect(r.stdout).toMatch(/Natural 100, Neighbor 134, GPTInst 92, GPTOut 47, Manual 46/);
  });

  it('lists datasets, also as JSON', async () => {
    const r = await runCliInProcess(['list', '--data-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/LLMBar\s+419 items/);
    const j = await runCliInProcess(['list', '--json', '--data-dir', dir]);
    expect(JSON.parse(j.stdout).datasets[0]).toMatchObject({ name: 'LLMBar', itemCount: 419 });
  });

  it('detects a duplicate import and adds nothing', async () => {
    const r = await runCliInProcess(['import', sample, '--data-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Already imported/);
    const j = await runCliInProcess(['list', '--json', '--data-dir', dir]);
    expect(JSON.parse(j.stdout).datasets).toHaveLength(1);
  });

  it('takes the data folder from JUDGE_LAB_HOME', async () => {
    const r = await runCliInProcess(['list', '--json'], { JUDGE_LAB_HOME: dir });
    expect(JSON.parse(r.stdout).datasets).toHaveLength(1);
  });

  it('rejects a bad file with exit 2 and names the file, line and field', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"id":"a","instruction":"i","output_1":"x","output_2":"y","label":1}\n' +
        '{"id":"b","instruction":"i","output_1":"x","output_2":"y","label":3}\n',
    );
    const r = await runCliInProcess(['import', bad, '--data-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl:2/);
    expect(r.stderr).toMatch(/label/);
    const j = await runCliInProcess(['list', '--json', '--data-dir', dir]);
    expect(JSON.parse(j.stdout).datasets).toHaveLength(1);
  });

  it('exits 2 on a missing file and on an unknown command', async () => {
    expect((await runCliInProcess(['import', join(dir, 'nope.jsonl'), '--data-dir', dir])).code).toBe(2);
    expect((await runCliInProcess(['frobnicate'])).code).toBe(2);
    expect((await runCliInProcess(['--help'])).code).toBe(0);
    // The installed command's exit status is main's answer.
    expect(runCli(['frobnicate']).code).toBe(2);
    expect(runCli(['--help']).code).toBe(0);
  });
});

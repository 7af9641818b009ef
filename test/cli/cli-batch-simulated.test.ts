// Batch mode without a paid account (issue 26 item 7): the simulated provider answers batches
// after a short turnaround, with the same answers as its live calls (they follow from the request
// alone), at batch prices.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

const study = (name: string, sim: Record<string, unknown>) => {
  const cfg = join(dir, `${name}.json`);
  writeFileSync(
    cfg,
    JSON.stringify({
      name,
      protocol: 'judge-ls',
      dataset: LLMBAR_SAMPLE,
      limit: 4,
      providers: { sim: { kind: 'simulated', ...sim } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
      prices: {
        'sim-translator': { input: 1, output: 2 },
        'sim-judge': { input: 1, output: 2 },
      },
    }),
  );
  return cfg;
};

interface Metrics {
  quality: unknown[];
  failures: unknown[];
}

describe('the simulated provider in batch mode', () => {
  it('answers through batches after a short turnaround, the same answers as live, at batch prices', async () => {
    const data = join(dir, 'data');
    const live = await runCliInProcess([
      'run',
      study('sim-live', { latencyMs: 0 }),
      '--out',
      join(dir, 'live'),
      '--data-dir',
      data,
    ]);
    expect(live.code, live.stderr).toBe(0);
    const batched = await runCliInProcess([
      'run',
      study('sim-batch', { latencyMs: 20, mode: 'batch', batchPollSeconds: 0.05 }),
      '--out',
      join(dir, 'batch'),
      '--data-dir',
      join(dir, 'data-batch'),
    ]);
    expect(batched.code, batched.stderr).toBe(0);
    expect(batched.stderr).toMatch(/calls go through Batch APIs at batch prices/);
    expect(batched.stderr).toMatch(/Batch simbatch_[0-9a-f]{32}: \d+ requests to sim-judge: ended/);
    const read = (d: string) => JSON.parse(readFileSync(join(dir, d, 'metrics.json'), 'utf8')) as Metrics;
    expect(read('live').quality.length).toBeGreaterThan(0);
    expect(read('batch').failures).toEqual(read('live').failures);
    expect(read('batch').quality).toEqual(read('live').quality);
  }, 240_000);

  it('is refused only where it cannot apply: batch settings without batch mode', async () => {
    const r = await runCliInProcess([
      'run',
      study('sim-bad', { batchPollSeconds: 1 }),
      '--data-dir',
      join(dir, 'data-bad'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/providers\.sim\.batchPollSeconds: only used with "mode": "batch"/);
  });
});

// `judge-lab compare` as a real child process on a data folder with a finished two-judge run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import type { CompareResult } from '../../src/shared/compare';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { mockKeys } from '../helpers/llmbar-mock';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
let mock: MockProvider;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({ dataDir: join(dir, 'data'), door: 'cli', keys: mockKeys() });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = await core.call('items.list', { datasetId: dataset.id });
  const items = await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })));
  mock = await startMockProvider({ respond: judgeLsResponder(items).respond, wrapText: false });
  const exp = await core.call('experiments.create', {
    config: {
      name: 'two-judges',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 6,
      providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
      transform: { provider: 'o', model: 'gpt-4.1-mini', languages: ['ZH'] },
      judges: [
        { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' },
        { label: 'Haiku', provider: 'o', model: 'claude-haiku-4-5' },
      ],
      tieProbes: false,
    },
  });
  expect((await core.experiments.runToEnd(exp.id)).status).toBe('finished');
  await core.shutdown();
}, 120_000);
afterAll(async () => {
  await mock?.close();
  cleanup?.();
});

describe('judge-lab compare', () => {
  it('writes the comparison of two judges as JSON, CSV, XLSX and LaTeX and prints the table', async () => {
    const out = join(dir, 'cmp');
    const r = await runCliInProcess([
      'compare',
      'two-judges',
      'two-judges',
      '--judge-a',
      'GPT',
      '--judge-b',
      'Haiku',
      '--out',
      out,
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/A: two-judges {3}B: two-judges/);
    expect(r.stdout).toMatch(/Δ \(B − A\)/);
    expect(r.stdout).toMatch(/GPT\s+Haiku\s+EN\s+12\s+6/);
    for (const f of ['compare.json', 'compare.csv', 'compare.xlsx', 'compare.tex'])
      expect(existsSync(join(out, f)), f).toBe(true);
    const json = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as CompareResult;
    expect(json.rows.map((x) => x.condition)).toEqual(['EN', 'ZH', 'all']);
    expect(json.statistics).toEqual({ bootstrap_b: 2000, bootstrap_seed: 1, resampling_unit: 'item' });
    expect(readFileSync(join(out, 'compare.csv'), 'utf8')).toContain('GPT,Haiku,ZH,12,6,');
  });

  it('exits 2 with the reason when the sides cannot be paired', async () => {
    const r = await runCliInProcess([
      'compare',
      'two-judges',
      'two-judges',
      '--out',
      join(dir, 'nope'),
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/name the judge of each side/);
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });
});

// The plug-in seam end to end with a protocol that lives only in test/: config validation,
// planning, the engine against the mock provider (both wire formats), the results store,
// metrics, the results API and every export format.
import ExcelJS from 'exceljs';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { registerProtocol, unregisterProtocol } from '../../../src/main/protocols';
import { tempDir } from '../../helpers/tmp';
import { startMockProvider, type MockProvider, type MockRequest } from '../../mock-provider/server';
import { pointwisePlugin, type PointwiseMetrics } from './plugin';

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;

/** The mock scorer: a score from the response's length, so the test can recompute every mean. */
function scoreOf(req: MockRequest): number {
  const response = req.lastUser.split('Response: ')[1] ?? '';
  return (response.length % 5) + 1;
}

function config(url: string, extra: Record<string, unknown> = {}) {
  return {
    name: 'pointwise-run',
    protocol: 'test-pointwise',
    dataset: 'LLMBar (sample)',
    limit: 30,
    providers: {
      openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' },
      anthropic: { kind: 'anthropic', baseURL: url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY' },
    },
    scorers: [
      { label: 'GPT scorer', provider: 'openai', model: 'gpt-4.1-mini' },
      { label: 'Claude scorer', provider: 'anthropic', model: 'claude-haiku-4-5' },
    ],
    ...extra,
  };
}

beforeAll(async () => {
  registerProtocol(pointwisePlugin);
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 50 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({
    latencyMs: [1, 5],
    respond: (req) => ({ score: scoreOf(req), reason: 'mock' }),
  });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  unregisterProtocol('test-pointwise');
});

describe('a protocol registered from test code', () => {
  it('validates its own config keys (unknown keys and missing providers name the key)', async () => {
    await expect(
      core.call('experiments.estimate', { config: config(mock.url, { judges: [] }) }),
    ).rejects.toThrow(/judges: unknown key/);
    const bad = config(mock.url);
    bad.scorers[1].provider = 'nope';
    await expect(core.call('experiments.estimate', { config: bad })).rejects.toThrow(
      /scorers\[1\]\.provider: no provider named "nope"/,
    );
  });

  it('estimates, runs, stores, computes metrics and exports every format', async () => {
    const estimate = await core.call('experiments.estimate', { config: config(mock.url) });
    expect(estimate.calls).toBe(60);
    expect(estimate.rows.map((r) => r.label).sort()).toEqual(['Claude scorer', 'GPT scorer']);

    const { id } = await core.call('experiments.create', { config: config(mock.url) });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    expect(mock.log.filter((l) => l.status === 200)).toHaveLength(60);

    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.protocol).toBe('test-pointwise');
    expect(results.counts).toEqual({ planned: 60, ok: 60, failed: 0, pending: 0 });
    const metrics = results.metrics as PointwiseMetrics;
    // Recompute each scorer's mean from what the mock answered.
    const items = await core.call('items.list', {
      datasetId: (await core.call('datasets.list', undefined))[0].id,
    });
    const firsts = await Promise.all(items.slice(0, 30).map((r) => core.call('items.get', { itemId: r.id })));
    const expected = firsts.reduce((a, it) => a + (((it.output1 ?? '').length % 5) + 1), 0) / 30;
    for (const row of metrics.mean_score) {
      expect(row.n).toBe(30);
      expect(row.mean).toBeCloseTo(expected, 10);
    }
    expect(results.tables.map((t) => t.id)).toEqual(['mean_score']);

    const out = join(dir, 'export');
    const exported = await core.call('experiments.export', { experimentId: id, outDir: out });
    expect(exported.files.sort()).toEqual(
      [
        'figures/mean_score.png',
        'figures/mean_score.svg',
        'manifest.json',
        'metrics.json',
        'tables/mean_score.csv',
        'tables/mean_score.tex',
        'tables/tables.xlsx',
        // The generic Methods files, for a protocol that adds no sentences of its own (issue 24).
        'methods.md',
        'methods.tex',
        'checklist.md',
      ].sort(),
    );
    expect(JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'))).toEqual(metrics);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.protocol).toBe('test-pointwise');
    expect(manifest.models.map((m: { label: string }) => m.label)).toEqual(['GPT scorer', 'Claude scorer']);
    expect(readFileSync(join(out, 'tables/mean_score.csv'), 'utf8')).toContain('GPT scorer');
    expect(readFileSync(join(out, 'tables/mean_score.tex'), 'utf8')).toContain('\\toprule');
    expect(readFileSync(join(out, 'figures/mean_score.svg'), 'utf8')).toContain('Mean score by scorer');
    expect(readFileSync(join(out, 'figures/mean_score.png')).subarray(1, 4).toString()).toBe('PNG');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(out, 'tables/tables.xlsx'));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['mean_score']);
    expect(existsSync(join(out, 'judgments.csv'))).toBe(false);
    const methods = readFileSync(join(out, 'methods.md'), 'utf8');
    expect(methods).toContain(`of which ${manifest.counts.items} items entered the experiment`);
    expect(methods).not.toContain('## Design');
  });
  it('runs on the simulated provider too, which knows nothing of it: valid scores, marked simulated', async () => {
    const cfg = {
      ...config(mock.url),
      name: 'pointwise-simulated',
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000 } },
      scorers: [
        { label: 'Sim scorer', provider: 'sim', model: 'sim-judge' },
        { label: 'Sim scorer 2', provider: 'sim', model: 'sim-judge-strong' },
      ],
    };
    const sentBefore = mock.log.length;
    const { id } = await core.call('experiments.create', { config: cfg });
    expect((await core.call('experiments.list', undefined)).find((e) => e.id === id)!.simulated).toBe(true);
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    expect(mock.log).toHaveLength(sentBefore);

    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.simulated).toBe(true);
    expect(results.counts).toMatchObject({ planned: 60, ok: 60, pending: 0 });
    for (const row of (results.metrics as PointwiseMetrics).mean_score) {
      expect(row.mean).toBeGreaterThanOrEqual(1);
      expect(row.mean).toBeLessThanOrEqual(5);
    }
    expect(results.tables[0].title).toMatch(/^Simulated — /);

    const out = join(dir, 'export-simulated');
    await core.call('experiments.export', { experimentId: id, outDir: out });
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).simulated).toBe(true);
    expect(readFileSync(join(out, 'tables/mean_score.tex'), 'utf8')).toContain('\\caption{Simulated --- ');
    expect(readFileSync(join(out, 'figures/mean_score.svg'), 'utf8')).toContain(
      'Simulated — Mean score by scorer',
    );
  });
});

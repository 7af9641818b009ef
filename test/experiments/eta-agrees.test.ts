import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/core/key-store';
import type { ExperimentProgress } from '../../src/shared/experiments';
import type { Item } from '../../src/shared/domain';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';

let mock: MockProvider | undefined;
let core: Core | undefined;
let cleanup = () => {};
afterEach(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup();
});

describe('time left at the start of a run', () => {
  it('is the estimate the wizard showed, at the same rate limits', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }) });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const rows = await core.call('items.list', { datasetId: dataset.id });
    const items = (await Promise.all(rows.map((r) => core!.call('items.get', { itemId: r.id })))) as Item[];
    const responder = judgeLsResponder(items);
    mock = await startMockProvider({ respond: responder.respond, wrapText: false });
    const config = {
      name: 'eta',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 6,
      providers: {
        o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', rpm: 600 },
        slow: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', rpm: 20 },
      },
      transform: { provider: 'o', model: 'gpt-4.1-mini' },
      judges: [
        { label: 'Fast', provider: 'o', model: 'gpt-4.1-mini' },
        { label: 'Slow', provider: 'slow', model: 'slow-judge' },
      ],
    };
    const estimate = (await core.call('experiments.estimate', { config })).minutesAtRateLimits * 60;
    // 6 items × 8 verdicts of the slow judge at 20 a minute: the slowest lane decides.
    expect(estimate).toBeGreaterThanOrEqual((6 * 8 * 60) / 20);
    const { id } = await core.call('experiments.create', { config });
    const etas: number[] = [];
    core.on('run.progress', (p: ExperimentProgress) => {
      if (p.experimentId === id && p.status === 'running' && p.etaSeconds !== null) etas.push(p.etaSeconds);
    });
    await core.call('experiments.start', { experimentId: id });
    const deadline = Date.now() + 5000;
    while (etas.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await core.call('experiments.cancel', { experimentId: id });
    expect(etas[0]).toBe(Math.round(estimate));
    // And it keeps to that scale while the slow judge works (not "under a minute").
    expect(Math.min(...etas)).toBeGreaterThan(60);
  });
});

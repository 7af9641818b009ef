import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/core/key-store';
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

describe('planned calls that were never sent', () => {
  it('keep an experiment from reading "finished", are counted as pending in results, and go out on resume', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }) });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const rows = await core.call('items.list', { datasetId: dataset.id });
    const items = (await Promise.all(rows.map((r) => core!.call('items.get', { itemId: r.id })))) as Item[];
    const responder = judgeLsResponder(items);
    mock = await startMockProvider({ respond: responder.respond, wrapText: false });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'stranded',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 4,
        providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
        transform: { provider: 'o', model: 'gpt-4.1-mini' },
        judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const item = items[1];
    await core.call('experiments.editVariant', {
      experimentId: id,
      itemId: item.id,
      language: 'ZH',
      instruction: '【中文】改过的指令',
      output1: `【中文】${item.output1}`,
      output2: `【中文】${item.output2}`,
    });
    // Not "Run them now": the 4 re-planned verdicts wait, and nothing reads as finished.
    const detail = await core.call('experiments.get', { experimentId: id });
    expect(detail.status).toBe('paused');
    expect((await core.call('experiments.list', undefined)).find((e) => e.id === id)?.status).toBe('paused');
    const progress = await core.call('experiments.progress', { experimentId: id });
    expect(progress.status).toBe('paused');
    expect(progress.message).toMatch(/4 planned calls were never sent.*Resume sends them/);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts.pending).toBe(4);

    const sent = mock.log.length;
    expect((await core.call('experiments.resume', { experimentId: id })).status).toBe('running');
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    expect(mock.log.length - sent).toBe(4);
    expect((await core.call('experiments.get', { experimentId: id })).status).toBe('finished');
    expect((await core.call('experiments.results', { experimentId: id })).counts.pending).toBe(0);
  });
});

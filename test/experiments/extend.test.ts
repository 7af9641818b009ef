import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';
import { judgeLsRows } from '../../src/shared/protocols/judge-ls/views';

let mock: MockProvider | undefined;
let core: Core | undefined;
let cleanup = () => {};
afterEach(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup();
});

describe('re-running an experiment with a changed config', () => {
  it('sends only what is missing after adding a judge and more items', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({
      dataDir: t.dir,
      door: 'cli',
      keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant' }),
    });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const rows = await core.call('items.list', { datasetId: dataset.id });
    const items = (await Promise.all(rows.map((r) => core!.call('items.get', { itemId: r.id })))) as Item[];
    const responder = judgeLsResponder(items);
    mock = await startMockProvider({ respond: responder.respond, wrapText: false });
    const config = (limit: number, judges: { label: string; provider: string; model: string }[]) => ({
      name: 'grow',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit,
      providers: {
        o: { kind: 'openai', baseURL: `${mock!.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' },
        a: { kind: 'anthropic', baseURL: mock!.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY' },
      },
      transform: { provider: 'o', model: 'gpt-4.1-mini' },
      judges,
    });
    const gpt = { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' };
    const claude = { label: 'Claude', provider: 'a', model: 'claude-haiku-4-5' };

    const first = core.experiments.createOrUpdate(config(10, [gpt]));
    expect((await core.experiments.runToEnd(first.id)).status).toBe('finished');
    expect(mock.log).toHaveLength(10 * 2 + 10 * 8);

    const second = core.experiments.createOrUpdate(config(15, [gpt, claude]));
    expect(second.id).toBe(first.id);
    const estimate = core.experiments.estimate(config(15, [gpt, claude]));
    expect(estimate.calls).toBe(15 * 2 + 15 * 8 * 2);
    // Stored: 20 transforms and 80 GPT verdicts; the estimate knows them before any call.
    expect(estimate.cachedCalls).toBe(20 + 80);
    expect((await core.experiments.runToEnd(first.id)).status).toBe('finished');
    // New: transforms and GPT verdicts for 5 more items, and every Claude verdict.
    expect(mock.log).toHaveLength(100 + 5 * 2 + 5 * 8 + 15 * 8);
    const judgments = judgeLsRows.judgments(
      await core.call('experiments.protocolView', { experimentId: first.id, view: 'judgments' }),
    );
    expect(judgments).toHaveLength(15 * 8 * 2);
  });

  it('re-plans only the verdicts that used a hand-edited translation, and keeps the edit', async () => {
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
        name: 'edit',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 5,
        providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
        transform: { provider: 'o', model: 'gpt-4.1-mini' },
        judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const sent = mock.log.length;
    const item = items[2];
    const edit = await core.call('experiments.protocolEdit', {
      experimentId: id,
      edit: 'variant',
      fields: {
        itemId: item.id,
        language: 'ZH',
        instruction: '【中文】手工修订的指令',
        output1: `【中文】${item.output1}`,
        output2: `【中文】${item.output2}`,
      },
    });
    // ZH quality in both orders and both tie probes use the ZH text.
    expect(edit.replanned).toBe(4);
    expect(judgeLsRows.variant(edit.row).manual).toBe(true);
    expect(edit.estimate.calls - edit.estimate.cachedCalls).toBe(4);
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    expect(mock.log.length - sent).toBe(4);
    const zh = judgeLsRows
      .variants(await core.call('experiments.protocolView', { experimentId: id, view: 'variants' }))
      .find((v) => v.itemId === item.id && v.language === 'ZH');
    expect(zh).toMatchObject({ manual: true, instruction: '【中文】手工修订的指令' });
    // A dataset an experiment uses cannot be deleted out from under it.
    await expect(core.call('datasets.delete', { datasetId: dataset.id })).rejects.toThrow(
      /used by the experiment "edit"; delete it first/,
    );
    await core.call('experiments.delete', { experimentId: id });
    expect(await core.call('datasets.delete', { datasetId: dataset.id })).toEqual({ deleted: true });
  });
});

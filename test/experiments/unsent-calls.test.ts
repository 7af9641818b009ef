import { afterEach, describe, expect, it } from 'vitest';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('planned calls that were never sent', () => {
  it('keep an experiment from reading "finished", are counted as pending in results, and go out on resume', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, items, datasetId } = env;
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'stranded',
        protocol: 'judge-ls',
        dataset: datasetId,
        limit: 4,
        providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
        transform: { provider: 'o', model: 'gpt-4.1-mini' },
        judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const item = items[1];
    await core.call('experiments.protocolEdit', {
      experimentId: id,
      edit: 'variant',
      fields: {
        itemId: item.id,
        language: 'ZH',
        instruction: '【中文】改过的指令',
        output1: `【中文】${item.output1}`,
        output2: `【中文】${item.output2}`,
      },
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

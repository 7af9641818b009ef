import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';

let mock: MockProvider | undefined;
let cleanup = () => {};
afterEach(async () => {
  await mock?.close();
  cleanup();
});

function openCore(dir: string) {
  return new Core({ dataDir: dir, door: 'cli', keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }) });
}

describe('quitting in the middle of a run', () => {
  it('leaves the experiment paused, and a reopened app resumes it to the end without re-paying', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    let core = openCore(t.dir);
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const rows = await core.call('items.list', { datasetId: dataset.id });
    const items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
    const responder = judgeLsResponder(items);
    mock = await startMockProvider({ respond: responder.respond, latencyMs: [10, 30], wrapText: false });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'quit-test',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 10,
        providers: {
          p: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 4 },
        },
        transform: { provider: 'p', model: 'gpt-4.1-mini' },
        judges: [{ label: 'J', provider: 'p', model: 'gpt-4.1-mini' }],
      },
    });
    await core.call('experiments.start', { experimentId: id });
    await expect.poll(() => mock!.log.length, { timeout: 20_000 }).toBeGreaterThan(30);
    await core.shutdown();

    core = openCore(t.dir);
    const [summary] = await core.call('experiments.list', undefined);
    expect(summary.status).toBe('paused');
    // 10 items × (2 translations + 8 verdicts); later rounds plan verdicts on translations as
    // they arrive, so the stored plan may still be smaller than the whole study.
    expect(summary.counts.done).toBeLessThan(100);
    const sentBefore = mock.log.length;
    await core.call('experiments.resume', { experimentId: id });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    // With no live run, progress comes from the ledger: counts, tokens and spend as stored.
    const stored = await core.call('experiments.progress', { experimentId: id });
    expect(stored.phases.judge).toMatchObject({ total: 80, done: 80 });
    expect(Object.keys(stored.judges)).toEqual(['J']);
    expect(stored.tokens.input).toBeGreaterThan(0);
    expect(stored.costUsd).toBeGreaterThan(0);
    const contents = new Set(mock.bodies.map((b) => b.lastUser));
    expect(contents.size).toBe(20 + 10 * 8);
    // Nothing answered and stored before the quit was sent again.
    expect(mock.log.length - sentBefore).toBe(contents.size - sentBefore);
    await core.shutdown();
  });
});

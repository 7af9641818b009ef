import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import { DEFAULT_PROFILES, judgeLsResponder } from '../mock-provider/judge-ls-responder';
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

/** The model's limit in the sharing test: ~100 calls take ~5 s at it. */
const RPM = 1200;

async function setup(limits: { rpm?: number } = {}) {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = await core.call('items.list', { datasetId: dataset.id });
  const items = (await Promise.all(rows.map((r) => core!.call('items.get', { itemId: r.id })))) as Item[];
  const responder = judgeLsResponder(items, {
    profiles: { ...DEFAULT_PROFILES, 'gpt-4.1-nano': DEFAULT_PROFILES['gpt-4.1-mini'] },
  });
  mock = await startMockProvider({ respond: responder.respond, latencyMs: [5, 15], wrapText: false });
  const create = async (name: string, model: string, temperature: number) =>
    (
      await core!.call('experiments.create', {
        config: {
          name,
          protocol: 'judge-ls',
          dataset: dataset.id,
          limit: 6,
          providers: {
            o: {
              kind: 'openai',
              baseURL: `${mock!.url}/v1`,
              apiKeyEnv: 'MOCK_API_KEY',
              concurrency: 4,
              ...limits,
            },
          },
          transform: { provider: 'o', model },
          judges: [{ label: 'J', provider: 'o', model, temperature }],
        },
      })
    ).id;
  return { core, mock, create };
}

describe('two experiments started together in one app', () => {
  it('on the same model: both send at once and share its rate limit (no waiting, no 429 wall)', async () => {
    const { core, mock, create } = await setup({ rpm: RPM });
    // The provider enforces the limit per second, as the real ones do.
    mock.setBehavior({ rpm: RPM, burstSeconds: 1 });
    const a = await create('first', 'gpt-4.1-mini', 0);
    const b = await create('second', 'gpt-4.1-mini', 0.5);
    await core.call('experiments.start', { experimentId: a });
    const started = await core.call('experiments.start', { experimentId: b });
    expect(started.message).toBeNull();
    const [ra, rb] = await Promise.all([core.experiments.runToEnd(a), core.experiments.runToEnd(b)]);
    expect([ra.status, rb.status]).toEqual(['finished', 'finished']);
    const chat = mock.log.filter((e) => e.model === 'gpt-4.1-mini');
    const limited = chat.filter((e) => e.status === 429).length;
    expect(limited / chat.length).toBeLessThanOrEqual(0.01);
    // Interleaved: the second's verdicts go out while the first still sends.
    const lastOfFirst = Math.max(...mock.bodies.map((x, i) => (x?.temperature === 0 ? i : -1)));
    const firstOfSecond = mock.bodies.findIndex((x) => x?.temperature === 0.5);
    expect(firstOfSecond).toBeLessThan(lastOfFirst);
    // How long they took together, beside the time of all their calls at the one limit: printed,
    // not asserted (it depends on the machine's load; no 429 wall and the interleaving are above).
    const answered = chat.filter((e) => e.status === 200);
    const seconds =
      (Math.max(...answered.map((e) => e.endedAt!)) - Math.min(...chat.map((e) => e.at))) / 1000;
    const bound = answered.length / (RPM / 60);
    console.log(
      `two experiments on one model: ${seconds.toFixed(1)} s (all at the limit: ${bound.toFixed(1)} s)`,
    );
  });

  it('on different models: both run at once', async () => {
    const { core, mock, create } = await setup();
    const a = await create('mini', 'gpt-4.1-mini', 0);
    const b = await create('nano', 'gpt-4.1-nano', 0);
    await core.call('experiments.start', { experimentId: a });
    const started = await core.call('experiments.start', { experimentId: b });
    expect(started.message).toBeNull();
    const done = await Promise.all([core.experiments.runToEnd(a), core.experiments.runToEnd(b)]);
    expect(done.map((p) => [p.status, p.failuresByReason])).toEqual([
      ['finished', {}],
      ['finished', {}],
    ]);
    const models = mock.bodies.map((x) => x.model);
    // Interleaved: some nano call was sent before the last mini call.
    expect(models.indexOf('gpt-4.1-nano')).toBeLessThan(models.lastIndexOf('gpt-4.1-mini'));
  });

  it('cancelling one of two runs on the same model ends it; the other finishes', async () => {
    const { core, create } = await setup();
    const a = await create('long', 'gpt-4.1-mini', 0);
    const b = await create('second', 'gpt-4.1-mini', 0.7);
    await core.call('experiments.start', { experimentId: a });
    await core.call('experiments.start', { experimentId: b });
    const cancelled = await core.call('experiments.cancel', { experimentId: b });
    expect(cancelled.status).toBe('cancelled');
    expect((await core.experiments.runToEnd(a)).status).toBe('finished');
  });
});

// The estimate's "already answered" count reads the shared ledger: a new experiment whose requests
// another one answered counts them as stored, lane by lane, the same as looking up every task's
// request hash (what the estimate did for each task before it asked lanes first).
import { afterEach, describe, expect, it } from 'vitest';
import { endpointIds } from '../../src/main/experiments/load';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { requestHash } from '../../src/main/store/ledger';
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

describe('the estimate of a new experiment on a shared ledger', () => {
  it("counts another experiment's answers to the same requests, and none in lanes nobody answered", async () => {
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
    mock = await startMockProvider({ respond: judgeLsResponder(items).respond, wrapText: false });
    const config = (name: string, limit: number, transform: { provider: string; model: string }) => ({
      name,
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit,
      providers: {
        o: { kind: 'openai', baseURL: `${mock!.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' },
        a: { kind: 'anthropic', baseURL: mock!.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY' },
      },
      transform,
      judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
    });
    const gpt = { provider: 'o', model: 'gpt-4.1-mini' };
    const first = core.experiments.createOrUpdate(config('first', 10, gpt));
    expect((await core.experiments.runToEnd(first.id)).status).toBe('finished');

    // What every task's own lookup finds: the oracle.
    const stored = core.db.prepare("SELECT 1 FROM requests WHERE hash = ? AND status = 'done'").pluck();
    const perTask = (raw: unknown) => {
      const exp = core!.experiments.catalogue.draft(raw);
      const plan = exp.protocol.estimatePlan(exp.view, core!.db, null);
      const endpoints = endpointIds(exp.providers);
      return plan.tasks.filter(
        (task) =>
          !plan.fresh(task) &&
          stored.get(requestHash(endpoints.get(task.request.provider)!, task.request)) !== undefined,
      ).length;
    };
    // More items than were run, so the lane asks the ledger once and then looks its tasks up.
    const again = config('again', 15, gpt);
    expect(perTask(again)).toBeGreaterThanOrEqual(20);
    expect(core.experiments.estimate(again).cachedCalls).toBe(perTask(again));
    // The translator in a lane nobody answered: nothing stored there.
    const elsewhere = config('elsewhere', 15, { provider: 'a', model: 'claude-haiku-4-5' });
    expect(core.experiments.estimate(elsewhere).cachedCalls).toBe(perTask(elsewhere));
  });
});

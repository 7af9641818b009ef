// A crash between storing an answer and the protocol's hook on it (Judge-LS: a translation is
// in task_results, but the process died before it became a variant, so its verdicts were never
// planned). The next run must run every hook on what is stored before it plans; otherwise it
// "finishes" with those verdicts missing and different metrics (the CLI SIGKILL test caught
// this as 124 calls never sent, on a loaded CI machine).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { openDatabase } from '../../src/main/store/db';
import type { Item } from '../../src/shared/domain';
import { tempDir } from '../helpers/tmp';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

const KEYS = { MOCK_OPENAI_KEY: 'sk-test-openai' };
let dir: string;
let cleanup: () => void;
let mock: MockProvider;

const newCore = () =>
  new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore(KEYS),
    engine: { progressIntervalMs: 50 },
  });

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(async () => {
  await mock?.close();
  cleanup();
});

describe('a crash between a stored answer and its protocol hook', () => {
  it('the next run runs the hook first: the missing verdicts are planned and the metrics are whole', async () => {
    let core = newCore();
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const items = (await Promise.all(
      (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
        core.call('items.get', { itemId: r.id }),
      ),
    )) as Item[];
    mock = await startMockProvider({ respond: judgeLsResponder(items).respond, wrapText: false });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'crash-before-hook',
        protocol: 'judge-ls',
        dataset: 'LLMBar (sample)',
        limit: 6,
        providers: { openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
        transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH'] },
        judges: [{ label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const whole = (await core.call('experiments.results', { experimentId: id })).metrics;
    await core.shutdown();
    const sent = mock.bodies.length;

    // The state a kill leaves: the translations of three items answered and stored, their
    // variants not written, their verdicts never planned.
    const db = openDatabase(join(dir, 'judge-lab.sqlite'));
    const lost = (
      db.prepare('SELECT item_id FROM variants WHERE experiment_id = ? ORDER BY item_id LIMIT 3').all(id) as {
        item_id: number;
      }[]
    ).map((r) => r.item_id);
    expect(lost).toHaveLength(3);
    db.transaction(() => {
      for (const itemId of lost) {
        db.prepare('DELETE FROM variants WHERE experiment_id = ? AND item_id = ?').run(id, itemId);
        const keys = (
          db
            .prepare(
              `SELECT task_key FROM experiment_tasks WHERE experiment_id = ? AND stage = 'judge'
               AND json_extract(meta_json, '$.itemId') = ? AND json_extract(meta_json, '$.language') <> 'EN'`,
            )
            .all(id, itemId) as { task_key: string }[]
        ).map((r) => r.task_key);
        expect(keys.length).toBeGreaterThan(0);
        for (const k of keys) {
          db.prepare('DELETE FROM task_results WHERE experiment_id = ? AND task_key = ?').run(id, k);
          db.prepare('DELETE FROM experiment_tasks WHERE experiment_id = ? AND task_key = ?').run(id, k);
        }
      }
      db.prepare("UPDATE experiments SET status = 'running' WHERE id = ?").run(id);
    })();
    db.close();

    core = newCore();
    try {
      expect((await core.experiments.runToEnd(id)).status).toBe('finished');
      const again = (await core.call('experiments.results', { experimentId: id })).metrics;
      expect(again).toEqual(whole);
      // Everything was in the ledger: nothing was paid again.
      expect(mock.bodies.length).toBe(sent);
      const check = openDatabase(join(dir, 'judge-lab.sqlite'));
      const variants = check
        .prepare('SELECT COUNT(*) AS n FROM variants WHERE experiment_id = ?')
        .get(id) as {
        n: number;
      };
      check.close();
      expect(variants.n).toBe(6);
    } finally {
      await core.shutdown();
    }
  }, 120_000);
});

// Migrations 14 and 15 (issue 39) on a real file made at version 13: the plan's read of its
// requests' status and usage goes through the covering index (not the rows, whose prompts come
// first), giving what it gave before; kept results go with their experiment.
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/main/store/migrations';
import { scanResults } from '../../src/main/store/results';
import { answeredTaskUsage } from '../../src/main/store/ledger';
import { storeAtVersion } from '../helpers/store-at-version';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

describe('migrations 14 and 15: the ledger index results read, results kept in the store', () => {
  it('reads status and usage from the index, the same as from the rows', () => {
    const store = storeAtVersion(13);
    cleanup = store.cleanup;
    const db = store.db;
    const prompt = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(20_000) }] });
    db.exec(`
      INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'd.jsonl', 'llmbar-jsonl', 'h1');
      INSERT INTO experiments (id, name, protocol, dataset_id, config_json, status) VALUES (1, 'e1', 'judge-ls', 1, '{}', 'finished');
      INSERT INTO requests (id, hash, endpoint, model, request_json, status, input_tokens, output_tokens, cached_tokens, cost_usd, cache_write_tokens)
        VALUES (1, 'h1', 'e', 'm1', '${prompt}', 'done', 5000, 20, 0, 0.01, NULL),
               (2, 'h2', 'e', 'm2', '${prompt}', 'failed', NULL, NULL, NULL, NULL, NULL),
               (3, 'h3', 'e', 'm1', '${prompt}', 'pending', NULL, NULL, NULL, NULL, NULL);
      INSERT INTO experiment_tasks (experiment_id, task_key, stage, request_id, meta_json)
        VALUES (1, 'a', 'judge', 1, '{"i":1}'), (1, 'b', 'judge', 2, '{"i":2}'), (1, 'c', 'judge', 3, '{"i":3}');
      INSERT INTO task_results (experiment_id, task_key, stage, request_id, status, value_json, reason, attempts)
        VALUES (1, 'a', 'judge', 1, 'ok', '{"v":1}', NULL, 1), (1, 'b', 'judge', 2, 'failed', NULL, 'timeout', 3);
    `);
    const usageBefore = db
      .prepare(
        `SELECT t.task_key AS key, r.status, r.model, r.input_tokens, r.output_tokens, r.cost_usd
           FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
          WHERE t.experiment_id = 1 AND r.status IN ('done', 'failed') ORDER BY t.task_key`,
      )
      .all();
    expect(migrate(db)).toEqual(migrations.filter((m) => m.version > 13).map((m) => m.version));
    const s = scanResults(db, 1);
    expect(
      s.usage.map((u) => ({
        key: u.key,
        status: u.status,
        model: u.model,
        input_tokens: u.inputTokens,
        output_tokens: u.outputTokens,
        cost_usd: u.costUsd,
      })),
    ).toEqual(usageBefore);
    expect(answeredTaskUsage(db, 1)).toEqual(s.usage);
    expect({ planned: s.planned, ok: s.ok, failed: s.failed, unsynced: s.unsynced }).toEqual({
      planned: 3,
      ok: 1,
      failed: 1,
      unsynced: false,
    });
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT r.status, r.cost_usd FROM experiment_tasks t
           LEFT JOIN requests r INDEXED BY requests_answer ON r.id = t.request_id WHERE t.experiment_id = 1`,
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/COVERING INDEX requests_answer \(id=\?\)/);

    db.prepare(
      "INSERT INTO results_cache (experiment_id, variant, signature, results) VALUES (1, 'false:false', 's', x'00')",
    ).run();
    db.prepare('DELETE FROM task_results WHERE experiment_id = 1').run();
    db.prepare('DELETE FROM experiment_tasks WHERE experiment_id = 1').run();
    db.prepare('DELETE FROM experiments WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) FROM results_cache').pluck().get()).toBe(0);
  });
});

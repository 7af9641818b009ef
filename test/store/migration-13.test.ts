// Migration 13 (issue 32 item 6) on a real file made at version 12 with a locked experiment: a
// lock cannot be deleted on its own (the study would read as never preregistered), and deleting
// the experiment still takes its locks along.
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/main/store/migrations';
import { storeAtVersion } from '../helpers/store-at-version';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

describe('migration 13: preregistration locks are never deleted on their own', () => {
  it('refuses DELETE of a lock, and lets the experiment take its locks along', () => {
    const store = storeAtVersion(12);
    cleanup = store.cleanup;
    const db = store.db;
    db.exec(`
      INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'd.jsonl', 'llmbar-jsonl', 'h1');
      INSERT INTO experiments (id, name, protocol, dataset_id, config_json, status)
        VALUES (1, 'e1', 'judge-ls', 1, '{}', 'finished'), (2, 'e2', 'judge-ls', 1, '{}', 'finished');
      INSERT INTO preregistrations (experiment_id, version, plan_json, snapshot_json, reason, locked_at, sha256)
        VALUES (1, 1, '{}', '{}', NULL, '2026-01-01T00:00:00.000Z', '${'a'.repeat(64)}'),
               (2, 1, '{}', '{}', NULL, '2026-01-01T00:00:00.000Z', '${'b'.repeat(64)}');
    `);
    expect(migrate(db)).toEqual(migrations.filter((m) => m.version > 12).map((m) => m.version));
    const count = () => db.prepare('SELECT COUNT(*) FROM preregistrations').pluck().get();
    expect(() => db.prepare('DELETE FROM preregistrations WHERE experiment_id = 1').run()).toThrow(
      /a preregistration is never deleted: it goes only with its experiment/,
    );
    expect(() => db.prepare('DELETE FROM preregistrations').run()).toThrow(/never deleted/);
    expect(count()).toBe(2);
    db.prepare('DELETE FROM experiments WHERE id = 1').run();
    expect(db.prepare('SELECT experiment_id FROM preregistrations').pluck().all()).toEqual([2]);
  });
});

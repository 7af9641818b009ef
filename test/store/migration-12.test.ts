// Migration 12 (preregistration locks, issue 24 part 2) on a real file made at version 11 with an
// experiment in it: the experiment stays as it was, the new table starts empty, a lock is stored,
// never updated (the trigger refuses it), a later version must say why, and deleting the
// experiment takes its locks along.
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/main/store/migrations';
import { storeAtVersion } from '../helpers/store-at-version';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

function storeAtVersion11(): BetterSqlite3.Database {
  const store = storeAtVersion(11);
  cleanup = store.cleanup;
  const db = store.db;
  db.exec(`
    INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'd.jsonl', 'llmbar-jsonl', 'h1');
    INSERT INTO experiments (id, name, protocol, dataset_id, config_json, status)
      VALUES (1, 'e1', 'judge-ls', 1, '{"limit":4}', 'finished');
  `);
  return db;
}

const LOCK = `INSERT INTO preregistrations (experiment_id, version, plan_json, snapshot_json, reason, locked_at, sha256)
  VALUES (1, ?, '{"confirmatory":["a"]}', '{"items":4}', ?, '2026-01-01T00:00:00.000Z', ?)`;

describe('migration 12: preregistrations', () => {
  it('keeps every experiment as it was and adds an empty table', () => {
    const db = storeAtVersion11();
    const before = db.prepare('SELECT * FROM experiments').all();
    expect(migrate(db)).toEqual(migrations.filter((m) => m.version > 11).map((m) => m.version));
    expect(db.prepare('SELECT * FROM experiments').all()).toEqual(before);
    expect(db.prepare('SELECT COUNT(*) AS n FROM preregistrations').get()).toEqual({ n: 0 });
  });

  it('never updates a lock, wants a reason for a later version, and goes with its experiment', () => {
    const db = storeAtVersion11();
    migrate(db);
    db.prepare(LOCK).run(1, null, 'a'.repeat(64));
    expect(() => db.prepare("UPDATE preregistrations SET plan_json = '{}'").run()).toThrow(/never edited/);
    expect(() => db.prepare(LOCK).run(2, null, 'b'.repeat(64))).toThrow(/CHECK/);
    expect(() => db.prepare(LOCK).run(2, '  ', 'b'.repeat(64))).toThrow(/CHECK/);
    expect(() => db.prepare(LOCK).run(1, 'again', 'b'.repeat(64))).toThrow(/UNIQUE|PRIMARY/);
    expect(() => db.prepare(LOCK).run(2, 'why', 'short')).toThrow(/CHECK/);
    db.prepare(LOCK).run(2, 'why', 'b'.repeat(64));
    expect(db.prepare('SELECT version, reason FROM preregistrations ORDER BY version').all()).toEqual([
      { version: 1, reason: null },
      { version: 2, reason: 'why' },
    ]);
    db.prepare('DELETE FROM experiments WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM preregistrations').get()).toEqual({ n: 0 });
  });
});

import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/store/db';
import { appliedVersions, migrate, migrations } from '../../src/main/store/migrations';
import { tempDir } from '../helpers/tmp';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

function freshFile(): string {
  const t = tempDir();
  cleanup = t.cleanup;
  return join(t.dir, 'store.sqlite');
}

function tables(db: BetterSqlite3.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all() as { name: string }[]
  ).map((r) => r.name);
}

describe('store migrations on a real file', () => {
  it('opens a new file in WAL mode with foreign keys and every migration applied', () => {
    const file = freshFile();
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(appliedVersions(db)).toEqual(migrations.map((m) => m.version));
    db.close();
  });

  it('migration 1 creates datasets and items with a label check and cascade delete', () => {
    const db = new BetterSqlite3(freshFile());
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 1));
    expect(tables(db)).toEqual(expect.arrayContaining(['datasets', 'items', 'schema_migrations']));
    expect(tables(db)).not.toContain('requests');
    db.prepare(
      "INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'f', 'csv', 'h')",
    ).run();
    const insert = db.prepare(
      "INSERT INTO items (dataset_id, source_id, position, instruction, output_1, output_2, label) VALUES (1, ?, 1, 'i', 'a', 'b', ?)",
    );
    insert.run('x', 1);
    expect(() => insert.run('y', 3)).toThrow(/CHECK constraint/);
    expect(() => insert.run('x', 2)).toThrow(/UNIQUE/);
    db.prepare('DELETE FROM datasets WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM items').get()).toEqual({ n: 0 });
    db.close();
  });

  it('migration 2 adds experiments, the request ledger and variants on top of data from 1 (4 replaces its judgments)', () => {
    const file = freshFile();
    const db = new BetterSqlite3(file);
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 1));
    db.prepare(
      "INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'f', 'csv', 'h')",
    ).run();
    expect(migrate(db)).toEqual(migrations.slice(1).map((m) => m.version));
    expect(tables(db)).toEqual(
      expect.arrayContaining(['experiments', 'requests', 'experiment_tasks', 'variants', 'task_results']),
    );
    expect(tables(db)).not.toContain('judgments');
    expect(db.prepare('SELECT COUNT(*) AS n FROM datasets').get()).toEqual({ n: 1 });
    const req = db.prepare(
      "INSERT INTO requests (hash, endpoint, model, request_json) VALUES ('h1', 'e', 'm', '{}')",
    );
    req.run();
    expect(() => req.run()).toThrow(/UNIQUE/);
    expect(() => db.prepare("UPDATE requests SET status = 'lost'").run()).toThrow(/CHECK constraint/);
    db.close();
  });

  it('migration 4 carries each stored judgment over to its slot in task_results', () => {
    const file = freshFile();
    const db = new BetterSqlite3(file);
    db.pragma('foreign_keys = ON');
    // A store as the previous release left it: plan, ledger and materialized judgments.
    migrate(
      db,
      migrations.filter((m) => m.version <= 2),
    );
    db.exec(`
      INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'f', 'csv', 'h');
      INSERT INTO items (id, dataset_id, source_id, position, instruction, output_1, output_2, label)
        VALUES (7, 1, 'x', 1, 'i', 'a', 'b', 1);
      INSERT INTO experiments (id, name, protocol, dataset_id, config_json) VALUES (1, 'e', 'judge-ls', 1, '{}');
      INSERT INTO requests (id, hash, endpoint, model, request_json, status, attempts)
        VALUES (10, 'h10', 'e', 'm', '{}', 'done', 1), (11, 'h11', 'e', 'm', '{}', 'failed', 3);
      INSERT INTO experiment_tasks (experiment_id, task_key, stage, request_id, meta_json) VALUES
        (1, 'J:x:quality:EN:orig', 'judge', 10, '{"judge":"J","itemId":7,"kind":"quality","language":"EN","order":"orig"}'),
        (1, 'J:x:quality:EN:swap', 'judge', 11, '{"judge":"J","itemId":7,"kind":"quality","language":"EN","order":"swap"}');
      INSERT INTO judgments (experiment_id, judge, item_id, kind, language, ord, request_id, status, winner,
                             confidence, reason, failure_reason, attempts) VALUES
        (1, 'J', 7, 'quality', 'EN', 'orig', 10, 'ok', 'A', 0.5, 'because', NULL, 1),
        (1, 'J', 7, 'quality', 'EN', 'swap', 11, 'failed', NULL, NULL, NULL, 'timeout', 3);
    `);
    expect(migrate(db)).toEqual(migrations.filter((m) => m.version > 2).map((m) => m.version));
    const rows = db
      .prepare(
        'SELECT task_key, stage, request_id, status, value_json, reason, attempts FROM task_results ORDER BY task_key',
      )
      .all();
    expect(rows).toEqual([
      {
        task_key: 'J:x:quality:EN:orig',
        stage: 'judge',
        request_id: 10,
        status: 'ok',
        value_json: '{"winner":"A","confidence":0.5,"reason":"because"}',
        reason: null,
        attempts: 1,
      },
      {
        task_key: 'J:x:quality:EN:swap',
        stage: 'judge',
        request_id: 11,
        status: 'failed',
        value_json: null,
        reason: 'timeout',
        attempts: 3,
      },
    ]);
    db.close();
  });

  it('is idempotent: reopening runs nothing and keeps data', () => {
    const file = freshFile();
    const db = openDatabase(file);
    db.prepare(
      "INSERT INTO datasets (name, source_file, format, content_hash) VALUES ('d', 'f', 'csv', 'h')",
    ).run();
    db.close();
    const again = openDatabase(file);
    expect(migrate(again)).toEqual([]);
    expect(again.prepare('SELECT COUNT(*) AS n FROM datasets').get()).toEqual({ n: 1 });
    again.close();
  });

  it('rolls back a failing migration entirely and records nothing for it', () => {
    const db = new BetterSqlite3(freshFile());
    const broken = [
      ...migrations,
      { version: 999, name: 'broken', up: 'CREATE TABLE half (x INT); SELECT * FROM nope;' },
    ];
    expect(() => migrate(db, broken)).toThrow(/no such table/);
    expect(tables(db)).not.toContain('half');
    expect(appliedVersions(db)).not.toContain(999);
    db.close();
  });
});

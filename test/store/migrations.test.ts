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

  it('migration 2 adds experiments, the request ledger, variants and judgments on top of data from 1', () => {
    const file = freshFile();
    const db = new BetterSqlite3(file);
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 1));
    db.prepare(
      "INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'f', 'csv', 'h')",
    ).run();
    expect(migrate(db)).toEqual(migrations.slice(1).map((m) => m.version));
    expect(tables(db)).toEqual(
      expect.arrayContaining(['experiments', 'requests', 'experiment_tasks', 'variants', 'judgments']),
    );
    expect(db.prepare('SELECT COUNT(*) AS n FROM datasets').get()).toEqual({ n: 1 });
    const req = db.prepare(
      "INSERT INTO requests (hash, endpoint, model, request_json) VALUES ('h1', 'e', 'm', '{}')",
    );
    req.run();
    expect(() => req.run()).toThrow(/UNIQUE/);
    expect(() => db.prepare("UPDATE requests SET status = 'lost'").run()).toThrow(/CHECK constraint/);
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

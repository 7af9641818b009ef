// Migration 5 rebuilds `items` (SQLite cannot drop a CHECK in place) so datasets of other kinds
// than pairwise can be stored. Checked on a real file holding data from version 4.
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedVersions, migrate, migrations } from '../../src/main/store/migrations';
import { storeAtVersion } from '../helpers/store-at-version';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

function storeAtVersion4(): BetterSqlite3.Database {
  const store = storeAtVersion(4);
  cleanup = store.cleanup;
  const db = store.db;
  db.prepare(
    "INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (7, 'd', 'f.jsonl', 'llmbar-jsonl', 'h')",
  ).run();
  const ins = db.prepare(
    `INSERT INTO items (id, dataset_id, source_id, position, subset, instruction, output_1, output_2, label)
     VALUES (?, 7, ?, ?, 'Natural', 'instr', 'one', 'two', ?)`,
  );
  ins.run(41, 'a-1', 1, 1);
  ins.run(97, 'a-2', 2, 2);
  db.prepare(
    "INSERT INTO experiments (id, name, protocol, dataset_id, config_json) VALUES (3, 'e', 'judge-ls', 7, '{}')",
  ).run();
  db.prepare(
    "INSERT INTO variants (experiment_id, item_id, language, instruction, output_1, output_2) VALUES (3, 97, 'ZH', 'i', 'a', 'b')",
  ).run();
  return db;
}

describe('migration 5: dataset kinds', () => {
  it('keeps every item with its id, marks old datasets pairwise and keeps references to items', () => {
    const db = storeAtVersion4();
    // Migration 5 alone: later migrations run on top of it and have tests of their own.
    expect(
      migrate(
        db,
        migrations.filter((m) => m.version <= 5),
      ),
    ).toEqual([5]);
    expect(appliedVersions(db)).toContain(5);
    expect(db.prepare('SELECT kind FROM datasets WHERE id = 7').get()).toEqual({ kind: 'pairwise' });
    expect(db.prepare('SELECT id, source_id, label, extra_json FROM items ORDER BY id').all()).toEqual([
      { id: 41, source_id: 'a-1', label: 1, extra_json: null },
      { id: 97, source_id: 'a-2', label: 2, extra_json: null },
    ]);
    expect(db.prepare('SELECT item_id FROM variants').get()).toEqual({ item_id: 97 });
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // the variants table still points at the rebuilt items table
    expect(() =>
      db
        .prepare(
          "INSERT INTO variants (experiment_id, item_id, language, instruction, output_1, output_2) VALUES (3, 999, 'LS', 'i', 'a', 'b')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('stores items of other kinds without pairwise fields, but never an item with neither', () => {
    const db = storeAtVersion4();
    migrate(db);
    db.prepare(
      "INSERT INTO datasets (id, name, source_file, format, content_hash, kind) VALUES (8, 'qa', 'q.jsonl', 'llmbar-jsonl', 'h2', 'qa')",
    ).run();
    const ins = db.prepare(
      `INSERT INTO items (dataset_id, source_id, position, instruction, output_1, output_2, label, extra_json)
       VALUES (8, ?, 1, 'Who?', ?, ?, ?, ?)`,
    );
    ins.run('q1', null, null, null, JSON.stringify({ answers: ['x'], language: 'en' }));
    expect(() => ins.run('q2', null, null, null, null)).toThrow(/CHECK constraint/);
    expect(() => ins.run('q3', 'a', 'b', 3, null)).toThrow(/CHECK constraint/);
    expect(() => ins.run('q4', null, null, null, '{not json')).toThrow(/CHECK constraint/);
    db.prepare('DELETE FROM datasets WHERE id = 8').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM items WHERE dataset_id = 8').get()).toEqual({ n: 0 });
    db.close();
  });

  it('rolls back as a whole when a reference would break (nothing half-written)', () => {
    const db = storeAtVersion4();
    // A dangling reference made while foreign keys were off: the check before commit finds it.
    db.pragma('foreign_keys = OFF');
    db.prepare(
      "INSERT INTO variants (experiment_id, item_id, language, instruction, output_1, output_2) VALUES (3, 12345, 'LS', 'i', 'a', 'b')",
    ).run();
    db.pragma('foreign_keys = ON');
    expect(() => migrate(db)).toThrow(/migration 5 would break 1 reference/);
    expect(appliedVersions(db)).not.toContain(5);
    const cols = (db.prepare('PRAGMA table_info(items)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).not.toContain('extra_json');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });
});

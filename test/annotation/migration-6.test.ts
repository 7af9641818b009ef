// Migration 6 (human ratings) on a real file: applied on top of a store at version 5 with data,
// a label needs a value unless skipped, one row per (set, unit, annotator), and deleting a set or
// its experiment takes its items and labels along.
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/main/store/migrations';
import { tempDir } from '../helpers/tmp';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

describe('migration 6: annotators, annotation sets, items, labels, calibration mappings', () => {
  it('applies over version 5 with data and enforces its constraints', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const db = new BetterSqlite3(join(t.dir, 'store.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      migrations.filter((m) => m.version <= 5),
    );
    db.exec(`INSERT INTO datasets (id, name, source_file, format, content_hash) VALUES (1, 'd', 'f', 'csv', 'h');
             INSERT INTO experiments (id, name, protocol, dataset_id, config_json) VALUES (1, 'e', 'p', 1, '{}');`);
    expect(migrate(db)[0]).toBe(6); // later migrations run after it
    db.exec(`INSERT INTO annotators (id, name) VALUES (1, 'alice');
             INSERT INTO annotation_sets (id, uid, name, experiment_id, scale_json, seed) VALUES (1, 'u', 's', 1, '{"kind":"preference"}', 1);
             INSERT INTO annotation_items (set_id, position, item_key, unit_uid, view_json) VALUES (1, 0, 'k1', 'x1', '{}');`);
    const label = db.prepare(
      'INSERT INTO annotation_labels (set_id, item_key, annotator_id, value_json, skipped) VALUES (?, ?, ?, ?, ?)',
    );
    expect(() => label.run(1, 'k1', 1, null, 0)).toThrow(/CHECK constraint failed/);
    expect(() => label.run(1, 'nope', 1, '"1"', 0)).toThrow(/FOREIGN KEY constraint failed/);
    label.run(1, 'k1', 1, '"1"', 0);
    expect(() => label.run(1, 'k1', 1, '"2"', 0)).toThrow(/UNIQUE constraint failed/);
    db.exec('DELETE FROM experiments WHERE id = 1');
    for (const table of ['annotation_sets', 'annotation_items', 'annotation_labels'])
      expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT name FROM annotators').all()).toEqual([{ name: 'alice' }]);
    db.close();
  });
});

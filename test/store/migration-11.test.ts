// Migration 11 (annotation guidelines and adjudication, issue 26 item 5) on a real file holding
// people's labels from version 10: every label stays as it was, made under no recorded guidelines
// (NULL, not a version it never saw), and the new tables start empty and hold what they should.
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/main/store/migrations';
import { storeAtVersion } from '../helpers/store-at-version';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

function storeAtVersion10(): BetterSqlite3.Database {
  const store = storeAtVersion(10);
  cleanup = store.cleanup;
  const db = store.db;
  db.exec(`
    INSERT INTO annotators (id, name) VALUES (1, 'Ana'), (2, 'Bo');
    INSERT INTO annotation_sets (id, uid, name, scale_json, seed) VALUES (1, 'u1', 'pilot', '{"kind":"preference"}', 7);
    INSERT INTO annotation_items (set_id, position, item_key, unit_uid, view_json)
      VALUES (1, 0, 'k1', 'unit-1', '{}'), (1, 1, 'k2', 'unit-2', '{}');
    INSERT INTO annotation_labels (set_id, item_key, annotator_id, value_json, comment)
      VALUES (1, 'k1', 1, '"A"', 'clear'), (1, 'k1', 2, '"B"', NULL);
    INSERT INTO annotation_labels (set_id, item_key, annotator_id, value_json, skipped) VALUES (1, 'k2', 1, NULL, 1);
  `);
  return db;
}

describe('migration 11: annotation guidelines and adjudication', () => {
  it('keeps every label as it was, with no guidelines version, and adds empty tables', () => {
    const db = storeAtVersion10();
    const before = db
      .prepare(
        'SELECT set_id, item_key, annotator_id, value_json, skipped, comment FROM annotation_labels ORDER BY item_key, annotator_id',
      )
      .all();
    expect(migrate(db)).toEqual(migrations.filter((m) => m.version > 10).map((m) => m.version));
    const after = db
      .prepare(
        'SELECT set_id, item_key, annotator_id, value_json, skipped, comment, guidelines_version FROM annotation_labels ORDER BY item_key, annotator_id',
      )
      .all() as Record<string, unknown>[];
    expect(after.map(({ guidelines_version: _, ...rest }) => rest)).toEqual(before);
    expect(after.every((r) => r.guidelines_version === null)).toBe(true);
    expect(db.prepare('SELECT COUNT(*) AS n FROM annotation_guidelines').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM annotation_adjudications').get()).toEqual({ n: 0 });
  });

  it('refuses a guidelines version below 1 and an adjudication of an item the set does not have; a deleted set takes both along', () => {
    const db = storeAtVersion10();
    migrate(db);
    expect(() =>
      db.prepare("INSERT INTO annotation_guidelines (set_id, version, text) VALUES (1, 0, 'x')").run(),
    ).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO annotation_adjudications (set_id, item_key, value_json, adjudicator) VALUES (1, 'nope', '"A"', 'Cy')`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare(
      "INSERT INTO annotation_guidelines (set_id, version, text) VALUES (1, 1, 'Prefer the correct answer.')",
    ).run();
    db.prepare(
      `INSERT INTO annotation_adjudications (set_id, item_key, value_json, adjudicator) VALUES (1, 'k1', '"A"', 'Cy')`,
    ).run();
    db.prepare('DELETE FROM annotation_sets WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM annotation_guidelines').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM annotation_adjudications').get()).toEqual({ n: 0 });
  });
});

// The human-rating tables of migration 6 (DESIGN.md section 5d). Repositories take the database
// handle; every write that belongs together is one transaction, and a label is one statement
// (so a label given is a committed row, whatever happens next).
import type { AnnotationView, RatingScale, RatingValue } from '../../shared/annotation/types';
import type { Database } from '../store/db';

export interface SetRow {
  id: number;
  uid: string;
  name: string;
  experimentId: number | null;
  scale: RatingScale;
  seed: number;
  strata: StratumCount[];
  createdAt: string;
}

export interface StratumCount {
  stratum: string;
  available: number;
  sampled: number;
}

export interface SetItemRow {
  position: number;
  itemKey: string;
  unitUid: string;
  itemId: number | null;
  category: string | null;
  stratum: string | null;
  view: AnnotationView;
}

export interface LabelRow {
  itemKey: string;
  annotatorId: number;
  annotator: string;
  value: RatingValue | null;
  skipped: boolean;
  comment: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewLabel {
  itemKey: string;
  annotatorId: number;
  value: RatingValue | null;
  skipped: boolean;
  comment: string | null;
}

interface RawSet {
  id: number;
  uid: string;
  name: string;
  experiment_id: number | null;
  scale_json: string;
  seed: number;
  strata_json: string;
  created_at: string;
}

const toSet = (r: RawSet): SetRow => ({
  id: r.id,
  uid: r.uid,
  name: r.name,
  experimentId: r.experiment_id,
  scale: JSON.parse(r.scale_json) as RatingScale,
  seed: r.seed,
  strata: JSON.parse(r.strata_json) as StratumCount[],
  createdAt: r.created_at,
});

export function annotatorId(db: Database, name: string): number | null {
  const row = db.prepare('SELECT id FROM annotators WHERE name = ?').get(name) as { id: number } | undefined;
  return row?.id ?? null;
}

/** The annotator's id, creating the profile on first use. */
export function ensureAnnotator(db: Database, name: string): number {
  db.prepare('INSERT OR IGNORE INTO annotators (name) VALUES (?)').run(name);
  return annotatorId(db, name)!;
}

export function listAnnotators(db: Database): { id: number; name: string; createdAt: string }[] {
  return db
    .prepare('SELECT id, name, created_at AS createdAt FROM annotators ORDER BY name COLLATE NOCASE')
    .all() as { id: number; name: string; createdAt: string }[];
}

export function insertSet(
  db: Database,
  set: Omit<SetRow, 'id' | 'createdAt'>,
  items: readonly Omit<SetItemRow, 'position'>[],
): number {
  return db.transaction(() => {
    const id = Number(
      db
        .prepare(
          `INSERT INTO annotation_sets (uid, name, experiment_id, scale_json, seed, strata_json)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(
          set.uid,
          set.name,
          set.experimentId,
          JSON.stringify(set.scale),
          set.seed,
          JSON.stringify(set.strata),
        ).lastInsertRowid,
    );
    const add = db.prepare(
      `INSERT INTO annotation_items (set_id, position, item_key, unit_uid, item_id, category, stratum, view_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    items.forEach((it, i) =>
      add.run(id, i, it.itemKey, it.unitUid, it.itemId, it.category, it.stratum, JSON.stringify(it.view)),
    );
    return id;
  })();
}

export function getSet(db: Database, setId: number): SetRow | null {
  const r = db.prepare('SELECT * FROM annotation_sets WHERE id = ?').get(setId) as RawSet | undefined;
  return r ? toSet(r) : null;
}

export function getSetByUid(db: Database, uid: string): SetRow | null {
  const r = db.prepare('SELECT * FROM annotation_sets WHERE uid = ?').get(uid) as RawSet | undefined;
  return r ? toSet(r) : null;
}

export function listSets(db: Database, experimentId?: number): SetRow[] {
  const rows = (
    experimentId === undefined
      ? db.prepare('SELECT * FROM annotation_sets ORDER BY id').all()
      : db.prepare('SELECT * FROM annotation_sets WHERE experiment_id = ? ORDER BY id').all(experimentId)
  ) as RawSet[];
  return rows.map(toSet);
}

export function deleteSet(db: Database, setId: number): boolean {
  return db.transaction(() => {
    db.prepare('DELETE FROM annotation_labels WHERE set_id = ?').run(setId);
    return db.prepare('DELETE FROM annotation_sets WHERE id = ?').run(setId).changes > 0;
  })();
}

export function setItems(db: Database, setId: number): SetItemRow[] {
  return (
    db
      .prepare(
        `SELECT position, item_key, unit_uid, item_id, category, stratum, view_json
         FROM annotation_items WHERE set_id = ? ORDER BY position`,
      )
      .all(setId) as {
      position: number;
      item_key: string;
      unit_uid: string;
      item_id: number | null;
      category: string | null;
      stratum: string | null;
      view_json: string;
    }[]
  ).map((r) => ({
    position: r.position,
    itemKey: r.item_key,
    unitUid: r.unit_uid,
    itemId: r.item_id,
    category: r.category,
    stratum: r.stratum,
    view: JSON.parse(r.view_json) as AnnotationView,
  }));
}

export function labelsOf(db: Database, setId: number, annotator?: number): LabelRow[] {
  const sql = `SELECT l.item_key, l.annotator_id, a.name, l.value_json, l.skipped, l.comment, l.created_at, l.updated_at
     FROM annotation_labels l JOIN annotators a ON a.id = l.annotator_id
     WHERE l.set_id = ?${annotator === undefined ? '' : ' AND l.annotator_id = ?'}
     ORDER BY a.name, l.item_key`;
  const rows = (
    annotator === undefined ? db.prepare(sql).all(setId) : db.prepare(sql).all(setId, annotator)
  ) as {
    item_key: string;
    annotator_id: number;
    name: string;
    value_json: string | null;
    skipped: number;
    comment: string | null;
    created_at: string;
    updated_at: string;
  }[];
  return rows.map((r) => ({
    itemKey: r.item_key,
    annotatorId: r.annotator_id,
    annotator: r.name,
    value: r.value_json === null ? null : (JSON.parse(r.value_json) as RatingValue),
    skipped: r.skipped === 1,
    comment: r.comment,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

const UPSERT = `INSERT INTO annotation_labels (set_id, item_key, annotator_id, value_json, skipped, comment)
  VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (set_id, item_key, annotator_id) DO UPDATE SET
    value_json = excluded.value_json, skipped = excluded.skipped, comment = excluded.comment,
    updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`;

/** Stores (or replaces) one annotator's label of one unit: one statement, committed at once. */
export function saveLabel(db: Database, setId: number, label: NewLabel): void {
  db.prepare(UPSERT).run(
    setId,
    label.itemKey,
    label.annotatorId,
    label.value === null ? null : JSON.stringify(label.value),
    label.skipped ? 1 : 0,
    label.comment,
  );
}

/** Stores many labels all-or-nothing (imports). */
export function saveLabels(db: Database, setId: number, labels: readonly NewLabel[]): void {
  db.transaction(() => {
    for (const l of labels) saveLabel(db, setId, l);
  })();
}

/**
 * Records a calibration mapping as applied (its knots, line and CV figures, the judge and a hash
 * of the rubric it is valid for), so a calibrated score can be traced to the mapping behind it.
 * The same mapping for the same judge and rubric is stored once; returns its id.
 */
export function recordMapping(
  db: Database,
  m: { setId: number; judge: string; protocol: string; rubricHash: string; mapping: unknown },
): number {
  const json = JSON.stringify(m.mapping);
  const found = db
    .prepare(
      `SELECT id FROM calibration_mappings
       WHERE set_id = ? AND judge = ? AND protocol = ? AND rubric_hash = ? AND mapping_json = ?`,
    )
    .get(m.setId, m.judge, m.protocol, m.rubricHash, json) as { id: number } | undefined;
  if (found) return found.id;
  return Number(
    db
      .prepare(
        'INSERT INTO calibration_mappings (set_id, judge, protocol, rubric_hash, mapping_json) VALUES (?, ?, ?, ?, ?)',
      )
      .run(m.setId, m.judge, m.protocol, m.rubricHash, json).lastInsertRowid,
  );
}

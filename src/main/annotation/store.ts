// The human-rating tables of migrations 6 and 11 (DESIGN.md section 5d). Repositories take the database
// handle; every write that belongs together is one transaction, and a label is one statement
// (so a label given is a committed row, whatever happens next).
import type { AnnotationView, RatingScale, RatingValue } from '../../shared/annotation/types';
import type { AnnotationSetSummary } from '../../shared/annotation/api-types';
import type { Database } from '../store/db';
import { prepared } from '../store/statements';
import type { LeastSureCriterion } from '../../shared/annotation/least-sure';

/** A set as stored: the summary's identity fields, its strata's counts and when it was drawn. */
export interface SetRow extends Pick<
  AnnotationSetSummary,
  'id' | 'uid' | 'name' | 'experimentId' | 'scale' | 'seed'
> {
  strata: StratumCount[];
  createdAt: string;
}

export interface StratumCount {
  stratum: string;
  available: number;
  sampled: number;
  /** In a set of the judge's least-sure units: the criterion this stratum counts. */
  criterion?: LeastSureCriterion;
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
  /** The guidelines version shown when the label was given (null: the set had none). */
  guidelinesVersion: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewLabel {
  itemKey: string;
  annotatorId: number;
  value: RatingValue | null;
  skipped: boolean;
  comment: string | null;
  /** Left out: the set's current guidelines version (what the annotator was shown); null: none. */
  guidelinesVersion?: number | null;
  /** When the label was made (ISO 8601), for labels carried in from a package; left out: now. */
  updatedAt?: string | null;
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
  const row = prepared(db, 'SELECT id FROM annotators WHERE name = ?').get(name) as
    { id: number } | undefined;
  return row?.id ?? null;
}

/** The annotator's id, creating the profile on first use. */
export function ensureAnnotator(db: Database, name: string): number {
  prepared(db, 'INSERT OR IGNORE INTO annotators (name) VALUES (?)').run(name);
  return annotatorId(db, name)!;
}

export function listAnnotators(db: Database): { id: number; name: string; createdAt: string }[] {
  return prepared(
    db,
    'SELECT id, name, created_at AS createdAt FROM annotators ORDER BY name COLLATE NOCASE',
  ).all() as { id: number; name: string; createdAt: string }[];
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
    const add = prepared(
      db,
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
  const r = prepared(db, 'SELECT * FROM annotation_sets WHERE id = ?').get(setId) as RawSet | undefined;
  return r ? toSet(r) : null;
}

export function getSetByUid(db: Database, uid: string): SetRow | null {
  const r = prepared(db, 'SELECT * FROM annotation_sets WHERE uid = ?').get(uid) as RawSet | undefined;
  return r ? toSet(r) : null;
}

export function listSets(db: Database, experimentId?: number): SetRow[] {
  const rows = (
    experimentId === undefined
      ? prepared(db, 'SELECT * FROM annotation_sets ORDER BY id').all()
      : prepared(db, 'SELECT * FROM annotation_sets WHERE experiment_id = ? ORDER BY id').all(experimentId)
  ) as RawSet[];
  return rows.map(toSet);
}

export function deleteSet(db: Database, setId: number): boolean {
  return db.transaction(() => {
    prepared(db, 'DELETE FROM annotation_labels WHERE set_id = ?').run(setId);
    prepared(db, 'DELETE FROM annotation_adjudications WHERE set_id = ?').run(setId);
    return prepared(db, 'DELETE FROM annotation_sets WHERE id = ?').run(setId).changes > 0;
  })();
}

interface RawItem {
  position: number;
  item_key: string;
  unit_uid: string;
  item_id: number | null;
  category: string | null;
  stratum: string | null;
  view_json: string;
}
const ITEM_COLUMNS = 'position, item_key, unit_uid, item_id, category, stratum, view_json';

const toItem = (r: RawItem): SetItemRow => ({
  position: r.position,
  itemKey: r.item_key,
  unitUid: r.unit_uid,
  itemId: r.item_id,
  category: r.category,
  stratum: r.stratum,
  view: JSON.parse(r.view_json) as AnnotationView,
});

export function setItems(db: Database, setId: number): SetItemRow[] {
  const rows = prepared(
    db,
    `SELECT ${ITEM_COLUMNS} FROM annotation_items WHERE set_id = ? ORDER BY position`,
  ).all(setId) as RawItem[];
  return rows.map(toItem);
}

/** One unit of a set by its blinded id (a label given in a session), without reading the others. */
export function setItemByUid(db: Database, setId: number, unitUid: string): SetItemRow | null {
  const r = prepared(
    db,
    `SELECT ${ITEM_COLUMNS} FROM annotation_items WHERE set_id = ? AND unit_uid = ?`,
  ).get(setId, unitUid) as RawItem | undefined;
  return r ? toItem(r) : null;
}

export function setItemCount(db: Database, setId: number): number {
  return prepared(db, 'SELECT count(*) FROM annotation_items WHERE set_id = ?').pluck().get(setId) as number;
}

interface RawLabel {
  item_key: string;
  annotator_id: number;
  name: string;
  value_json: string | null;
  skipped: number;
  comment: string | null;
  guidelines_version: number | null;
  created_at: string;
  updated_at: string;
}
const LABEL_COLUMNS = `l.item_key, l.annotator_id, a.name, l.value_json, l.skipped, l.comment, l.guidelines_version,
       l.created_at, l.updated_at`;

const toLabel = (r: RawLabel): LabelRow => ({
  itemKey: r.item_key,
  annotatorId: r.annotator_id,
  annotator: r.name,
  value: r.value_json === null ? null : (JSON.parse(r.value_json) as RatingValue),
  skipped: r.skipped === 1,
  comment: r.comment,
  guidelinesVersion: r.guidelines_version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function labelsOf(db: Database, setId: number, annotator?: number): LabelRow[] {
  const sql = `SELECT ${LABEL_COLUMNS}
     FROM annotation_labels l JOIN annotators a ON a.id = l.annotator_id
     WHERE l.set_id = ?${annotator === undefined ? '' : ' AND l.annotator_id = ?'}
     ORDER BY a.name, l.item_key`;
  const rows = (
    annotator === undefined ? prepared(db, sql).all(setId) : prepared(db, sql).all(setId, annotator)
  ) as RawLabel[];
  return rows.map(toLabel);
}

/** One annotator's label of one unit, or null. */
export function labelOf(db: Database, setId: number, itemKey: string, annotator: number): LabelRow | null {
  const r = prepared(
    db,
    `SELECT ${LABEL_COLUMNS} FROM annotation_labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.set_id = ? AND l.item_key = ? AND l.annotator_id = ?`,
  ).get(setId, itemKey, annotator) as RawLabel | undefined;
  return r ? toLabel(r) : null;
}

/** One annotator's units rated and skipped in a set. */
export function annotatorCounts(
  db: Database,
  setId: number,
  annotator: number,
): { labelled: number; skipped: number } {
  const r = prepared(
    db,
    `SELECT coalesce(sum(skipped = 0), 0) AS labelled, coalesce(sum(skipped = 1), 0) AS skipped
       FROM annotation_labels WHERE set_id = ? AND annotator_id = ?`,
  ).get(setId, annotator) as { labelled: number; skipped: number };
  return { labelled: r.labelled, skipped: r.skipped };
}

// `updated_at` is the label's own time when it has one (an imported package's), else now: an
// old label carried in must not look newer than it is.
const UPSERT = `INSERT INTO annotation_labels (set_id, item_key, annotator_id, value_json, skipped, comment, guidelines_version, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, COALESCE(?, strftime('%Y-%m-%dT%H:%M:%fZ','now')))
  ON CONFLICT (set_id, item_key, annotator_id) DO UPDATE SET
    value_json = excluded.value_json, skipped = excluded.skipped, comment = excluded.comment,
    guidelines_version = excluded.guidelines_version,
    updated_at = excluded.updated_at`;

/** Stores (or replaces) one annotator's label of one unit: one statement, committed at once. */
export function saveLabel(db: Database, setId: number, label: NewLabel): void {
  prepared(db, UPSERT).run(
    setId,
    label.itemKey,
    label.annotatorId,
    label.value === null ? null : JSON.stringify(label.value),
    label.skipped ? 1 : 0,
    label.comment,
    label.guidelinesVersion !== undefined
      ? label.guidelinesVersion
      : (
          prepared(db, 'SELECT MAX(version) AS v FROM annotation_guidelines WHERE set_id = ?').get(setId) as {
            v: number | null;
          }
        ).v,
    label.updatedAt ?? null,
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
  const found = prepared(
    db,
    `SELECT id FROM calibration_mappings
       WHERE set_id = ? AND judge = ? AND protocol = ? AND rubric_hash = ? AND mapping_json = ?`,
  ).get(m.setId, m.judge, m.protocol, m.rubricHash, json) as { id: number } | undefined;
  if (found) return found.id;
  return Number(
    db
      .prepare(
        'INSERT INTO calibration_mappings (set_id, judge, protocol, rubric_hash, mapping_json) VALUES (?, ?, ?, ?, ?)',
      )
      .run(m.setId, m.judge, m.protocol, m.rubricHash, json).lastInsertRowid,
  );
}

export interface GuidelinesRow {
  version: number;
  text: string;
  createdAt: string;
}

/** Every version of the set's guidelines, oldest first. */
export function guidelinesOf(db: Database, setId: number): GuidelinesRow[] {
  return prepared(
    db,
    `SELECT version, text, created_at AS createdAt FROM annotation_guidelines
       WHERE set_id = ? ORDER BY version`,
  ).all(setId) as GuidelinesRow[];
}

/**
 * Stores `text` as the set's next guidelines version, unless it is the current text already
 * (saving unchanged guidelines makes no version). Returns the current version.
 */
export function addGuidelines(db: Database, setId: number, text: string, createdAt?: string): GuidelinesRow {
  return db.transaction(() => {
    const all = guidelinesOf(db, setId);
    const last = all.at(-1);
    if (last && last.text === text) return last;
    const version = (last?.version ?? 0) + 1;
    prepared(
      db,
      `INSERT INTO annotation_guidelines (set_id, version, text, created_at)
       VALUES (?, ?, ?, COALESCE(?, strftime('%Y-%m-%dT%H:%M:%fZ','now')))`,
    ).run(setId, version, text, createdAt ?? null);
    return guidelinesOf(db, setId).at(-1)!;
  })();
}

/** Stores a version as it is numbered elsewhere (a package's), when the set lacks it. */
export function putGuidelinesVersion(db: Database, setId: number, g: GuidelinesRow): void {
  prepared(
    db,
    'INSERT OR IGNORE INTO annotation_guidelines (set_id, version, text, created_at) VALUES (?, ?, ?, ?)',
  ).run(setId, g.version, g.text, g.createdAt);
}

export interface AdjudicationRow {
  itemKey: string;
  value: RatingValue;
  adjudicator: string;
  note: string | null;
  createdAt: string;
}

export function adjudicationsOf(db: Database, setId: number): AdjudicationRow[] {
  return (
    db
      .prepare(
        `SELECT item_key, value_json, adjudicator, note, created_at FROM annotation_adjudications
         WHERE set_id = ? ORDER BY item_key`,
      )
      .all(setId) as {
      item_key: string;
      value_json: string;
      adjudicator: string;
      note: string | null;
      created_at: string;
    }[]
  ).map((r) => ({
    itemKey: r.item_key,
    value: JSON.parse(r.value_json) as RatingValue,
    adjudicator: r.adjudicator,
    note: r.note,
    createdAt: r.created_at,
  }));
}

/** Stores (or replaces) the adjudicated label of one item; who and when are kept with it. */
export function saveAdjudication(
  db: Database,
  setId: number,
  a: Omit<AdjudicationRow, 'createdAt'> & { createdAt?: string },
): void {
  prepared(
    db,
    `INSERT INTO annotation_adjudications (set_id, item_key, value_json, adjudicator, note, created_at)
     VALUES (?, ?, ?, ?, ?, COALESCE(?, strftime('%Y-%m-%dT%H:%M:%fZ','now')))
     ON CONFLICT (set_id, item_key) DO UPDATE SET value_json = excluded.value_json,
       adjudicator = excluded.adjudicator, note = excluded.note, created_at = excluded.created_at`,
  ).run(setId, a.itemKey, JSON.stringify(a.value), a.adjudicator, a.note, a.createdAt ?? null);
}

export function clearAdjudication(db: Database, setId: number, itemKey: string): boolean {
  return (
    prepared(db, 'DELETE FROM annotation_adjudications WHERE set_id = ? AND item_key = ?').run(setId, itemKey)
      .changes > 0
  );
}

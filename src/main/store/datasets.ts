import type { DatasetFormat, DatasetKind, DatasetSummary, Item, ItemRow, Label } from '../../shared/domain';
import { extraColumns, previewOf } from '../../shared/dataset-kinds';
import type { Database } from './db';
import { prepared } from './statements';

/** An item as imported: its own fields, before the store gives it an id and a position. */
export type NewItem = Pick<
  Item,
  'sourceId' | 'subset' | 'instruction' | 'output1' | 'output2' | 'label' | 'extra'
>;

export interface NewDataset {
  name: string;
  sourceFile: string;
  format: DatasetFormat;
  /** Default 'pairwise'. */
  kind?: DatasetKind;
  contentHash: string;
  items: NewItem[];
}

const PREVIEW_CHARS = 240;

interface DatasetRow {
  id: number;
  name: string;
  source_file: string;
  format: DatasetFormat;
  kind: DatasetKind;
  content_hash: string;
  created_at: string;
}

function summarize(db: Database, row: DatasetRow): DatasetSummary {
  const subsets = db
    .prepare(
      `SELECT COALESCE(subset, '') AS subset, COUNT(*) AS count FROM items WHERE dataset_id = ?
       GROUP BY subset ORDER BY MIN(position)`,
    )
    .all(row.id) as { subset: string; count: number }[];
  return {
    id: row.id,
    name: row.name,
    sourceFile: row.source_file,
    format: row.format,
    kind: row.kind,
    contentHash: row.content_hash,
    itemCount: subsets.reduce((n, s) => n + s.count, 0),
    subsets,
    createdAt: row.created_at,
  };
}

export function findDatasetByHash(db: Database, contentHash: string): DatasetSummary | undefined {
  const row = db.prepare('SELECT * FROM datasets WHERE content_hash = ?').get(contentHash) as
    DatasetRow | undefined;
  return row && summarize(db, row);
}

export function getDataset(db: Database, id: number): DatasetSummary | undefined {
  const row = db.prepare('SELECT * FROM datasets WHERE id = ?').get(id) as DatasetRow | undefined;
  return row && summarize(db, row);
}

export function listDatasets(db: Database): DatasetSummary[] {
  const rows = db.prepare('SELECT * FROM datasets ORDER BY id').all() as DatasetRow[];
  return rows.map((r) => summarize(db, r));
}

/** Writes a dataset and all its items in one transaction: all or nothing. */
export function insertDataset(db: Database, ds: NewDataset): DatasetSummary {
  const id = db.transaction(() => {
    const info = db
      .prepare('INSERT INTO datasets (name, source_file, format, content_hash, kind) VALUES (?, ?, ?, ?, ?)')
      .run(ds.name, ds.sourceFile, ds.format, ds.contentHash, ds.kind ?? 'pairwise');
    const datasetId = Number(info.lastInsertRowid);
    const ins = db.prepare(
      `INSERT INTO items (dataset_id, source_id, position, subset, instruction, output_1, output_2, label, extra_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    ds.items.forEach((it, i) =>
      ins.run(
        datasetId,
        it.sourceId,
        i + 1,
        it.subset,
        it.instruction,
        it.output1,
        it.output2,
        it.label,
        it.extra == null ? null : JSON.stringify(it.extra),
      ),
    );
    return datasetId;
  })();
  return getDataset(db, id)!;
}

/** Renames a dataset; false when there is no such dataset. */
export function renameDataset(db: Database, id: number, name: string): boolean {
  return db.prepare('UPDATE datasets SET name = ? WHERE id = ?').run(name, id).changes > 0;
}

export function deleteDataset(db: Database, id: number): boolean {
  return db.prepare('DELETE FROM datasets WHERE id = ?').run(id).changes > 0;
}

export interface ItemFilter {
  subset?: string;
  search?: string;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

export function listItems(db: Database, datasetId: number, filter: ItemFilter = {}): ItemRow[] {
  const where = ['dataset_id = ?'];
  const args: (string | number)[] = [datasetId];
  if (filter.subset !== undefined) {
    where.push(filter.subset === '' ? 'subset IS NULL' : 'subset = ?');
    if (filter.subset !== '') args.push(filter.subset);
  }
  const q = filter.search?.trim();
  if (q) {
    const like = `%${escapeLike(q)}%`;
    // Other kinds' own fields (a QA item's answers, a pointwise response) are searched too.
    where.push(
      `(source_id LIKE ? ESCAPE '\\' OR instruction LIKE ? ESCAPE '\\' OR output_1 LIKE ? ESCAPE '\\' OR output_2 LIKE ? ESCAPE '\\' OR extra_json LIKE ? ESCAPE '\\')`,
    );
    args.push(like, like, like, like, like);
  }
  // The columns the dataset's kind shows in its list, read from each item's own fields.
  const kind = (db.prepare('SELECT kind FROM datasets WHERE id = ?').get(datasetId) as { kind?: string })
    ?.kind as DatasetKind | undefined;
  const extras = extraColumns(kind).filter((c) => /^[a-z_]+$/.test(c.field));
  const extraSql = extras
    .map((c, i) =>
      c.shape === 'text'
        ? `, substr(json_extract(extra_json, '$.${c.field}'), 1, ${PREVIEW_CHARS}) AS x${i}`
        : `, json_extract(extra_json, '$.${c.field}') AS x${i}`,
    )
    .join('');
  const rows = db
    .prepare(
      `SELECT id, source_id, subset, label, substr(instruction, 1, ${PREVIEW_CHARS}) AS preview${extraSql}
       FROM items WHERE ${where.join(' AND ')} ORDER BY position`,
    )
    .all(...args) as ({
    id: number;
    source_id: string;
    subset: string | null;
    label: Label | null;
    preview: string;
  } & Record<string, unknown>)[];
  return rows.map((r) => {
    const row: ItemRow = {
      id: r.id,
      sourceId: r.source_id,
      subset: r.subset,
      label: r.label,
      instructionPreview: r.preview,
    };
    if (extras.length === 0) return row;
    const fields: Record<string, string> = {};
    extras.forEach((c, i) => {
      const raw = r[`x${i}`];
      // json_extract hands a list back as its JSON text.
      const value = c.shape === 'list' && typeof raw === 'string' ? parseList(raw) : raw;
      const text = previewOf(value, c.shape);
      if (text !== null) fields[c.field] = text;
    });
    return { ...row, fields };
  });
}

function parseList(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

interface ItemDbRow {
  id: number;
  dataset_id: number;
  source_id: string;
  position: number;
  subset: string | null;
  instruction: string;
  output_1: string | null;
  output_2: string | null;
  label: Label | null;
  extra_json: string | null;
}

function toItem(r: ItemDbRow): Item {
  return {
    id: r.id,
    datasetId: r.dataset_id,
    sourceId: r.source_id,
    position: r.position,
    subset: r.subset,
    instruction: r.instruction,
    output1: r.output_1,
    output2: r.output_2,
    label: r.label,
    extra: r.extra_json === null ? null : (JSON.parse(r.extra_json) as Record<string, unknown>),
  };
}

export function getItem(db: Database, itemId: number): Item | undefined {
  const r = db.prepare('SELECT * FROM items WHERE id = ?').get(itemId) as ItemDbRow | undefined;
  return r && toItem(r);
}

/**
 * The items of the datasets read last, per connection. Every load of an experiment (create, start,
 * each round, each results call) read and rebuilt its whole dataset: a twentieth of a small
 * simulated study's CPU. Items are never changed once imported (no statement updates them), and a
 * dataset's content hash is compared on every read, so a dataset deleted and another imported
 * under its id is read again. The items are frozen, so no caller can change the others' copy.
 */
const KEPT_DATASETS = 2;
const keptItems = new WeakMap<Database, Map<number, { hash: string; items: readonly Item[] }>>();

/** All items of a dataset in file order, full text (protocols plan from these); a new array each call. */
export function allItems(db: Database, datasetId: number): Item[] {
  const hash = prepared(db, 'SELECT content_hash FROM datasets WHERE id = ?').pluck().get(datasetId) as
    string | undefined;
  let kept = keptItems.get(db);
  if (!kept) keptItems.set(db, (kept = new Map()));
  const hit = kept.get(datasetId);
  if (hit && hash !== undefined && hit.hash === hash) {
    // Most recently read last, so the oldest is the one dropped.
    kept.delete(datasetId);
    kept.set(datasetId, hit);
    return [...hit.items];
  }
  const items = (
    db.prepare('SELECT * FROM items WHERE dataset_id = ? ORDER BY position').all(datasetId) as ItemDbRow[]
  ).map((r) => deepFreeze(toItem(r)));
  if (hash === undefined) return items;
  kept.delete(datasetId);
  kept.set(datasetId, { hash, items });
  while (kept.size > KEPT_DATASETS) kept.delete(kept.keys().next().value!);
  return [...items];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

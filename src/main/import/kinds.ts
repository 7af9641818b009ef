// Dataset kinds the importer knows, told apart by the fields records carry. Each kind brings
// its own record schema (pairwise: ./validate.ts, QA: ./qa-record.ts); the readers and the
// importer stay the same for all of them.
import type { DatasetKind, InputIssue } from '../../shared/domain';
import type { NewItem } from '../store/datasets';
import { POINTWISE_COLUMNS, POINTWISE_REQUIRED, validatePointwiseRecords } from './pointwise-record';
import { QA_COLUMNS, QA_REQUIRED, validateQaRecords } from './qa-record';
import { registerKindColumns, unregisterKindColumns, type KindColumn } from '../../shared/dataset-kinds';
import type { SourceRecord } from './record';
import { validateRecords } from './validate';

export interface DatasetKindSpec {
  kind: DatasetKind;
  /**
   * The fields that tell this kind apart from the others (a record holding those of two kinds
   * is refused as ambiguous); the first registered kind whose field a file has is its kind.
   */
  distinctive: readonly string[];
  /** CSV columns read (others are ignored). */
  columns: string[];
  /** The item list's columns (src/shared/dataset-kinds.ts); the app's own kinds have theirs there. */
  listColumns?: KindColumn[];
  /** The fields a person can map a column to, required ones first (the column mapping screen). */
  fields: { field: string; required: boolean }[];
  /** Required CSV columns missing from a header, with a note on accepted alternatives. */
  missingColumns(present: ReadonlySet<string>): { missing: string[]; note: string };
  /** `cellText`: values are CSV cell text (lists written inside one cell). */
  validate(
    file: string,
    records: SourceRecord[],
    opts: { cellText: boolean },
  ): { items: NewItem[]; issues: InputIssue[] };
}

/** Required fields first, then the optional ones (those of `all` not required). */
function fieldList(required: readonly string[], all: readonly string[]): DatasetKindSpec['fields'] {
  return [
    ...required.map((field) => ({ field, required: true })),
    ...all.filter((f) => !required.includes(f)).map((field) => ({ field, required: false })),
  ];
}

const PAIRWISE: DatasetKindSpec = {
  kind: 'pairwise',
  distinctive: ['output_1', 'output_2'],
  columns: ['id', 'subset', 'instruction', 'input', 'output_1', 'output_2', 'label', 'model_1', 'model_2'],
  // "input" is the upstream name of instruction: one field to map, not two.
  fields: fieldList(['instruction', 'output_1', 'output_2', 'label'], ['id', 'subset', 'model_1', 'model_2']),
  missingColumns(present) {
    const missing = ['output_1', 'output_2', 'label'].filter((n) => !present.has(n));
    if (!present.has('instruction') && !present.has('input')) missing.unshift('instruction');
    return { missing, note: missing.includes('instruction') ? ' (or "input")' : '' };
  },
  validate: validateRecords,
};

const QA: DatasetKindSpec = {
  kind: 'qa',
  distinctive: ['question', 'answers'],
  columns: QA_COLUMNS,
  fields: fieldList(QA_REQUIRED, QA_COLUMNS),
  missingColumns: (present) => ({ missing: QA_REQUIRED.filter((n) => !present.has(n)), note: '' }),
  validate: validateQaRecords,
};

const POINTWISE: DatasetKindSpec = {
  kind: 'pointwise',
  distinctive: ['response'],
  columns: POINTWISE_COLUMNS,
  fields: fieldList(POINTWISE_REQUIRED, POINTWISE_COLUMNS),
  missingColumns: (present) => ({ missing: POINTWISE_REQUIRED.filter((n) => !present.has(n)), note: '' }),
  validate: validatePointwiseRecords,
};

const kinds: DatasetKindSpec[] = [PAIRWISE, QA, POINTWISE];

/** Every kind, in the order the column mapping screen offers them (the app's, then registered ones). */
export function datasetKinds(): readonly DatasetKindSpec[] {
  return kinds;
}

/**
 * Adds a kind the importer reads (a study's own data shape): its fields, its distinctive fields,
 * its record check and its list columns. Registered once per process, like a protocol.
 */
export function registerDatasetKind(spec: DatasetKindSpec): void {
  const at = kinds.findIndex((k) => k.kind === spec.kind);
  if (at >= 0) kinds[at] = spec;
  else kinds.push(spec);
  if (spec.listColumns) registerKindColumns(spec.kind, spec.listColumns);
}

export function unregisterDatasetKind(kind: string): void {
  if (kind === 'pairwise' || kind === 'qa' || kind === 'pointwise') return;
  const at = kinds.findIndex((k) => k.kind === kind);
  if (at >= 0) kinds.splice(at, 1);
  unregisterKindColumns(kind);
}

/**
 * The kind a file's field names say: pairwise when they hold a pairwise output; else the first
 * other kind one of whose distinctive fields they hold (QA: `question` or `answers`; pointwise:
 * `response`); pairwise otherwise (its errors then name the pairwise fields, as before kinds).
 */
export function kindOfFields(names: Iterable<string>): DatasetKindSpec {
  const set = new Set(names);
  if (PAIRWISE.distinctive.some((f) => set.has(f))) return PAIRWISE;
  return kinds.find((k) => k !== PAIRWISE && k.distinctive.some((f) => set.has(f))) ?? PAIRWISE;
}

export function kindOfRecords(records: SourceRecord[]): DatasetKindSpec {
  return kindOfFields(records.length > 0 ? Object.keys(records[0].value) : []);
}

/**
 * Why these field names belong to more than one kind (the second kind's field is named), or
 * undefined. Picking one kind silently would drop the other kind's fields without a word.
 */
export function ambiguousKind(names: Iterable<string>): { field: string; message: string } | undefined {
  const set = new Set(names);
  const found = kinds.flatMap((d) => {
    const field = d.distinctive.find((f) => set.has(f));
    return field ? [{ kind: d.kind, field }] : [];
  });
  if (found.length < 2) return undefined;
  const [a, b] = found;
  return {
    field: b.field,
    message:
      `holds fields of two dataset kinds: "${a.field}" (${a.kind}) and "${b.field}" (${b.kind}); ` +
      'a dataset is of one kind: remove the fields of the other',
  };
}

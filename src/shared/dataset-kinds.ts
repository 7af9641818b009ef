// What each dataset kind shows in an item list: its columns, declared once here and read by the
// store (which fills `ItemRow.fields` from the items' own fields) and by the renderer (headers,
// cells, widths). A page never hard-codes a kind's columns (issue 26: QA lists had empty Gold
// and Subset columns and no answers or language).
import type { DatasetKind, ItemRow } from './domain';

/** Where a column's text comes from: a field every item has, or one of the kind's own. */
export type KindColumnSource =
  | { base: 'sourceId' | 'subset' | 'label' | 'instruction' }
  /** A field of `Item.extra`: text (cut to a preview), a list of strings (joined) or a number. */
  | { extra: string; shape: 'text' | 'list' | 'number' };

export interface KindColumn {
  /** The header's key (renderer strings `dataset.columns.<key>`) and the cell's test id. */
  key: string;
  source: KindColumnSource;
  /** CSS grid track of the column. */
  width: string;
  /** Text that may be right to left (questions, answers, responses). */
  text?: boolean;
}

const ID: KindColumn = { key: 'id', source: { base: 'sourceId' }, width: 'minmax(110px, 1.2fr)' };

/** The app's own kinds' columns; a registered kind brings its own (`registerKindColumns`). */
export const DATASET_KINDS: Record<'pairwise' | 'qa' | 'pointwise', { columns: KindColumn[] }> = {
  pairwise: {
    columns: [
      ID,
      { key: 'subset', source: { base: 'subset' }, width: 'minmax(90px, 1fr)' },
      { key: 'gold', source: { base: 'label' }, width: '96px' },
      { key: 'instruction', source: { base: 'instruction' }, width: '5fr', text: true },
    ],
  },
  qa: {
    columns: [
      ID,
      { key: 'language', source: { extra: 'language', shape: 'text' }, width: '84px' },
      { key: 'question', source: { base: 'instruction' }, width: '4fr', text: true },
      { key: 'answers', source: { extra: 'answers', shape: 'list' }, width: '2fr', text: true },
      { key: 'category', source: { base: 'subset' }, width: 'minmax(80px, 1fr)' },
    ],
  },
  pointwise: {
    columns: [
      ID,
      { key: 'category', source: { base: 'subset' }, width: 'minmax(80px, 1fr)' },
      { key: 'instruction', source: { base: 'instruction' }, width: '3fr', text: true },
      { key: 'response', source: { extra: 'response', shape: 'text' }, width: '3fr', text: true },
      { key: 'humanScore', source: { extra: 'human_score', shape: 'number' }, width: '96px' },
    ],
  },
};

const registered = new Map<string, KindColumn[]>(
  Object.entries(DATASET_KINDS).map(([kind, { columns }]) => [kind, columns]),
);

/**
 * A kind a study registered (with its import reader, src/main/import/kinds.ts): its list
 * columns. In a process where it was not registered (the app's pages, which know no main
 * registry) its lists show the columns every item has.
 */
export function registerKindColumns(kind: string, columns: KindColumn[]): void {
  registered.set(kind, columns);
}

export function unregisterKindColumns(kind: string): void {
  if (!(kind in DATASET_KINDS)) registered.delete(kind);
}

/** What every item has: its id, subset and instruction. */
const COMMON: KindColumn[] = [
  ID,
  { key: 'subset', source: { base: 'subset' }, width: 'minmax(90px, 1fr)' },
  { key: 'instruction', source: { base: 'instruction' }, width: '5fr', text: true },
];

/** A summary from before dataset kinds has none: pairwise. */
export function kindColumns(kind: DatasetKind | undefined): KindColumn[] {
  return registered.get(kind ?? 'pairwise') ?? COMMON;
}

/** The kind's own fields the list shows (the store reads only these from each item). */
export function extraColumns(
  kind: DatasetKind | undefined,
): { field: string; shape: 'text' | 'list' | 'number' }[] {
  return kindColumns(kind).flatMap((c) =>
    'extra' in c.source ? [{ field: c.source.extra, shape: c.source.shape }] : [],
  );
}

/** A stored value as its list cell shows it: lists joined with " | ", numbers as written. */
export function previewOf(value: unknown, shape: 'text' | 'list' | 'number'): string | null {
  if (value === null || value === undefined) return null;
  if (shape === 'list' && Array.isArray(value)) return value.map(String).join(' | ');
  return String(value);
}

/** The text of one column of a row (empty when the row has no such value). */
export function cellValue(row: ItemRow, column: KindColumn): string {
  const s = column.source;
  if ('extra' in s) return row.fields?.[s.extra] ?? '';
  if (s.base === 'label') return row.label == null ? '' : String(row.label);
  if (s.base === 'instruction') return row.instructionPreview;
  return row[s.base] ?? '';
}

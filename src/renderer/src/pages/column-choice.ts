// The logic of the column mapping screen, apart from its markup: where a choice starts, what
// still blocks an import, and the preview rows as mapped.
import type { ColumnChoice, DatasetKind } from '../../../shared/domain';

/** Field → chosen column ('' = none yet). */
export type Draft = Record<string, string>;

export function fieldsOf(choice: ColumnChoice, kind: DatasetKind) {
  return choice.kinds.find((k) => k.kind === kind)?.fields ?? [];
}

/**
 * Where the choice starts for a kind: the mapping tried (sent or remembered), else each field
 * taken by a column of the same name.
 */
export function startDraft(choice: ColumnChoice, kind: DatasetKind): Draft {
  const draft: Draft = {};
  for (const { field } of fieldsOf(choice, kind)) {
    const tried = choice.mapping?.[field];
    if (tried !== undefined && choice.columns.includes(tried)) draft[field] = tried;
    else draft[field] = choice.columns.includes(field) ? field : '';
  }
  return draft;
}

export interface DraftProblems {
  /** Required fields without a column. */
  missing: string[];
  /** Columns chosen for more than one field, with those fields. */
  duplicates: { column: string; fields: string[] }[];
}

export function draftProblems(choice: ColumnChoice, kind: DatasetKind, draft: Draft): DraftProblems {
  const fields = fieldsOf(choice, kind);
  const missing = fields.filter((f) => f.required && !draft[f.field]).map((f) => f.field);
  const byColumn = new Map<string, string[]>();
  for (const { field } of fields) {
    const column = draft[field];
    if (column) byColumn.set(column, [...(byColumn.get(column) ?? []), field]);
  }
  const duplicates = [...byColumn]
    .filter(([, fs]) => fs.length > 1)
    .map(([column, fs]) => ({ column, fields: fs }));
  return { missing, duplicates };
}

/** The mapping to send: chosen fields only. */
export function draftMapping(draft: Draft): Record<string, string> {
  return Object.fromEntries(Object.entries(draft).filter(([, column]) => column !== ''));
}

/** The sample rows as mapped: one cell per chosen field, in the kind's field order. */
export function previewRows(
  choice: ColumnChoice,
  kind: DatasetKind,
  draft: Draft,
): { fields: string[]; rows: string[][] } {
  const fields = fieldsOf(choice, kind)
    .map((f) => f.field)
    .filter((f) => draft[f]);
  return { fields, rows: choice.sample.map((r) => fields.map((f) => r[draft[f]] ?? '')) };
}

/** `prompt → instruction, …`: a mapping in one line. */
export function describeMapping(mapping: Record<string, string>): string {
  return Object.entries(mapping)
    .map(([field, column]) => `${column} → ${field}`)
    .join(', ');
}

// Column mapping: a file whose columns are named differently (prompt, response_a, winner…)
// imports once the person says which column is which field. The mapping is applied to the
// records as read, before validation, so every later check and message is the usual one.
import { createHash } from 'node:crypto';
import type { ColumnChoice, DatasetKind, InputIssue } from '../../shared/domain';
import { AppError } from '../base/errors';
import { datasetKinds } from './kinds';
import type { SourceRecord } from './record';

/** Field of the app (instruction, output_1, output_2, label, …) → column of the file. */
export type ColumnMapping = Record<string, string>;

/** Fields a column can be mapped to: those any dataset kind reads (registered kinds included). */
export function mappableFields(): readonly string[] {
  return [...new Set(datasetKinds().flatMap((k) => k.columns))];
}

/** The file's columns (those of its first record), in file order. */
export function columnsOf(records: readonly SourceRecord[]): string[] {
  return records.length ? Object.keys(records[0].value) : [];
}

/** A file's shape: its sorted column names, hashed (what a remembered mapping is keyed by). */
export function shapeOf(columns: readonly string[]): string {
  const cols = [...new Set(columns)].sort();
  return createHash('sha256').update(cols.join('\u0000')).digest('hex').slice(0, 32);
}

/** Problems with a mapping for these columns, each naming the field (`columns.<field>`). */
export function mappingIssues(
  file: string,
  mapping: ColumnMapping,
  columns: readonly string[],
): InputIssue[] {
  const issues: InputIssue[] = [];
  const have = new Set(columns);
  const used = new Map<string, string>();
  const fields = mappableFields();
  for (const [field, column] of Object.entries(mapping)) {
    const at = `columns.${field}`;
    if (!fields.includes(field))
      issues.push({ file, field: at, message: `no such field (fields: ${fields.join(', ')})` });
    else if (!have.has(column))
      issues.push({
        file,
        field: at,
        message: `the file has no column "${column}" (it has: ${columns.join(', ')})`,
      });
    else if (used.has(column))
      issues.push({
        file,
        field: at,
        message: `column "${column}" is already mapped to ${used.get(column)}`,
      });
    used.set(column, field);
  }
  return issues;
}

/** The records with mapped columns renamed to their fields (other columns are left as they are). */
export function applyMapping(records: readonly SourceRecord[], mapping: ColumnMapping): SourceRecord[] {
  const entries = Object.entries(mapping).filter(([field, column]) => field !== column);
  if (!entries.length) return [...records];
  const mappedColumns = new Set(entries.map(([, column]) => column));
  return records.map((r) => {
    const value: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.value)) if (!mappedColumns.has(k)) value[k] = v;
    for (const [field, column] of entries) if (column in r.value) value[field] = r.value[column];
    return { ...r, value };
  });
}

/** Longest text of one cell in a preview: enough to recognize a column. */
const SAMPLE_CELL_CHARS = 200;
/** Records a column choice previews. */
export const SAMPLE_ROWS = 3;

/** A value as preview text: strings as they are, other JSON as written, cut short. */
export function sampleText(value: unknown): string {
  const text = typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value);
  return text.length > SAMPLE_CELL_CHARS ? `${text.slice(0, SAMPLE_CELL_CHARS - 1)}…` : text;
}

/** The fields a file would hold with this mapping (mapped columns renamed, others as named). */
export function fieldsWith(columns: readonly string[], mapping: ColumnMapping | undefined): string[] {
  const byColumn = new Map(Object.entries(mapping ?? {}).map(([field, column]) => [column, field]));
  return columns.map((c) => byColumn.get(c) ?? c);
}

/** What the person needs to choose columns: the file's columns, every kind's fields, a sample. */
export function columnChoice(
  columns: readonly string[],
  kind: DatasetKind,
  sample: Record<string, string>[],
  mapping: ColumnMapping | undefined,
): ColumnChoice {
  return {
    columns: [...columns],
    kind,
    kinds: datasetKinds().map((k) => ({ kind: k.kind, fields: k.fields.map((f) => ({ ...f })) })),
    sample,
    ...(mapping ? { mapping: { ...mapping } } : {}),
  };
}

/** The CLI's words for a column choice: the file's columns and the options that map them. */
export function columnChoiceHint(choice: ColumnChoice): string[] {
  const needed = choice.kinds.find((k) => k.kind === choice.kind)?.fields.filter((f) => f.required) ?? [];
  return [
    `the file's columns: ${choice.columns.join(', ')}`,
    `say which column is which field: ${needed.map((f) => `--column ${f.field}=<column>`).join(' ')}`,
  ];
}

/** `field=column` options (CLI `--column`) as a mapping; a malformed one is named. */
export function parseColumnOptions(options: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (const option of options) {
    const at = option.indexOf('=');
    const field = option.slice(0, at).trim();
    const column = option.slice(at + 1).trim();
    if (at < 0 || !field || !column)
      throw new AppError(
        'invalid_params',
        `--column "${option}": write it as field=column, e.g. instruction=prompt`,
      );
    mapping[field] = column;
  }
  return mapping;
}

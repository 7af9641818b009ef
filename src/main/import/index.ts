import type { DatasetFormat, DatasetKind, InputIssue } from '../../shared/domain';
import { formatBytes, INPUT_LIMITS } from '../base/input-limits';
import type { NewItem } from '../store/datasets';
import { csvColumns, csvSample, readCsv } from './csv';
import { decodeText } from './decode';
import { formatFromName, sniffFormat, unsupportedFile } from './detect';
import { invalidInput } from './issues';
import { readJson } from './json';
import { readJsonl } from './jsonl';
import type { ReadResult } from './record';
import { ambiguousKind, datasetKinds, kindOfFields, kindOfRecords } from './kinds';
import {
  applyMapping,
  columnChoice,
  columnsOf,
  fieldsWith,
  mappingIssues,
  SAMPLE_ROWS,
  sampleText,
  shapeOf,
  type ColumnMapping,
} from './column-mapping';

export { DATASET_EXTENSIONS } from './detect';
export { describeIssue, MAX_ISSUES } from './issues';

export interface ParsedDataset {
  format: DatasetFormat;
  kind: DatasetKind;
  items: NewItem[];
  /** The file's shape (its sorted column names, hashed), and the mapping applied, if any. */
  shape: string;
  mapping?: ColumnMapping;
}

export interface ParseOptions {
  /** Which column is which field, chosen by the person. */
  columns?: ColumnMapping;
  /** A mapping remembered for files of this shape, used when `columns` is not given. */
  remembered?: (shape: string) => ColumnMapping | undefined;
}

const READERS: Record<DatasetFormat, (file: string, text: string) => ReadResult> = {
  'llmbar-jsonl': readJsonl,
  'llmbar-json': readJson,
  csv: readCsv,
};

/**
 * Reads a dataset file completely and checks every item before anything is stored.
 * Throws AppError('invalid_input') listing every problem (capped), each located by file,
 * line or row, and field.
 */
/** CSV headers are matched lower-cased: a mapping names them the same way. */
function lowerColumns(m: ColumnMapping | undefined): ColumnMapping | undefined {
  return m && Object.fromEntries(Object.entries(m).map(([f, c]) => [f, c.trim().toLowerCase()]));
}

export function parseDatasetFile(
  fileName: string,
  bytes: Uint8Array,
  opts: ParseOptions = {},
): ParsedDataset {
  const byName = formatFromName(fileName);
  if (bytes.length > INPUT_LIMITS.datasetFileBytes) {
    const limit = formatBytes(INPUT_LIMITS.datasetFileBytes);
    throw invalidInput(fileName, [
      { file: fileName, message: `file is ${formatBytes(bytes.length)}, above the limit of ${limit}` },
    ]);
  }
  const decoded = decodeText(fileName, bytes);
  if (!decoded.ok) {
    // Binary content under an unknown extension is a wrong file, not a broken dataset.
    if (!byName && (decoded.kind === 'binary' || decoded.kind === 'invalid-utf8')) {
      throw invalidInput(fileName, [unsupportedFile(fileName, 'its content is not UTF-8 text')]);
    }
    throw invalidInput(fileName, [decoded.issue]);
  }
  const text = decoded.text;
  if (text.trim() === '') {
    throw invalidInput(fileName, [{ file: fileName, message: 'file is empty (it holds only whitespace)' }]);
  }
  const format = byName ?? sniffFormat(text);
  if (!format) {
    throw invalidInput(fileName, [
      unsupportedFile(
        fileName,
        'its content looks like neither JSON Lines, a JSON array nor a CSV with a header',
      ),
    ]);
  }
  // A CSV's columns are its header (its reader keeps only known columns); JSON's, the keys.
  const jsonRead = format === 'csv' ? undefined : READERS[format](fileName, text);
  const columns = jsonRead ? columnsOf(jsonRead.records) : csvColumns(fileName, text);
  const shape = shapeOf(columns);
  const chosen = format === 'csv' ? lowerColumns(opts.columns) : opts.columns;
  const mapping = chosen ?? opts.remembered?.(shape);
  // When the columns (as mapped) lack a field the kind needs, the error carries the columns
  // and a sample as data, so a person can say which column is which instead of editing the file.
  const fields = fieldsWith(columns, mapping);
  const fileKind = kindOfFields(fields);
  const choice = () =>
    columnChoice(
      columns,
      fileKind.kind,
      jsonRead
        ? jsonRead.records.slice(0, SAMPLE_ROWS).map((r) => sampleRecord(r.value))
        : csvSample(fileName, text, SAMPLE_ROWS).map(sampleRecord),
      mapping,
    );
  if (mapping) {
    const bad = mappingIssues(fileName, mapping, columns);
    if (bad.length) throw invalidInput(fileName, bad, choice());
  }
  const lacksFields = fileKind.missingColumns(new Set(fields)).missing.length > 0;
  const read =
    jsonRead ??
    readCsv(
      fileName,
      text,
      undefined,
      mapping ? new Map(Object.entries(mapping).map(([f, c]) => [c, f])) : undefined,
    );
  const records = mapping && jsonRead ? applyMapping(read.records, mapping) : read.records;
  // A CSV's kind is its header's; a JSON record's, its own keys.
  const ambiguous: InputIssue[] = [];
  if (!jsonRead) {
    const a = ambiguousKind(fields);
    if (a) ambiguous.push({ file: fileName, line: 1, field: a.field, message: `the header ${a.message}` });
  } else {
    for (const r of records) {
      const a = ambiguousKind(Object.keys(r.value));
      if (a) ambiguous.push({ file: fileName, line: r.line, row: r.row, field: a.field, message: a.message });
    }
  }
  if (ambiguous.length > 0) throw invalidInput(fileName, [...read.issues, ...ambiguous]);
  const spec = kindOfRecords(records);
  const { items, issues } = spec.validate(fileName, records, { cellText: format === 'csv' });
  const all = [...read.issues, ...issues];
  if (all.length === 0 && items.length === 0) {
    all.push({ file: fileName, message: 'no items: the file holds no records' });
  }
  // A file refused with a mapping (chosen or remembered) keeps its choice too: the values may
  // show that another column was meant (e.g. a label column of model names).
  const offer = (lacksFields || mapping !== undefined) && mappable(columns);
  if (all.length > 0) throw invalidInput(fileName, all, offer ? choice() : undefined);
  return { format, kind: spec.kind, items, shape, ...(mapping ? { mapping } : {}) };
}

/** Enough columns to hold some kind's required fields (one column, e.g. a wrong delimiter, is not). */
function mappable(columns: readonly string[]): boolean {
  const fewest = Math.min(...datasetKinds().map((k) => k.fields.filter((f) => f.required).length));
  return columns.length >= fewest;
}

/** A record's values as preview text. */
function sampleRecord(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sampleText(v)]));
}

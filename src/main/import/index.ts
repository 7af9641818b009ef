import type { DatasetFormat, DatasetKind } from '../../shared/domain';
import { formatBytes, INPUT_LIMITS } from '../core/input-limits';
import type { NewItem } from '../store/datasets';
import { csvColumns, readCsv } from './csv';
import { decodeText } from './decode';
import { formatFromName, sniffFormat, unsupportedFile } from './detect';
import { invalidInput } from './issues';
import { readJson } from './json';
import { readJsonl } from './jsonl';
import type { ReadResult } from './record';
import { kindOfRecords } from './kinds';
import { applyMapping, columnsOf, mappingIssues, shapeOf, type ColumnMapping } from './column-mapping';

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
  const columns =
    format === 'csv' ? csvColumns(fileName, text) : columnsOf(READERS[format](fileName, text).records);
  const shape = shapeOf(columns);
  const chosen = format === 'csv' ? lowerColumns(opts.columns) : opts.columns;
  const mapping = chosen ?? opts.remembered?.(shape);
  if (mapping) {
    const bad = mappingIssues(fileName, mapping, columns);
    if (bad.length) throw invalidInput(fileName, bad);
  }
  const read =
    format === 'csv'
      ? readCsv(
          fileName,
          text,
          undefined,
          mapping ? new Map(Object.entries(mapping).map(([f, c]) => [c, f])) : undefined,
        )
      : READERS[format](fileName, text);
  const records = mapping && format !== 'csv' ? applyMapping(read.records, mapping) : read.records;
  const spec = kindOfRecords(records);
  const { items, issues } = spec.validate(fileName, records, { cellText: format === 'csv' });
  const all = [...read.issues, ...issues];
  if (all.length === 0 && items.length === 0) {
    all.push({ file: fileName, message: 'no items: the file holds no records' });
  }
  if (all.length > 0) throw invalidInput(fileName, all);
  return { format, kind: spec.kind, items, shape, ...(mapping ? { mapping } : {}) };
}

import type { DatasetFormat, DatasetKind } from '../../shared/domain';
import { formatBytes, INPUT_LIMITS } from '../core/input-limits';
import type { NewItem } from '../store/datasets';
import { readCsv } from './csv';
import { decodeText } from './decode';
import { formatFromName, sniffFormat, unsupportedFile } from './detect';
import { invalidInput } from './issues';
import { readJson } from './json';
import { readJsonl } from './jsonl';
import type { ReadResult } from './record';
import { kindOfRecords } from './kinds';

export { DATASET_EXTENSIONS } from './detect';
export { describeIssue, MAX_ISSUES } from './issues';

export interface ParsedDataset {
  format: DatasetFormat;
  kind: DatasetKind;
  items: NewItem[];
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
export function parseDatasetFile(fileName: string, bytes: Uint8Array): ParsedDataset {
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
  const read = READERS[format](fileName, text);
  const spec = kindOfRecords(read.records);
  const { items, issues } = spec.validate(fileName, read.records, { cellText: format === 'csv' });
  const all = [...read.issues, ...issues];
  if (all.length === 0 && items.length === 0) {
    all.push({ file: fileName, message: 'no items: the file holds no records' });
  }
  if (all.length > 0) throw invalidInput(fileName, all);
  return { format, kind: spec.kind, items };
}

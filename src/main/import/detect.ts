import { extname } from 'node:path';
import type { DatasetFormat, InputIssue } from '../../shared/domain';

const BY_EXTENSION: Record<string, DatasetFormat> = {
  '.jsonl': 'llmbar-jsonl',
  '.ndjson': 'llmbar-jsonl',
  '.json': 'llmbar-json',
  '.csv': 'csv',
};

/** Extensions a file picker should offer (without the dot). */
export const DATASET_EXTENSIONS = Object.keys(BY_EXTENSION).map((e) => e.slice(1));

/** What to do instead, for files people commonly try. */
const HINTS: Record<string, string> = {
  '.xlsx': 'export the sheet as "CSV UTF-8"',
  '.xls': 'export the sheet as "CSV UTF-8"',
  '.ods': 'export the sheet as CSV (UTF-8)',
  '.tsv': 'save it comma-separated as .csv',
  '.parquet': 'convert it to JSON Lines (.jsonl)',
};

const SUPPORTED =
  '.jsonl / .ndjson (LLMBar JSON Lines), .json (an array of items) or .csv (with a header row)';

export function extensionOf(fileName: string): string {
  return extname(fileName).toLowerCase();
}

export function formatFromName(fileName: string): DatasetFormat | undefined {
  return BY_EXTENSION[extensionOf(fileName)];
}

function looksLikeCsvHeader(firstLine: string): boolean {
  const names = firstLine.split(',').map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  return (
    (names.includes('output_1') && names.includes('output_2')) ||
    (names.includes('question') && names.includes('answers'))
  );
}

/** For files whose extension says nothing: decide by the first characters. */
export function sniffFormat(text: string): DatasetFormat | undefined {
  const start = text.trimStart();
  if (start.startsWith('[')) return 'llmbar-json';
  const firstLine = start.split('\n', 1)[0];
  if (start.startsWith('{')) {
    try {
      JSON.parse(firstLine);
      return 'llmbar-jsonl';
    } catch {
      // An object spread over several lines: read as JSON, which names the real problem.
      return 'llmbar-json';
    }
  }
  return looksLikeCsvHeader(firstLine) ? 'csv' : undefined;
}

export function unsupportedFile(file: string, reason: string): InputIssue {
  const ext = extensionOf(file);
  const hint = HINTS[ext] ? `; ${HINTS[ext]}` : '';
  const kind = ext ? `"${ext}" files are not a dataset format` : 'the file has no extension';
  return {
    file,
    message: `unsupported file: ${kind} and ${reason}; import ${SUPPORTED}${hint}`,
  };
}

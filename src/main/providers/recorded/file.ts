// The recorded-answers file (JSONL or CSV, the same columns): read whole and checked before a
// run, so a run never starts on a file half understood; written for templates and exports.
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import type { InputIssue } from '../../../shared/domain';
import { AppError, formatIssue } from '../../base/errors';
import { INPUT_LIMITS, readRegularFile } from '../../base/input-limits';
import { readRows } from '../../import/csv';
import { decodeText } from '../../import/decode';
import { duplicateKeys } from '../../import/json-scan';
import { toCsv, unguardCsvCell } from '../../report/csv';
import type { Usage } from '../types';
import { ANSWER_COLUMNS, LEAD_COLUMNS, USAGE_COLUMNS, slotId } from './slots';

export type RecordedFormat = 'jsonl' | 'csv';

/** One answer of the file. */
export interface RecordedRow {
  line: number;
  /** The slot's columns as the row gives them (empty cells left out). */
  fields: [string, string][];
  id: string;
  model: string;
  /** The raw answer text, exactly as written; '' means "not answered yet" (a template's row). */
  answer: string;
  usage: Usage;
}

export interface RecordedAnswers {
  file: string;
  sha256: string;
  rows: RecordedRow[];
  /** Answered rows by slot (rows with an empty answer are not here: their slots are missing). */
  byId: Map<string, RecordedRow>;
}

/** Issues listed before giving up: enough to fix a file in one go, not a wall of text. */
const MAX_ISSUES = 50;

export function formatOf(file: string): RecordedFormat {
  return extname(file).toLowerCase() === '.csv' ? 'csv' : 'jsonl';
}

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The SHA-256 of the file as it is now (refused with the path when it cannot be read). */
export function fileSha256(file: string): string {
  return sha256Of(readBytes(file));
}

function readBytes(file: string): Buffer {
  return readRegularFile(file, INPUT_LIMITS.recordedAnswersFileBytes);
}

/** The file's raw cells per row: JSONL objects or CSV rows under the header. */
interface RawRow {
  line: number;
  cells: Map<string, unknown>;
}

function jsonlRows(
  file: string,
  text: string,
  issues: InputIssue[],
): { rows: RawRow[]; headerLine?: number } {
  const rows: RawRow[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((source, i) => {
      if (source.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch (err) {
        issues.push({ file, line: i + 1, message: `not JSON (${(err as Error).message})` });
        return;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        issues.push({
          file,
          line: i + 1,
          message: 'not a JSON object: one answer per line, as {"stage": …}',
        });
        return;
      }
      for (const key of new Set(duplicateKeys(source)))
        issues.push({ file, line: i + 1, field: key, message: 'given twice in this row: keep one' });
      rows.push({ line: i + 1, cells: new Map(Object.entries(value)) });
    });
  return { rows };
}

function csvRows(file: string, text: string, issues: InputIssue[]): { rows: RawRow[]; headerLine?: number } {
  const { rows, issue } = readRows(file, text);
  if (issue) issues.push(issue);
  const [header, ...data] = rows;
  if (!header) return { rows: [] };
  const names = header.cells.map((c) => c.trim());
  for (const [i, n] of names.entries())
    if (names.indexOf(n) !== i)
      issues.push({ file, line: header.line, field: n, message: 'column given twice: keep one' });
  const out: RawRow[] = [];
  for (const r of data) {
    if (r.cells.every((c) => c.trim() === '')) continue;
    if (r.cells.length !== names.length) {
      issues.push({ file, line: r.line, message: `${r.cells.length} cells, the header has ${names.length}` });
      continue;
    }
    // The file may be one this app wrote (`recordedText`), whose cells carry the spreadsheet guard.
    out.push({ line: r.line, cells: new Map(names.map((n, i) => [n, unguardCsvCell(r.cells[i])])) });
  }
  // An unknown column is named once, at the header.
  return { rows: out, headerLine: header.line };
}

/**
 * Reads and checks the whole file: every column known (`slotColumns`: the columns the
 * experiment's tasks have), `stage` and `model` given, token counts whole numbers, no slot
 * twice. Any problem refuses the file, each issue naming file, line and field.
 */
export function readRecordedFile(file: string, slotColumns: ReadonlySet<string>): RecordedAnswers {
  const bytes = readBytes(file);
  // Strictly UTF-8, as dataset imports read: a lenient decode would turn a cp1252 file's bytes
  // into U+FFFD inside answers and prompts' slots, and the run would go on with them.
  const decoded = decodeText(file, bytes);
  if (!decoded.ok)
    throw new AppError('invalid_input', `${formatIssue(decoded.issue)}. Nothing was imported.`, [
      decoded.issue,
    ]);
  const text = decoded.text;
  const issues: InputIssue[] = [];
  const format = formatOf(file);
  const { rows: raw, headerLine } =
    format === 'csv' ? csvRows(file, text, issues) : jsonlRows(file, text, issues);
  const known = new Set<string>([...LEAD_COLUMNS, ...slotColumns, ...ANSWER_COLUMNS, ...USAGE_COLUMNS]);
  const slotNames = new Set([...LEAD_COLUMNS, ...slotColumns]);
  const reportedColumns = new Set<string>();
  const rows: RecordedRow[] = [];
  const firstLine = new Map<string, number>();
  for (const r of raw) {
    const problems: InputIssue[] = [];
    const at = (field: string, message: string, line = r.line) =>
      problems.push({ file, line, field, message });
    for (const name of r.cells.keys()) {
      if (known.has(name)) continue;
      // A CSV's unknown column is one problem (its header), a JSONL key one per line.
      if (headerLine !== undefined) {
        if (!reportedColumns.has(name)) at(name, unknownColumn(known), headerLine);
        reportedColumns.add(name);
      } else at(name, unknownColumn(known));
    }
    const text = (name: string): string | undefined => {
      const v = r.cells.get(name);
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string') return v;
      if (typeof v === 'number' && name !== 'answer') return String(v);
      at(name, `must be text${name === 'answer' ? ' (the raw answer, JSON written as a string)' : ''}`);
      return undefined;
    };
    const stage = text('stage')?.trim();
    if (!stage) at('stage', 'required: the stage that asked (see the template)');
    const model = text('model')?.trim();
    if (!model) at('model', 'required: the model that answered');
    const answer = text('answer') ?? '';
    const usage: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
    const usageKeys = {
      input_tokens: 'inputTokens',
      output_tokens: 'outputTokens',
      cached_tokens: 'cachedInputTokens',
    } as const;
    for (const col of USAGE_COLUMNS) {
      const v = text(col)?.trim();
      if (!v) continue;
      if (!/^\d{1,12}$/.test(v)) at(col, 'must be a whole number of tokens (or empty)');
      else usage[usageKeys[col]] = Number(v);
    }
    const fields: [string, string][] = [];
    for (const name of r.cells.keys())
      if (slotNames.has(name)) {
        const v = text(name)?.trim();
        if (v) fields.push([name, v]);
      }
    if (!problems.length) {
      const id = slotId(fields);
      const before = firstLine.get(id);
      if (before !== undefined)
        at(fields.map(([k]) => k).join('+'), `duplicate row: line ${before} answers the same slot`);
      else {
        firstLine.set(id, r.line);
        rows.push({ line: r.line, fields, id, model: model!, answer, usage });
      }
    }
    issues.push(...problems);
    if (issues.length >= MAX_ISSUES) break;
  }
  if (issues.length) {
    const first = formatIssue(issues[0]);
    throw new AppError(
      'invalid_input',
      `${issues.length === 1 ? '' : `${issues.length}${issues.length >= MAX_ISSUES ? '+' : ''} problems in the recorded answers, first: `}${first}. Nothing was imported.`,
      issues,
    );
  }
  const byId = new Map(rows.filter((r) => r.answer !== '').map((r) => [r.id, r]));
  return { file, sha256: sha256Of(bytes), rows, byId };
}

function unknownColumn(known: ReadonlySet<string>): string {
  return `unknown column (this experiment's columns: ${[...known].join(', ')})`;
}

/** A row to write: the slot's columns, the model, the answer (empty in a template) and usage. */
export interface RecordedOut {
  fields: ReadonlyMap<string, string>;
  model: string;
  answer: string;
  usage?: Usage;
}

/**
 * The file's text: JSONL (one object per row, every column present) or CSV through the shared
 * writer (BOM, CRLF, the spreadsheet guard on cells a spreadsheet would run as formulas, which
 * `readRecordedFile` takes off again; control characters other than TAB/LF/CR are shown as
 * `\x1B`, so answers holding them go exactly only as JSONL).
 */
export function recordedText(
  format: RecordedFormat,
  slotColumns: readonly string[],
  rows: readonly RecordedOut[],
): string {
  const columns = [...slotColumns, ...ANSWER_COLUMNS, ...USAGE_COLUMNS];
  const cells = rows.map((r) => [
    ...slotColumns.map((c) => r.fields.get(c) ?? ''),
    r.model,
    r.answer,
    ...(r.usage
      ? [String(r.usage.inputTokens), String(r.usage.outputTokens), String(r.usage.cachedInputTokens)]
      : ['', '', '']),
  ]);
  if (format === 'jsonl')
    return (
      cells.map((c) => JSON.stringify(Object.fromEntries(columns.map((k, i) => [k, c[i]])))).join('\n') +
      (cells.length ? '\n' : '')
    );
  return toCsv(columns, cells);
}

import { CsvError, parse } from 'csv-parse/sync';
import { kindOfFields, type DatasetKindSpec } from './kinds';
import type { InputIssue } from '../../shared/domain';
import { LineIndex } from './position';
import type { ReadResult, SourceRecord } from './record';

interface RawRow {
  cells: string[];
  line: number;
}

function csvErrorMessage(err: CsvError): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'unclosed quote: a quoted field that starts in this record is never closed (the file ends inside it)';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'text follows a closing quote; inside a quoted field write a quote as two quotes ("")';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote appears inside an unquoted field; quote the whole field and write the quote as ""';
    default:
      return err.message.replace(/ (at|on) line \d+/, '');
  }
}

/**
 * Splits the text into rows with the physical line each one starts on. csv-parse's own line
 * counter counts a CRLF inside a quoted field twice, so lines come from byte offsets instead.
 */
export function readRows(
  file: string,
  text: string,
): { rows: RawRow[]; issue?: InputIssue; errorColumn?: number } {
  const bytes = Buffer.from(text, 'utf8');
  const lines = new LineIndex(bytes);
  const rows: RawRow[] = [];
  let recordEnd = 0;
  const startLine = () => {
    let i = recordEnd;
    // Skipped blank lines belong to the next record's span: step over them.
    while (bytes[i] === 0x0a || bytes[i] === 0x0d) i++;
    return lines.line(i);
  };
  try {
    parse(bytes, {
      bom: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (cells: string[], info) => {
        rows.push({ cells, line: startLine() });
        recordEnd = info.bytes;
        return null;
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const column = typeof err.column === 'number' ? err.column : undefined;
    return { rows, issue: { file, line: startLine(), message: csvErrorMessage(err) }, errorColumn: column };
  }
  return { rows, issue: undefined };
}

function quoteList(names: string[]): string {
  return names.map((n) => JSON.stringify(n)).join(', ');
}

/** The columns a CSV is read with (a dataset kind's, or another file's such as imported answers). */
export type CsvColumns = Pick<DatasetKindSpec, 'columns' | 'missingColumns'>;

/** The header's column names (trimmed, lower-cased as the reader matches them); [] without a header. */
export function csvColumns(file: string, text: string): string[] {
  const [header] = readRows(file, text).rows;
  return header ? header.cells.map((c) => c.trim().toLowerCase()) : [];
}

/** The first `n` data rows, header name (as `csvColumns` gives it) → cell text. */
export function csvSample(file: string, text: string, n: number): Record<string, string>[] {
  const [header, ...rows] = readRows(file, text).rows;
  if (!header) return [];
  const names = header.cells.map((c) => c.trim().toLowerCase());
  return rows
    .filter((r) => r.cells.some((c) => c.trim() !== ''))
    .slice(0, n)
    .map((r) => Object.fromEntries(names.map((name, i) => [name, r.cells[i] ?? ''])));
}

/**
 * A CSV with a header row naming the columns of its dataset kind (pairwise: instruction or
 * input, output_1, output_2, label; QA: id, question, answers, language), or the given columns.
 */
export function readCsv(
  file: string,
  text: string,
  columns?: CsvColumns,
  rename?: ReadonlyMap<string, string>,
): ReadResult {
  const records: SourceRecord[] = [];
  const issues: InputIssue[] = [];
  const { rows, issue, errorColumn } = readRows(file, text);
  const [header, ...dataRows] = rows;
  if (issue) {
    const column = errorColumn === undefined ? undefined : header?.cells[errorColumn];
    if (column !== undefined) issue.field = column.trim().toLowerCase();
    issues.push(issue);
  }
  if (!header) return { records, issues };

  // Spreadsheets vary the case and pad header cells; the names themselves are the contract.
  // A column mapping names the fields of differently named columns (column → field).
  const names = header.cells.map((c) => c.trim().toLowerCase()).map((n) => rename?.get(n) ?? n);
  // An object copy of the row would silently drop such a column (README: such keys are refused).
  const proto = names.indexOf('__proto__');
  if (proto >= 0) {
    issues.push({
      file,
      line: header.line,
      field: '__proto__',
      message: `column ${proto + 1} is named "__proto__", which is not allowed as a name; rename it`,
    });
    return { records, issues };
  }
  const spec = columns ?? kindOfFields(names);
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!spec.columns.includes(name)) return;
    const first = index.get(name);
    if (first === undefined) index.set(name, i);
    else {
      issues.push({
        file,
        line: header.line,
        field: name,
        message: `column appears more than once in the header (columns ${first + 1} and ${i + 1})`,
      });
    }
  });
  const { missing, note } = spec.missingColumns(new Set(index.keys()));
  if (missing.length > 0) {
    const oneCell = header.cells.length === 1 ? header.cells[0] : '';
    const delimiterHint = /[;\t|]/.test(oneCell)
      ? '; the header has a single column: the file seems to use another delimiter than ","'
      : '';
    issues.push({
      file,
      line: header.line,
      message:
        `header is missing required column${missing.length > 1 ? 's' : ''} ${quoteList(missing)}` +
        note +
        `; found: ${quoteList(header.cells)}${delimiterHint}`,
    });
    return { records, issues };
  }

  let row = 0;
  for (const { cells, line } of dataRows) {
    // Spreadsheet exports end with rows of empty cells; they carry nothing.
    if (cells.every((c) => c.trim() === '')) continue;
    row++;
    if (cells.length !== header.cells.length) {
      issues.push({
        file,
        line,
        row,
        message: `has ${cells.length} columns, but the header has ${header.cells.length}`,
      });
      continue;
    }
    const value: Record<string, unknown> = {};
    for (const [name, i] of index) value[name] = cells[i];
    records.push({ value, line, row });
  }
  return { records, issues };
}

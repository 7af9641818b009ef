// RFC 4180 CSV with a UTF-8 BOM, so Excel opens Chinese text correctly. csv-parse is installed but
// csv-stringify is not, and the writing side is small enough to keep here.
import { showControlChars } from '../../shared/control-chars';
import { formatCell, uniqueHeaders, type Table } from '../../shared/report/table';

export const UTF8_BOM = '\uFEFF';

// OWASP's CSV-injection rule: spreadsheets run a cell that starts with = + - @ TAB or CR as a
// formula, so such a cell gets a leading '. Plain numbers ("-0.25", "+3") are not formulas and
// stay numbers for the researchers who load these tables.
// Text that already starts with ' before such a character gets one more, so a reader that takes
// one ' off (`unguardCsvCell`, for files read back) gets every text back exactly.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Quotes a field when it holds a comma, a double quote, CR or LF; inner quotes are doubled.
 * Control characters (model reasons may carry ANSI codes, which `cat` would run) are shown as `\x1B`.
 */
export function csvField(text: string): string {
  const raw = showControlChars(text);
  const value = FORMULA_START.test(raw) && !PLAIN_NUMBER.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A cell as `csvField` was given it: the spreadsheet guard's leading ' taken off. */
export function unguardCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) && !PLAIN_NUMBER.test(cell.slice(1))
    ? cell.slice(1)
    : cell;
}

/** A whole CSV document: CRLF line ends (RFC 4180) and a leading BOM. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header, ...rows].map((fields, i) => {
    if (fields.length !== header.length) {
      throw new Error(`CSV row ${i} has ${fields.length} fields, the header has ${header.length}`);
    }
    return fields.map(csvField).join(',');
  });
  return UTF8_BOM + lines.map((l) => l + '\r\n').join('');
}

/** The table as displayed (same text as the LaTeX version), footer rows last. */
export function tableToCsv(table: Table): string {
  const rows = [...table.rows, ...(table.footer ?? [])].map((row) =>
    table.columns.map((c) => (row[c.key] == null ? '' : formatCell(c, row[c.key]))),
  );
  return toCsv(uniqueHeaders(table), rows);
}

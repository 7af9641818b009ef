// CSV both ways for tests of imported files and exported tables: one cell as a spreadsheet writes
// it, and an export's CSV read back as rows by header (its BOM dropped).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/** A cell quoted as RFC 4180 asks (quotes doubled) when it holds a quote, comma or line break. */
export const csvCell = (s: string | number): string =>
  typeof s === 'string' && /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : String(s);

/** `<dir>/<name>` read as one record per row, keyed by the header. */
export const readExportCsv = (dir: string, name: string): Record<string, string>[] =>
  parse(readFileSync(join(dir, name), 'utf8').replace(/^\uFEFF/, ''), { columns: true }) as Record<
    string,
    string
  >[];

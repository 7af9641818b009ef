// One worksheet per table. Cells hold numbers (fractions, counts, p-values) with Excel number
// formats, so a spreadsheet can compute with them; a CI becomes two numeric columns (low, high).
import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';
import { showControlChars } from '../../shared/control-chars';
import { uniqueHeaders, type Table, type TableColumn } from '../../shared/report/table';

// Loaded on first use, not at start, and only the workbook: the package's entry also loads its
// streaming reader and writer (which nothing here uses), 0.33 CPU-s and ~16 MiB to load against
// 0.12 s and ~6 MiB for the workbook with its xlsx and csv parts (issue 39: a one-shot run's
// export). The class is the package's own; a layout this does not know loads the whole package.
const requireExcel = createRequire(import.meta.url);
export interface ExcelLib {
  Workbook: typeof ExcelJS.Workbook;
}
let excel: ExcelLib | undefined;
export const excelJs = (): ExcelLib => (excel ??= loadWorkbookOnly());

function loadWorkbookOnly(): ExcelLib {
  try {
    return { Workbook: requireExcel('exceljs/lib/doc/workbook.js') as typeof ExcelJS.Workbook };
  } catch {
    return requireExcel('exceljs') as typeof ExcelJS;
  }
}

const NUMBER_FORMATS: Record<Exclude<TableColumn['kind'], 'text'>, string> = {
  int: '0',
  pct: '0.0%',
  ci: '0.0%',
  p: '[<0.001]"< 0.001";0.000',
  usd: '#,##0.00##',
};

/** Excel forbids : \ / ? * [ ] in sheet names and allows at most 31 characters. */
function sheetName(id: string, used: Set<string>): string {
  const base =
    showControlChars(id)
      .replace(/[:\\/?*[\]]/g, '_')
      .slice(0, 31) || 'table';
  let name = base;
  for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base.slice(0, 28)}_${i}`;
  used.add(name.toLowerCase());
  return name;
}

interface SheetColumn {
  header: string;
  column: TableColumn;
  /** For a CI column: which end of the interval. */
  part?: 0 | 1;
}

function sheetColumns(table: Table): SheetColumn[] {
  const headers = uniqueHeaders(table);
  return table.columns.flatMap((column, i): SheetColumn[] =>
    column.kind === 'ci'
      ? [
          { header: `${headers[i]} low`, column, part: 0 },
          { header: `${headers[i]} high`, column, part: 1 },
        ]
      : [{ header: headers[i], column }],
  );
}

function cellValue(sc: SheetColumn, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (sc.part !== undefined) {
    // An interval that does not exist: both ends say so ("undefined (reason)"), as the CSV does.
    if (typeof value === 'string') return showControlChars(value);
    const end = Array.isArray(value) ? value[sc.part] : undefined;
    return typeof end === 'number' && Number.isFinite(end) ? end : null;
  }
  // XML (the workbook's format) cannot hold most control characters: Excel would call it corrupt.
  if (sc.column.kind === 'text') return showControlChars(String(value));
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function buildWorkbook(tables: readonly Table[]): ExcelJS.Workbook {
  const workbook = new (excelJs().Workbook)();
  workbook.creator = 'Judge Lab';
  const used = new Set<string>();
  for (const table of tables) {
    const sheet = workbook.addWorksheet(sheetName(table.id, used), {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    const columns = sheetColumns(table);
    const header = sheet.addRow(columns.map((c) => showControlChars(c.header)));
    header.font = { bold: true };
    header.getCell(1).note = showControlChars(`${table.title}. ${table.caption}`);
    const addRows = (rows: Table['rows'], bold: boolean) => {
      for (const row of rows) {
        const added = sheet.addRow(columns.map((c) => cellValue(c, row[c.column.key])));
        if (bold) added.font = { bold: true };
      }
    };
    addRows(table.rows, false);
    addRows(table.footer ?? [], true);
    columns.forEach((c, i) => {
      const column = sheet.getColumn(i + 1);
      if (c.column.kind !== 'text') column.numFmt = NUMBER_FORMATS[c.column.kind];
      column.alignment = {
        horizontal: c.column.align === 'l' ? 'left' : c.column.align === 'c' ? 'center' : 'right',
      };
      let width = c.header.length;
      column.eachCell({ includeEmpty: false }, (cell) => {
        width = Math.max(width, String(cell.value ?? '').length);
      });
      column.width = Math.min(60, width + 2);
    });
  }
  return workbook;
}

/** Writes every table to one .xlsx file (the app's UI uses this too). */
export async function writeXlsx(tables: readonly Table[], file: string): Promise<void> {
  await buildWorkbook(tables).xlsx.writeFile(file);
}

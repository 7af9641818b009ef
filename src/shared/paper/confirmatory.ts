// Which result rows a preregistered analysis made confirmatory (issue 24 part 2): with a lock in
// force, every table that a confirmatory comparison reads gets an "Analysis" column saying, row by
// row, confirmatory or exploratory, and a caption sentence naming the lock and the comparisons.
// A cell, not a side array, so sorting on screen and every export (CSV, XLSX, LaTeX, Markdown)
// carry the mark with no writer knowing about it. Protocol-neutral: which rows a comparison reads
// comes from the protocol (`PowerHooks.reads`); tables nothing reads are left as they are, and
// without a lock nothing changes (exports stay byte-identical).
import { col, type Table, type TableRow } from '../report/table';

/** Rows of one table: those whose cells equal every `where` value (all rows when none). */
export interface RowSelector {
  table: string;
  where?: Record<string, string>;
}

/** The lock in force and the rows each of its confirmatory comparisons reads. */
export interface ConfirmatoryMarks {
  version: number;
  reads: { comparison: string; rows: RowSelector[] }[];
  /**
   * Answers already stored when the plan was first locked; above 0 the plan was registered after
   * data collection, and its rows say so instead of "confirmatory".
   */
  afterData?: number;
}

/** The column's key; its cells are one of ANALYSIS_ROLES. */
export const ANALYSIS_COLUMN = 'analysis';
/** A registered comparison's rows when the plan was locked after answers were stored. */
export const AFTER_DATA_ROLE = 'registered after data collection';
export const ANALYSIS_ROLES = ['confirmatory', 'exploratory', AFTER_DATA_ROLE] as const;
export type AnalysisRole = (typeof ANALYSIS_ROLES)[number];

const selects = (s: RowSelector, table: Table, row: TableRow) =>
  s.table === table.id &&
  Object.entries(s.where ?? {}).every(([key, value]) => row[key] !== undefined && String(row[key]) === value);

/** The caption sentence of a marked table (English, as every export writes captions). */
export function analysisCaption(version: number, comparisons: readonly string[], afterData?: number): string {
  if (afterData)
    return (
      `Analysis: rows marked "${AFTER_DATA_ROLE}" are those read by the comparisons named in lock version ${version} ` +
      `(${comparisons.join(', ')}); the plan was first locked when ${afterData} answers were already stored, so they are not ` +
      'confirmatory. All other rows are exploratory.'
    );
  return (
    `Analysis: confirmatory rows are those read by the comparisons preregistered in lock version ${version} ` +
    `(${comparisons.join(', ')}); all other rows are exploratory.`
  );
}

/** The tables with the Analysis column where a confirmatory comparison reads a row; null: no lock. */
export function markConfirmatory(tables: Table[], marks: ConfirmatoryMarks | null | undefined): Table[] {
  if (!marks) return tables;
  return tables.map((table) => {
    if (table.columns.some((c) => c.key === ANALYSIS_COLUMN)) return table;
    const readBy = marks.reads.filter((r) =>
      r.rows.some((s) => table.rows.some((row) => selects(s, table, row))),
    );
    if (readBy.length === 0) return table;
    const rows = table.rows.map((row): TableRow => ({
      ...row,
      [ANALYSIS_COLUMN]: readBy.some((r) => r.rows.some((s) => selects(s, table, row)))
        ? marks.afterData
          ? AFTER_DATA_ROLE
          : 'confirmatory'
        : 'exploratory',
    }));
    const sentence = analysisCaption(
      marks.version,
      readBy.map((r) => r.comparison),
      marks.afterData,
    );
    return {
      ...table,
      columns: [...table.columns, col(ANALYSIS_COLUMN, 'Analysis', 'text')],
      rows,
      caption: `${table.caption}${table.caption ? ' ' : ''}${sentence}`,
    };
  });
}

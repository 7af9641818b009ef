// A writer-neutral table model: the CSV, LaTeX and XLSX writers and the dashboard all render
// these, so every format and the screen agree. Cells hold raw values (fractions, counts, CIs);
// `kind` says how to show them. Protocols build tables; nothing here knows a protocol.
import {
  formatCi,
  formatInt,
  formatP,
  formatPct,
  formatUsd,
  MISSING,
  undefinedText,
  type CI,
} from './format';

export type ColumnKind = 'text' | 'int' | 'pct' | 'p' | 'ci' | 'usd';
/**
 * A cell: text, a number, or an interval; a 'ci' cell whose interval does not exist holds the
 * text that says so, "undefined (reason)" (`intervalCell`), which every writer shows as it is.
 */
export type CellValue = string | number | CI | null;
export type TableRow = Record<string, CellValue>;

export interface TableColumn {
  key: string;
  header: string;
  align: 'l' | 'c' | 'r';
  kind: ColumnKind;
  /** Wrap long text in LaTeX at this fraction of the line width (p-column). */
  width?: number;
  /**
   * How an interval column was made ("Wilson score on the mean"): the CSV and XLSX headers carry
   * it in parentheses, so a file read without its caption still names the method.
   */
  method?: string;
}

export interface Table {
  /** File stem: tables/<id>.tex, tables/<id>.csv, and the XLSX sheet name. */
  id: string;
  title: string;
  caption: string;
  columns: TableColumn[];
  rows: TableRow[];
  /** Summary rows (totals) shown below a rule. */
  footer?: TableRow[];
  /**
   * The multiplicity families of its p columns (DESIGN §1e), as data: the generic family check
   * (`checkFamilies`) and the Methods text read them. A table with an adjusted p column declares
   * the family that column adjusts.
   */
  families?: PFamily[];
}

/**
 * Which hypotheses a table's p values are adjusted together with, and how. Rows of one study's
 * tables that declare the same `name` and hold the same `by` values are one family (e.g. a
 * position test joining its judge × category's probe rows); a family holds each hypothesis once.
 */
export interface PFamily {
  name: string;
  /** Holm's step-down procedure, the only correction the studies use today. */
  method: 'holm';
  /** The column with the raw p. */
  p: string;
  /**
   * The column with the adjusted p. Absent when the table shows the hypothesis's raw p only and
   * its adjusted p lives in another family's column (e.g. a position test that is also in
   * a sensitivity family: the hypothesis counts in m, its adjusted p is not shown there).
   */
  adjusted?: string;
  /** Columns whose values split the rows into families (judge × category); [] for one family. */
  by: string[];
  /** Columns naming a hypothesis within its family ([] when a table gives each family one row). */
  hypothesis: string[];
  /** Rows in this family only where these columns hold these values (a table of several families). */
  where?: Record<string, string>;
  /** Rows outside every family: pooled summaries (generator "all"), whose adjusted p is null. */
  outside?: Record<string, string>;
}

/** The display text of a cell, identical in every text format. */
export function formatCell(column: TableColumn, value: CellValue | undefined): string {
  if (value === null || value === undefined) return column.kind === 'text' ? '' : MISSING;
  switch (column.kind) {
    case 'text':
      return String(value);
    case 'int':
      return formatInt(asNumber(value, column));
    case 'pct':
      return formatPct(asNumber(value, column));
    case 'p':
      return formatP(asNumber(value, column));
    case 'usd':
      return formatUsd(asNumber(value, column));
    case 'ci':
      if (typeof value === 'string' && value.startsWith(UNDEFINED_PREFIX)) return value;
      if (!Array.isArray(value)) throw new TypeError(`column "${column.key}": expected a [low, high] CI`);
      return formatCi(value);
  }
}

/** How `undefinedText` opens: a 'ci' cell's text must be that, never any other string. */
const UNDEFINED_PREFIX = 'undefined (';

/**
 * An interval column's cell: the interval, or — when it does not exist and a reason is known —
 * "undefined (reason)", so the screen, CSV, XLSX and LaTeX all say why instead of a dash.
 */
export function intervalCell(ci: CI | null | undefined, reason?: string | null): CI | string | null {
  if (ci) return ci;
  return reason ? undefinedText(reason) : null;
}

function asNumber(value: CellValue, column: TableColumn): number {
  if (typeof value !== 'number') {
    throw new TypeError(
      `column "${column.key}" (${column.kind}): expected a number, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** A column; alignment follows the kind unless given. */
export const col = (
  key: string,
  header: string,
  kind: ColumnKind,
  align?: TableColumn['align'],
): TableColumn => ({
  key,
  header,
  kind,
  align: align ?? (kind === 'text' ? 'l' : kind === 'ci' ? 'c' : 'r'),
});

/**
 * Headers that are unique within a table, for formats read by scripts (CSV, XLSX): a CI column
 * is named after the metric before it ("Acc. strict 95% CI" rather than a second "95% CI"), and an
 * interval column's method follows in parentheses. A word is said once: the CI header's words the
 * metric's header already has are left out ("Flip" + "Flip 95% CI" is "Flip 95% CI", "C1 accept"
 * + "C1 95% CI" is "C1 accept 95% CI"), and a method the header already names is not repeated
 * ("Holm p" made by Holm stays "Holm p").
 */
export function uniqueHeaders(table: Table): string[] {
  return columnNames(table).map((header, i) => {
    const method = table.columns[i].method;
    return method && !namesMethod(header, method) ? `${header} (${method})` : header;
  });
}

/** Each column's name without its method: an interval's named after its metric ("Flip 95% CI"). */
export function columnNames(table: Table): string[] {
  return table.columns.map((c, i) =>
    c.kind === 'ci' && i > 0 ? namedInterval(table.columns[i - 1].header, c.header) : c.header,
  );
}

/** Whether a header already says every word of a method ("Holm p" made by Holm). */
export const namesMethod = (header: string, method: string): boolean =>
  wordsOf(method).every((w) => wordsOf(header).includes(w));

/** Lower-case words of a header (letters and digits; "95%" is "95"). */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The interval's header after its metric's, without the words the metric's header already says. */
function namedInterval(metric: string, interval: string): string {
  const said = new Set(wordsOf(metric));
  const own = interval.split(/\s+/).filter((part) => {
    const words = wordsOf(part);
    return words.length === 0 || !words.every((w) => said.has(w));
  });
  return [metric, ...own].join(' ');
}

/** The column with the method its interval was made by (see `TableColumn.method`). */
export const withMethod = (column: TableColumn, method: string): TableColumn => ({ ...column, method });

/** Rows in the order `judges` lists their judges (stable: one judge's rows keep their order). */
export function inJudgeOrder<R extends { judge: string }>(
  rows: readonly R[],
  judges: readonly string[],
): R[] {
  return [...rows].sort((x, y) => judges.indexOf(x.judge) - judges.indexOf(y.judge));
}

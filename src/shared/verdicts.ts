// The verdict browser's data (issue 26 item 4): the verdicts behind a results table's numbers,
// and which cells stand on which verdicts. Protocols declare both; the browser and the tables
// know only these shapes, so no generic page names a protocol.

/** One usable verdict, as the browser lists it. */
export interface VerdictRow {
  /** The dataset item (`items.get`) and its id in the dataset file. */
  itemId: number;
  sourceId: string;
  /** What tables group verdicts by (judge, language, order, setting, …); filters match these. */
  fields: Record<string, string>;
  /** The parsed answer as the tables read it ("A", "tie", "CORRECT", "4"). */
  verdict: string;
  /** Right against the item's gold or reference; null where nothing grades it. */
  correct: boolean | null;
  /** The text judged when it is not the item's own (a generated answer); model text. */
  shown: string | null;
  /** The judge's reason or explanation: model text. */
  reason: string;
  /**
   * A verdict on a changed text (a bias probe's variant): the text before the change and the one
   * judged after it, with their conditions ("original", "plain", "longer"…); model text.
   */
  compared?: { before: string; after: string; beforeLabel: string; afterLabel: string };
}

/**
 * Which verdicts a table's cells stand on (a table may have several links, for different columns): the row's value of each `by` key (a column, or a key a
 * table's rows carry for the link alone, such as an id beside its display text) filters the
 * verdict field it names, `where` adds fixed filters, and a `pooled` value (a row such as
 * generator "all") filters nothing.
 */
export interface VerdictLink {
  table: string;
  by: Record<string, string>;
  where?: Record<string, string>;
  pooled?: Record<string, string>;
  /** The columns whose numbers are computed from exactly those verdicts (their cells open them). */
  columns: readonly string[];
  /** The column holding how many verdicts stand behind the row. */
  count: string;
}

/**
 * Each estimate's column followed by its interval's (`<name>_ci`), the way every study's tables
 * name them: a link's columns list an interval beside the number it bounds, since both stand on
 * the same verdicts.
 */
export const withIntervals = (...names: readonly string[]): string[] => names.flatMap((n) => [n, `${n}_ci`]);

export interface VerdictList {
  /** The filterable fields, in the protocol's order. */
  fields: string[];
  rows: VerdictRow[];
}

export type VerdictFilter = Record<string, string>;

type CellValue = string | number | readonly [number, number] | null | undefined;

/** The filter behind one row of a linked table; null for a row without verdicts (no value in a `by` column). */
export function rowFilter(link: VerdictLink, row: Readonly<Record<string, CellValue>>): VerdictFilter | null {
  const filter: VerdictFilter = { ...link.where };
  for (const [column, field] of Object.entries(link.by)) {
    const value = row[column];
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    const text = String(value);
    if (link.pooled?.[column] === text) continue;
    filter[field] = text;
  }
  return filter;
}

/** The verdicts a filter selects (every key must match the verdict's field). */
export function matchVerdicts(rows: readonly VerdictRow[], filter: VerdictFilter): VerdictRow[] {
  const keys = Object.entries(filter);
  return rows.filter((r) => keys.every(([k, v]) => r.fields[k] === v));
}

// The columns that name a row (who judged, in which condition, on what), as every study's tables
// open with them: one header per key, so a judge is "Judge" and a category "Category" in every
// study's CSV, LaTeX and dashboard table, and a new study's tables read like the others'.
import { col, withMethod, type TableColumn } from './table';

const KEY_HEADERS = {
  judge: 'Judge',
  category: 'Category',
  language: 'Language',
  generator: 'Generator',
  comparison: 'Comparison',
  transition: 'Transition',
  setting: 'Setting',
  subset: 'Subset',
  variant: 'Variant',
  effect: 'Effect',
  item_id: 'Item',
  reason: 'Reason',
  // A row of one scope (all items, or the unflagged ones) and one measure of it.
  scope: 'Scope',
  metric: 'Metric',
  // Self-consistency's conditions are temperatures (the judge's own, or a set T).
  condition: 'Temperature',
} as const;

export type KeyColumn = keyof typeof KEY_HEADERS;

/** The text columns for these row keys, in the order given. */
export function keyColumns(...keys: KeyColumn[]): TableColumn[] {
  return keys.map((k) => col(k, KEY_HEADERS[k], 'text'));
}

/** Count columns, one per key with its header, in the order given. */
export function countColumns(headers: Readonly<Record<string, string>>): TableColumn[] {
  return Object.entries(headers).map(([key, header]) => col(key, header, 'int'));
}

/** The count of units a row stands on. */
/** Text columns from their keys and headers, in that order (values a table formats itself). */
export function textColumns(headers: Readonly<Record<string, string>>): TableColumn[] {
  return Object.entries(headers).map(([key, header]) => col(key, header, 'text'));
}

export const N_COLUMN: TableColumn = col('n', 'n', 'int');

/**
 * A rate and its 95% interval, the pair most tables show: the interval's column is the rate's key
 * with `_ci`, headed "95% CI" unless `ciHeader` says otherwise, with the `method` that made it.
 */
export function rateColumns(
  key: string,
  header: string,
  interval: { ciHeader?: string; method?: string } = {},
): TableColumn[] {
  const ci = col(`${key}_ci`, interval.ciHeader ?? '95% CI', 'ci');
  return [col(key, header, 'pct'), interval.method === undefined ? ci : withMethod(ci, interval.method)];
}

/** A number shown at fixed decimals (a `fixedText` cell: effect sizes, κ, correlations), right-aligned. */
export const numberColumn = (key: string, header: string): TableColumn => col(key, header, 'text', 'r');

/** An interval shown as text (a `fixedIntervalText` cell, or "undefined (why)"), centred. */
export const intervalTextColumn = (key: string, header: string): TableColumn => col(key, header, 'text', 'c');

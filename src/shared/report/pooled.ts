// Pooled rows (a generator or category "all" beside its members): a pooled row is a summary of
// its members, not another hypothesis. When it pools a single member it is that member's row
// again, and a table that showed both would show each number twice (DESIGN.md, "Multiplicity
// and intervals").
import type { Table, TableRow } from './table';

/** The value of the column that marks a pooled row. */
export const POOLED = 'all';

const identity = (row: TableRow, skip: readonly string[]) =>
  JSON.stringify({ ...row, ...Object.fromEntries(skip.map((k) => [k, null])) });

/**
 * The table without its pooled rows when they repeat their only member: the `key` column holds
 * one value besides "all", and every pooled row equals a member row in every other cell but those
 * of `familyOnly` (a Holm p, which a pooled row does not get: it is not in its members' family).
 * The member's row (its real name) stays. Otherwise the table is returned as it is.
 */
export function withoutEchoedPools(table: Table, key: string, familyOnly: readonly string[] = []): Table {
  if (!table.columns.some((c) => c.key === key)) return table;
  const members = new Set(table.rows.map((r) => r[key]).filter((v) => v !== POOLED));
  const pooled = table.rows.filter((r) => r[key] === POOLED);
  if (members.size !== 1 || pooled.length === 0) return table;
  const skip = [key, ...familyOnly];
  const memberRows = new Set(table.rows.filter((r) => r[key] !== POOLED).map((r) => identity(r, skip)));
  if (!pooled.every((r) => memberRows.has(identity(r, skip)))) return table;
  return { ...table, rows: table.rows.filter((r) => r[key] !== POOLED) };
}

// The generic check of declared multiplicity families (DESIGN §1e): a family holds each
// hypothesis once, and its adjusted p is the declared correction over the family's raw p. A study
// declares its families on its tables (`Table.families`); this reads only those declarations, so
// every study, present and future, is held to the same rule without naming one.
import { holmAdjust } from '../stats/holm';
import type { CellValue, PFamily, Table, TableRow } from './table';

/** How far an adjusted p may sit from the recomputed one: printing and JSON keep full doubles. */
const TOLERANCE = 1e-12;

const matches = (row: TableRow, filter: Record<string, string> | undefined): boolean =>
  filter !== undefined && Object.entries(filter).every(([k, v]) => row[k] === v);

const pOf = (value: CellValue | undefined): number | null => (typeof value === 'number' ? value : null);

interface Member {
  table: string;
  hypothesis: string;
  p: number;
  adjusted: number | null;
  /** Whether the table shows this member's adjusted p (else it only counts in m). */
  shown: boolean;
}

/** The p columns a table adjusts: every 'p' column that some family names as its adjusted p. */
export const adjustedColumns = (table: Table): Set<string> =>
  new Set((table.families ?? []).flatMap((f) => (f.adjusted ? [f.adjusted] : [])));

/**
 * Every way the tables break their declared families, in words (empty when none): a hypothesis
 * counted twice, an adjusted p that is not the correction of the family's raw p, an adjusted p
 * on a row outside its family, a declared column the table does not have.
 */
export function checkFamilies(tables: readonly Table[]): string[] {
  const problems: string[] = [];
  const families = new Map<string, { family: PFamily; members: Member[] }>();
  for (const table of tables) {
    const keys = new Set(table.columns.map((c) => c.key));
    const declared = adjustedColumns(table);
    for (const c of table.columns)
      if (c.kind === 'p' && /holm/i.test(`${c.key} ${c.header} ${c.method ?? ''}`) && !declared.has(c.key))
        problems.push(`${table.id}: column "${c.key}" is adjusted but no family declares it`);
    for (const family of table.families ?? []) {
      for (const k of [
        family.p,
        ...(family.adjusted ? [family.adjusted] : []),
        ...family.by,
        ...family.hypothesis,
      ])
        if (!keys.has(k) && !table.rows.some((r) => k in r))
          problems.push(`${table.id}: family "${family.name}" names "${k}", which the table does not have`);
      for (const row of table.rows) {
        if (family.where && !matches(row, family.where)) continue;
        const p = pOf(row[family.p]);
        const adjusted = family.adjusted ? pOf(row[family.adjusted]) : null;
        if (matches(row, family.outside) || p === null) {
          if (adjusted !== null)
            problems.push(
              `${table.id}: a row outside family "${family.name}" has ${String(family.adjusted)} = ${adjusted}`,
            );
          continue;
        }
        const id = `${family.name} ${JSON.stringify(family.by.map((k) => row[k] ?? null))}`;
        const entry = families.get(id) ?? { family, members: [] };
        families.set(id, entry);
        const hypothesis = JSON.stringify(family.hypothesis.map((k) => row[k] ?? null));
        const same = entry.members.find((m) => m.hypothesis === hypothesis);
        if (!same) entry.members.push({ table: table.id, hypothesis, p, adjusted, shown: !!family.adjusted });
        // A hypothesis may be shown by two tables (a study's significance table may repeat the
        // invariance tests): once in the family, with the same numbers in both.
        else if (same.table === table.id)
          problems.push(`family ${id}: hypothesis ${hypothesis} counted twice in ${table.id}`);
        else if (same.p !== p || same.adjusted !== adjusted)
          problems.push(
            `family ${id}: hypothesis ${hypothesis} has other p values in ${table.id} than in ${same.table}`,
          );
      }
    }
  }
  for (const [id, { family, members }] of families) {
    const expected = holmAdjust(members.map((m) => m.p));
    members.forEach((m, i) => {
      if (!m.shown) return;
      if (m.adjusted === null || Math.abs(m.adjusted - expected[i]) > TOLERANCE)
        problems.push(
          `family ${id} (${family.method}, ${members.length} hypotheses): ${m.hypothesis} has ` +
            `${String(family.adjusted)} = ${m.adjusted} in ${m.table}, the correction gives ${expected[i]}`,
        );
    });
  }
  return problems;
}

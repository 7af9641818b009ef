// Agreement between two raters on categories (a judge's verdicts against human labels).
import type { CI } from './intervals';
import { Z_95 } from './intervals';
import { checkCount } from './checks';

export interface KappaResult {
  n: number;
  kappa: number | null;
  /** kappa ± z · SE with the large-sample SE of Fleiss, Cohen & Everitt (1969), as statsmodels'
   * cohens_kappa; null when kappa is undefined (no items, or chance agreement is 1). */
  kappa_ci: CI | null;
}

/**
 * Cohen's kappa (unweighted) of a square contingency table: table[i][j] = items rater 1 put in
 * category i and rater 2 in category j.
 */
export function cohensKappa(table: readonly (readonly number[])[], z: number = Z_95): KappaResult {
  const k = table.length;
  for (const row of table) {
    if (row.length !== k) throw new RangeError('the table must be square');
    row.forEach((v, j) => checkCount(`table cell ${j}`, v));
  }
  const n = table.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0);
  if (n === 0) return { n, kappa: null, kappa_ci: null };
  const p = table.map((row) => row.map((v) => v / n));
  const rows = p.map((row) => row.reduce((a, b) => a + b, 0));
  const cols = p[0].map((_, j) => p.reduce((s, row) => s + row[j], 0));
  const observed = p.reduce((s, row, i) => s + row[i], 0);
  const expected = rows.reduce((s, r, i) => s + r * cols[i], 0);
  if (expected >= 1) return { n, kappa: null, kappa_ci: null };
  const kappa = (observed - expected) / (1 - expected);
  let termA = 0;
  for (let i = 0; i < k; i++) termA += p[i][i] * (1 - (rows[i] + cols[i]) * (1 - kappa)) ** 2;
  let termB = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) if (i !== j) termB += p[i][j] * (cols[i] + rows[j]) ** 2;
  termB *= (1 - kappa) ** 2;
  const termC = (kappa - expected * (1 - kappa)) ** 2;
  const variance = Math.max(0, (termA + termB - termC) / (1 - expected) ** 2 / n);
  const se = Math.sqrt(variance);
  return { n, kappa, kappa_ci: [kappa - z * se, kappa + z * se] };
}

// Comparing two runs (issue 14, item 7): two experiments of one protocol, two judges of one
// experiment, or two prompt-template variants on the same items. Rows pair the two sides'
// graded observations on shared items; the table is the report kit's, so the page and the
// CSV/XLSX/LaTeX files show the same text. Protocol-neutral: a protocol offers its graded
// observations through the plug-in's `comparable` hook.
import { countColumns } from './report/columns';
import { col, intervalCell, type Table } from './report/table';
import type { CI } from './report/format';

/** One side of a comparison: an experiment, and (optionally) one judge of it. */
export interface CompareSide {
  experimentId: number;
  judge?: string;
}

export interface CompareRow {
  judge_a: string;
  judge_b: string;
  /** The protocol's condition (e.g. a language), or "all" pooled over conditions. */
  condition: string;
  /** Observations valid on both sides (same item, condition and unit, e.g. answer order). */
  n: number;
  /** Shared items (the bootstrap's clusters). */
  items: number;
  accuracy_a: number;
  accuracy_b: number;
  /** accuracy_b − accuracy_a. */
  delta: number;
  /** Paired bootstrap over shared items (an item's observations resampled together). */
  /** Paired bootstrap 95% CI; null when it does not exist (every resample the same Δ), with the reason. */
  delta_ci: CI | null;
  delta_ci_undefined_reason?: string;
  /** Same correctness on both sides. */
  agreement: number;
  a_only_correct: number;
  b_only_correct: number;
  /** Exact McNemar test of a_only_correct vs b_only_correct, item-clustered (sign-flip over items; plain exact McNemar when each item holds one observation). */
  mcnemar_p: number;
  /** Holm-adjusted across the per-condition rows; null on the pooled "all" rows. */
  mcnemar_p_holm: number | null;
}

export interface CompareResult {
  protocol: string;
  a: { experimentId: number; name: string; judges: string[] };
  b: { experimentId: number; name: string; judges: string[] };
  rows: CompareRow[];
  statistics: { bootstrap_b: number; bootstrap_seed: number; resampling_unit: 'item' };
  /** The rows as the report kit's table (the page and the exported files). */
  table: Table;
}

/** The comparison's table: deltas side by side with the paired tests. */
export function compareTable(r: Omit<CompareResult, 'table'>): Table {
  return {
    id: 'compare',
    title: `Compare: ${r.a.name} vs ${r.b.name}`,
    caption:
      `Accuracy of A (${r.a.name}) and B (${r.b.name}) on observations valid in both (same item, ` +
      'condition and order). Δ = B − A in points, with a paired bootstrap 95% CI over shared items ' +
      `(B = ${r.statistics.bootstrap_b}, seed ${r.statistics.bootstrap_seed}). Agreement: share of the ` +
      'observations (each order of an item counts once) with the same correctness. McNemar: exact test ' +
      'of A-only vs B-only correct with the item as its unit (sign-flip over items); Holm: adjusted across the per-condition rows (each test once); the ' +
      'pooled "all" row repeats their data, so it is outside the family and has no Holm p.',
    columns: [
      col('judge_a', 'Judge A', 'text'),
      col('judge_b', 'Judge B', 'text'),
      col('condition', 'Condition', 'text'),
      ...countColumns({ n: 'n', items: 'Items' }),
      col('accuracy_a', 'Acc. A', 'pct'),
      col('accuracy_b', 'Acc. B', 'pct'),
      col('delta', 'Δ (B − A)', 'pct'),
      col('delta_ci', '95% CI', 'ci'),
      col('agreement', 'Agreement', 'pct'),
      ...countColumns({ a_only_correct: 'A only', b_only_correct: 'B only' }),
      col('mcnemar_p', 'McNemar p', 'p'),
      col('mcnemar_p_holm', 'Holm p', 'p'),
    ],
    rows: r.rows.map((row) => ({
      ...row,
      delta_ci: intervalCell(row.delta_ci, row.delta_ci_undefined_reason),
    })),
  };
}

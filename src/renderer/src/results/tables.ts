// The dashboard's tables: which columns each shows, how a cell is written, how rows sort.
// Headers are i18n keys (namespace 'results'); values are the metrics' raw fields.
import type { JudgeLsMetrics } from '../../../shared/protocols/judge-ls/types';
import { formatCi, formatInt, formatP, formatPercent, formatUsd, isCi, MISSING } from './format';

export type ColumnKind = 'text' | 'int' | 'pct' | 'ci' | 'p' | 'usd';
export type Row = Record<string, unknown>;

export interface ColumnSpec {
  key: string;
  /** i18n key under results:col. */
  header: string;
  kind: ColumnKind;
}

export interface TableSpec {
  id: 'quality' | 'invariance' | 'position' | 'tie_probe' | 'subset_quality' | 'usage' | 'failures';
  columns: ColumnSpec[];
  rows: Row[];
  /** Totals shown below the sortable rows. */
  footer?: Row[];
  /** Rows of invariance tables link to their flips. */
  linksToFlips?: boolean;
}

const c = (key: string, kind: ColumnKind, header = key): ColumnSpec => ({ key, header, kind });

export function formatValue(kind: ColumnKind, value: unknown): string {
  if (value === null || value === undefined) return kind === 'text' ? '' : MISSING;
  switch (kind) {
    case 'text':
      return String(value);
    case 'int':
      return typeof value === 'number' ? formatInt(value) : MISSING;
    case 'pct':
      return typeof value === 'number' ? formatPercent(value) : MISSING;
    case 'p':
      return typeof value === 'number' ? formatP(value) : MISSING;
    case 'usd':
      return typeof value === 'number' ? formatUsd(value) : MISSING;
    case 'ci':
      return isCi(value) ? formatCi(value) : MISSING;
  }
}

export type SortDirection = 'asc' | 'desc';

function sortKey(kind: ColumnKind, v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (kind === 'text') return String(v);
  if (kind === 'ci') return isCi(v) && Number.isFinite(v[0]) ? (v[0] + v[1]) / 2 : null;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A stable sort on one column; missing values go last in both directions. */
export function sortRows(rows: readonly Row[], column: ColumnSpec, dir: SortDirection): Row[] {
  const keyed = rows.map((row, i) => ({ row, i, k: sortKey(column.kind, row[column.key]) }));
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

const USAGE_SUMS = [
  'calls',
  'cache_hits',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'cost_usd',
];

/** The dashboard's tables in reading order: what a judge gets right, then how it changes. */
export function dashboardTables(m: JudgeLsMetrics): TableSpec[] {
  const usageTotal: Row = { role: 'total' };
  for (const k of USAGE_SUMS)
    usageTotal[k] = m.usage.reduce((acc, r) => acc + (r[k as keyof typeof r] as number), 0);
  return [
    {
      id: 'quality',
      columns: [
        c('judge', 'text'),
        c('language', 'text'),
        c('n', 'int'),
        c('accuracy_strict', 'pct'),
        c('accuracy_strict_ci', 'ci', 'ci'),
        c('accuracy_tie_half', 'pct'),
        c('accuracy_tie_half_ci', 'ci', 'ci'),
        c('position_a_rate', 'pct'),
        c('tie_rate', 'pct'),
      ],
      rows: m.quality as unknown as Row[],
    },
    {
      id: 'invariance',
      columns: [
        c('judge', 'text'),
        c('comparison', 'text'),
        c('n', 'int'),
        c('flip_rate', 'pct'),
        c('flip_rate_ci', 'ci', 'ci'),
        c('correctness_flip_rate', 'pct'),
        c('correctness_flip_rate_ci', 'ci', 'ci'),
        c('both_correct', 'int'),
        c('en_only_correct', 'int'),
        c('target_only_correct', 'int'),
        c('both_wrong', 'int'),
        c('mcnemar_p', 'p'),
      ],
      rows: m.language_invariance as unknown as Row[],
      linksToFlips: true,
    },
    {
      id: 'position',
      columns: [
        c('judge', 'text'),
        c('language', 'text'),
        c('n', 'int'),
        c('inconsistency_rate', 'pct'),
        c('inconsistency_rate_ci', 'ci', 'ci'),
      ],
      rows: m.position as unknown as Row[],
    },
    {
      id: 'tie_probe',
      columns: [
        c('judge', 'text'),
        c('n', 'int'),
        c('en_win_rate', 'pct'),
        c('en_win_rate_ci', 'ci', 'ci'),
        c('tie_rate', 'pct'),
        c('tie_rate_ci', 'ci', 'ci'),
        c('zh_win_rate', 'pct'),
        c('zh_win_rate_ci', 'ci', 'ci'),
        c('en_share_non_tie', 'pct'),
        c('binomial_p', 'p'),
      ],
      rows: m.tie_probe as unknown as Row[],
    },
    {
      id: 'subset_quality',
      columns: [
        c('judge', 'text'),
        c('subset', 'text'),
        c('language', 'text'),
        c('n', 'int'),
        c('accuracy_tie_half', 'pct'),
        c('accuracy_tie_half_ci', 'ci', 'ci'),
      ],
      rows: m.subset_quality as unknown as Row[],
    },
    {
      id: 'usage',
      columns: [
        c('role', 'text'),
        c('judge', 'text', 'label'),
        c('model', 'text'),
        c('calls', 'int'),
        c('cache_hits', 'int'),
        c('input_tokens', 'int'),
        c('cached_input_tokens', 'int'),
        c('output_tokens', 'int'),
        c('cost_usd', 'usd'),
      ],
      rows: m.usage as unknown as Row[],
      footer: m.usage.length > 0 ? [usageTotal] : undefined,
    },
    {
      id: 'failures',
      columns: [c('judge', 'text'), c('kind', 'text'), c('reason', 'text'), c('count', 'int')],
      rows: m.failures as unknown as Row[],
    },
  ];
}

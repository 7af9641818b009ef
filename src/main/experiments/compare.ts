// Compare two runs (issue 14, item 7): two experiments of one protocol, two judges of one
// experiment, or two prompt-template variants (two experiments) on the same items. Generic:
// the protocol lists its graded observations (`comparable`); here they are paired on shared
// (item, condition, unit), and the paired tests run: McNemar on who alone was right (with the item
// as its unit: an item's orders are not independent draws), a paired item-clustered bootstrap for
// the accuracy difference, Holm across the rows.
import { compareTable, type CompareResult, type CompareRow, type CompareSide } from '../../shared/compare';
import { AppError } from '../base/errors';
import type { ComparableRow } from '../protocols/plugin';
import {
  DEFAULT_BOOTSTRAP_B,
  DEFAULT_BOOTSTRAP_SEED,
  holmAdjust,
  intervalFields,
  RANGE,
  ruledBootstrap,
  clusteredMcnemar,
  pairedBootstrapDiff,
  type PairedCluster,
} from '../../shared/stats';
import type { Database } from '../store/db';
import { loadExperiment, type LoadedExperiment } from './load';
import { metricsContext } from './results';

/** The pooled row over every condition. */
export const ALL_CONDITIONS = 'all';

export interface CompareOptions {
  bootstrapB?: number;
  seed?: number;
}

interface Side {
  exp: LoadedExperiment;
  rows: ComparableRow[];
  judges: string[];
}

function loadSide(db: Database, side: CompareSide, which: 'a' | 'b'): Side {
  const exp = loadExperiment(db, side.experimentId);
  const comparable = exp.protocol.comparable;
  if (!comparable)
    throw new AppError('invalid_params', `The ${exp.protocol.title} protocol offers no comparison of runs`);
  const rows = comparable.call(exp.protocol, metricsContext(db, exp, false));
  const judges = [...new Set(rows.map((r) => r.judge))];
  if (side.judge !== undefined && !judges.includes(side.judge))
    throw new AppError(
      'invalid_params',
      `${which.toUpperCase()}: experiment "${exp.row.name}" has no graded answers of judge "${side.judge}"` +
        (judges.length ? ` (judges: ${judges.join(', ')})` : ' (nothing answered yet)'),
    );
  return { exp, rows, judges };
}

/** Which judge of A meets which of B: as asked, else the labels both share, else the only two. */
function judgePairs(a: Side, b: Side, sa: CompareSide, sb: CompareSide): [string, string][] {
  if (sa.judge !== undefined || sb.judge !== undefined) {
    const ja = sa.judge ?? sb.judge!;
    const jb = sb.judge ?? sa.judge!;
    for (const [side, j, which] of [
      [a, ja, 'A'],
      [b, jb, 'B'],
    ] as const)
      if (!side.judges.includes(j))
        throw new AppError(
          'invalid_params',
          `${which}: experiment "${side.exp.row.name}" has no judge "${j}"`,
        );
    if (a.exp.row.id === b.exp.row.id && ja === jb)
      throw new AppError('invalid_params', 'A and B are the same judge of the same experiment: pick two.');
    return [[ja, jb]];
  }
  if (a.exp.row.id === b.exp.row.id)
    throw new AppError('invalid_params', 'Two judges of one experiment: name the judge of each side.');
  const shared = a.judges.filter((j) => b.judges.includes(j));
  if (shared.length) return shared.map((j) => [j, j]);
  if (a.judges.length === 1 && b.judges.length === 1) return [[a.judges[0], b.judges[0]]];
  throw new AppError(
    'invalid_params',
    `The experiments share no judge label (A: ${a.judges.join(', ') || 'none'}; B: ${b.judges.join(', ') || 'none'}); name the judge of each side.`,
  );
}

const key = (r: ComparableRow) => `${r.condition}\u0000${r.item}\u0000${r.unit}`;

function compareRow(
  judgeA: string,
  judgeB: string,
  condition: string,
  pairs: { item: string; a: boolean; b: boolean }[],
  opts: Required<CompareOptions>,
): Omit<CompareRow, 'mcnemar_p_holm'> {
  const n = pairs.length;
  const clusters = new Map<string, PairedCluster>();
  let ca = 0;
  let cb = 0;
  let aOnly = 0;
  let bOnly = 0;
  for (const p of pairs) {
    const c = clusters.get(p.item) ?? { numA: 0, denA: 0, numB: 0, denB: 0 };
    c.denA++;
    c.denB++;
    if (p.a) {
      c.numA++;
      ca++;
    }
    if (p.b) {
      c.numB++;
      cb++;
    }
    if (p.a && !p.b) aOnly++;
    if (p.b && !p.a) bOnly++;
    clusters.set(p.item, c);
  }
  // Items in id order: the interval does not depend on the order the store returned rows in.
  const ordered = [...clusters.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, c]) => c);
  return {
    judge_a: judgeA,
    judge_b: judgeB,
    condition,
    n,
    items: clusters.size,
    accuracy_a: ca / n,
    accuracy_b: cb / n,
    delta: (cb - ca) / n,
    // Two sides that are right on the same observations have Δ = 0 in every resample: no interval.
    ...intervalFields(
      'delta_ci',
      ruledBootstrap(
        pairedBootstrapDiff(ordered, { B: opts.bootstrapB, seed: opts.seed }),
        RANGE.rateDifference,
      ),
    ),
    agreement: (n - aOnly - bOnly) / n,
    a_only_correct: aOnly,
    b_only_correct: bOnly,
    mcnemar_p: clusteredMcnemar(
      pairs,
      (p) => p.item,
      (p) => (p.a === p.b ? 0 : p.a ? 1 : -1),
    ),
  };
}

/** Compares side A with side B on their shared graded observations. */
export function compareRuns(
  db: Database,
  sa: CompareSide,
  sb: CompareSide,
  options: CompareOptions = {},
): CompareResult {
  const a = loadSide(db, sa, 'a');
  const b = loadSide(db, sb, 'b');
  if (a.exp.protocol.id !== b.exp.protocol.id)
    throw new AppError(
      'invalid_params',
      `Only runs of one protocol compare: "${a.exp.row.name}" is ${a.exp.protocol.title}, "${b.exp.row.name}" is ${b.exp.protocol.title}.`,
    );
  const opts: Required<CompareOptions> = {
    bootstrapB: options.bootstrapB ?? DEFAULT_BOOTSTRAP_B,
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
  };
  const rows: Omit<CompareRow, 'mcnemar_p_holm'>[] = [];
  for (const [ja, jb] of judgePairs(a, b, sa, sb)) {
    const bRows = new Map(b.rows.filter((r) => r.judge === jb).map((r) => [key(r), r]));
    const byCondition = new Map<string, { item: string; a: boolean; b: boolean }[]>();
    for (const r of a.rows) {
      if (r.judge !== ja) continue;
      const other = bRows.get(key(r));
      if (!other) continue;
      const list = byCondition.get(r.condition) ?? [];
      list.push({ item: r.item, a: r.correct, b: other.correct });
      byCondition.set(r.condition, list);
    }
    const all = [...byCondition.values()].flat();
    if (!all.length) continue;
    for (const [condition, pairs] of byCondition) rows.push(compareRow(ja, jb, condition, pairs, opts));
    if (byCondition.size > 1) rows.push(compareRow(ja, jb, ALL_CONDITIONS, all, opts));
  }
  if (!rows.length)
    throw new AppError(
      'invalid_params',
      `"${a.exp.row.name}" and "${b.exp.row.name}" have no graded answer on a shared item yet.`,
    );
  // Holm over the per-condition rows; the pooled rows repeat their data, so they are not in the family.
  const family = rows.map((r, i) => [r, i] as const).filter(([r]) => r.condition !== ALL_CONDITIONS);
  const adjusted = holmAdjust(family.map(([r]) => r.mcnemar_p));
  const holm = new Map(family.map(([, i], k) => [i, adjusted[k]]));
  const result: Omit<CompareResult, 'table'> = {
    protocol: a.exp.protocol.id,
    a: { experimentId: a.exp.row.id, name: a.exp.row.name, judges: a.judges },
    b: { experimentId: b.exp.row.id, name: b.exp.row.name, judges: b.judges },
    rows: rows.map((r, i) => ({ ...r, mcnemar_p_holm: holm.get(i) ?? null })),
    statistics: { bootstrap_b: opts.bootstrapB, bootstrap_seed: opts.seed, resampling_unit: 'item' },
  };
  return { ...result, table: compareTable(result) };
}

// Self-consistency tables (metrics.json → the generic table model; dashboard and exports).
import {
  fixedIntervalText as interval,
  fixedText as num,
  formatCi,
  undefinedText,
  type CI,
} from '../../../report/format';
import { col, withMethod, type Table, type TableRow } from '../../../report/table';
import { usageTable } from '../../../report/usage';
import { rateColumns, keyColumns, N_COLUMN, numberColumn, intervalTextColumn } from '../../../report/columns';
import { positionLeanColumns } from '../../../report/paired-tables';
import type { SelfConsistencyMetrics, StabilityRow } from '../types';

export const BOOTSTRAP_METHOD = 'item-clustered percentile bootstrap';

/** A condition in words: "T=0.7" as is, "own" as the judge's own temperature. */
export function conditionLabel(id: string): string {
  return id === 'own' ? "judge's own" : id;
}

/** A value that may not exist: the number, or "undefined (why)". */
export function orUndefined(v: number | null | undefined, reason: string | undefined, digits = 3): string {
  if (v === null || v === undefined) return undefinedText(reason ?? 'no data');
  return num(v, digits) ?? '';
}

/** A bootstrap CI in points, or "undefined (why)" where it does not exist. */
export function ciText(ci: CI | null | undefined, reason: string | undefined): string {
  return ci ? formatCi(ci) : undefinedText(reason ?? 'no data');
}

function stabilityTable(m: SelfConsistencyMetrics): Table {
  const pointwise = m.mode === 'pointwise';
  return {
    id: 'stability',
    title: 'Stability: how often a judge disagrees with itself',
    caption:
      `Each question (item${m.mode === 'pairwise' ? ' × order' : ''}) asked ${m.repeats} times with the same ` +
      'request. Unanimous: share of questions (≥ 2 valid repeats) whose repeats all agree. P(disagree): ' +
      'chance that two repeats of one question differ, averaged over questions. Both with an item-clustered ' +
      `percentile bootstrap 95% CI (B = ${m.statistics.bootstrap_b}). Fleiss' κ: repeats as raters, over complete ` +
      'questions (every repeat valid)' +
      (pointwise
        ? '; within-SD: mean SD of a question\u2019s scores; ICC(1): one-way random, single rating, F-based 95% CI.'
        : '.') +
      ' Failed: repeats without a usable answer (every row counts them).',
    columns: [
      ...keyColumns('judge', 'condition', 'category'),
      col('questions', 'Questions', 'int'),
      col('unanimous_rate', 'Unanimous', 'pct'),
      withMethod(intervalTextColumn('unanimous_rate_ci', '95% CI'), BOOTSTRAP_METHOD),
      col('disagree_prob', 'P(disagree)', 'pct'),
      withMethod(intervalTextColumn('disagree_prob_ci', '95% CI'), BOOTSTRAP_METHOD),
      numberColumn('fleiss_kappa', 'Fleiss κ'),
      col('complete', 'Complete', 'int'),
      ...(pointwise
        ? [
            numberColumn('within_sd', 'Within-SD'),
            numberColumn('icc1', 'ICC(1)'),
            intervalTextColumn('icc1_ci', 'ICC 95% CI'),
          ]
        : []),
      col('asked', 'Asked', 'int'),
      col('failed', 'Failed', 'int'),
    ],
    rows: m.stability.map((r: StabilityRow): TableRow => ({
      judge: r.judge,
      condition: temperatureText(r),
      // Not a column: the condition's id, which the verdict browser's filter reads (its words are
      // translated there; the temperature text with the judge's own value is not a fixed word).
      condition_id: r.condition,
      category: r.category,
      questions: r.questions,
      unanimous_rate: r.unanimous_rate,
      unanimous_rate_ci: ciText(r.unanimous_rate_ci, r.unanimous_rate_ci_undefined_reason),
      disagree_prob: r.disagree_prob,
      disagree_prob_ci: ciText(r.disagree_prob_ci, r.disagree_prob_ci_undefined_reason),
      fleiss_kappa: orUndefined(r.fleiss_kappa, r.fleiss_kappa_undefined_reason),
      complete: r.complete,
      ...(pointwise
        ? {
            within_sd: orUndefined(r.within_sd, 'fewer than 2 valid repeats'),
            icc1: orUndefined(r.icc1, r.icc1_undefined_reason),
            icc1_ci: interval(r.icc1_ci, 3, r.icc1_undefined_reason ?? 'no data'),
          }
        : {}),
      asked: r.asked,
      failed: r.failed,
    })),
  };
}

/** The temperature of a row: the condition, with the judge's own value where it has one. */
export function temperatureText(r: { condition: string; temperature: number | null }): string {
  if (r.condition !== 'own') return r.condition;
  return r.temperature === null ? "judge's own (provider default)" : `judge's own (T=${r.temperature})`;
}

export function buildSelfConsistencyTables(m: SelfConsistencyMetrics): Table[] {
  const tables: Table[] = [stabilityTable(m)];
  if (m.accuracy_by_k.length)
    tables.push({
      id: 'accuracy_by_k',
      title: 'Accuracy of one repeat and of the majority of k repeats',
      caption:
        'Complete questions with a gold label (the same questions for every k), all categories and each one. ' +
        (m.mode === 'pairwise'
          ? 'Majority: the most frequent choice of the first k repeats; a tied vote (possible with ties) counts as wrong. '
          : 'Majority: the median score of the first k repeats, compared with the human score rounded half up. ') +
        'Odd k only. Mean single: one repeat\u2019s accuracy averaged over every repeat index. Item-clustered bootstrap 95% CI.',
      columns: [
        ...keyColumns('judge', 'condition', 'category'),
        col('k', 'k', 'int'),
        N_COLUMN,
        col('accuracy', 'Accuracy', 'pct'),
        withMethod(intervalTextColumn('accuracy_ci', '95% CI'), BOOTSTRAP_METHOD),
        col('single_mean', 'Mean single', 'pct'),
      ],
      rows: m.accuracy_by_k.map((r) => ({
        judge: r.judge,
        condition: conditionLabel(r.condition),
        category: r.category,
        // Not a column: the condition's id, for the verdict browser's filter (as in stability).
        condition_id: r.condition,
        k: r.k,
        n: r.n,
        accuracy: r.accuracy,
        accuracy_ci: ciText(r.accuracy_ci, r.accuracy_ci_undefined_reason),
        single_mean: r.single_mean ?? null,
      })),
    });
  if (m.position_by_k.length)
    tables.push({
      id: 'position_by_k',
      title: 'Position consistency with k repeats per order',
      caption:
        'Items with every repeat of both orders valid: share whose majority choice of the first k repeats is the ' +
        'same in both orders (a tied vote is not consistent); Wilson 95% CI. Mean single: one repeat per order, ' +
        'averaged over the repeat index. Position lean of the k-vote majorities, paired by item: items whose ' +
        'majority chose the answer shown first in both orders against those that chose the second in both; ' +
        'lean p: exact McNemar, Holm: adjusted across the table. First rate: ½ + (both first − both second) / 2n ' +
        "over the items decided in both orders, with Newcombe's paired 95% CI (method 10).",
      columns: [
        ...keyColumns('judge', 'condition'),
        col('k', 'k', 'int'),
        col('n', 'Items', 'int'),
        ...rateColumns('consistency', 'Consistent', { method: 'Wilson score' }),
        col('single_mean', 'Mean single', 'pct'),
        ...positionLeanColumns({ key: 'lean_p_holm', method: true }),
      ],
      rows: m.position_by_k.map((r) => ({
        judge: r.judge,
        condition: conditionLabel(r.condition),
        // Not a column: the condition's id, for the verdict browser's filter (as in stability).
        condition_id: r.condition,
        k: r.k,
        n: r.n,
        consistency: r.consistency,
        consistency_ci: r.consistency_ci,
        single_mean: r.single_mean ?? null,
        both_first: r.both_first,
        both_second: r.both_second,
        first_rate: r.first_rate,
        first_rate_ci: r.first_rate_ci,
        lean_p: r.lean_p,
        lean_p_holm: r.lean_p_holm,
      })),
      families: [
        {
          name: 'position_by_k',
          method: 'holm',
          p: 'lean_p',
          adjusted: 'lean_p_holm',
          by: [],
          hypothesis: ['judge', 'condition_id', 'k'],
        },
      ],
    });
  tables.push({
    id: 'agreement_histogram',
    title: 'Per-question agreement',
    caption: `Complete questions by how many of the ${m.repeats} repeats give the most frequent verdict.`,
    columns: [
      ...keyColumns('judge', 'condition'),
      numberColumn('modal', 'Agreeing repeats'),
      col('questions', 'Questions', 'int'),
    ],
    rows: m.agreement_histogram.map((b) => ({
      judge: b.judge,
      condition: conditionLabel(b.condition),
      modal: `${b.modal}/${m.repeats}`,
      questions: b.questions,
    })),
  });
  tables.push({
    id: 'unstable',
    title: 'Unstable questions',
    caption:
      'Questions whose valid repeats do not all agree; verdicts in sample order (× = no usable answer).',
    columns: [
      ...keyColumns('judge', 'condition', 'item_id', 'category'),
      col('order', 'Order', 'text'),
      col('verdicts', 'Verdicts', 'text'),
      col('distinct', 'Distinct', 'int'),
    ],
    rows: m.unstable.map((r) => ({ ...r, condition: conditionLabel(r.condition) })),
  });
  tables.push({
    id: 'failures',
    title: 'Failed repeats',
    caption: 'Repeats without a usable answer after the retries, by judge, temperature and reason.',
    columns: [...keyColumns('judge', 'condition', 'reason'), col('count', 'Count', 'int')],
    rows: m.failures.map((f) => ({ ...f, condition: conditionLabel(f.condition) })),
  });
  tables.push(usageTable(m.usage));
  return tables;
}

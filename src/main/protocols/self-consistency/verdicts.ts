// Self-consistency's verdicts for the verdict browser (issue 26 item 4). The stability table
// counts questions (one request, item × order, asked K times), not single verdicts, so each row
// listed is one question: its K verdicts in sample order ("A A B A A"; "×" where a repeat has no
// usable answer) and every repeat's reason. Only questions with at least two valid repeats are
// listed, as only those are the table's `questions` (its rates' denominator). The accuracy by k
// lists each complete question with gold once per k (kind `vote`): its first k verdicts, graded
// by whether their majority is the gold verdict. Fleiss' κ and ICC(1) read only the complete
// questions (every repeat valid): a second link on the stability table opens those (kind
// `complete`), n the table's `complete`. The position by k lists each item with every repeat of
// both orders valid once per k (kind `order_vote`): "A B A → B B A", the first k verdicts in the
// original order, then in the swapped order, as the judge said them (A in one order is B in the
// other), with every reason. The mean singles open the same questions (kind `graded`) or items
// (kind `order_pair`) with all their repeats, as they grade every repeat index apart.
import { ALL, type Verdict } from '../../../shared/protocols/self-consistency/types';
import { withIntervals, type VerdictLink, type VerdictList, type VerdictRow } from '../../../shared/verdicts';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { MetricsContext, VerdictHooks } from '../plugin';
import { metricsInput, type ScExperiment } from './experiment';
import {
  completeQuestions,
  goldedOf,
  listedOrderPairs,
  listedOrderVotes,
  listedVotes,
  questionsOf,
  type OrderPair,
  type Question,
} from './metrics';
import type { RepeatMeta } from './plan';

// A table row is one judge at one temperature (its condition), in one category or in all of them
// (the pooled row, "all", filters no category).
const BY_CONDITION = { judge: 'judge', condition_id: 'condition' };
const BY_CATEGORY = { ...BY_CONDITION, category: 'category' };
const ALL_CATEGORIES = { category: ALL };

export const SC_VERDICT_LINKS: readonly VerdictLink[] = [
  {
    table: 'stability',
    by: BY_CATEGORY,
    where: { kind: 'question' },
    pooled: ALL_CATEGORIES,
    // The within-SD too: the mean SD over these questions (pointwise). Not κ or ICC: below.
    columns: ['questions', ...withIntervals('unanimous_rate', 'disagree_prob'), 'within_sd'],
    count: 'questions',
  },
  {
    table: 'stability',
    by: BY_CATEGORY,
    where: { kind: 'complete' },
    pooled: ALL_CATEGORIES,
    // Fleiss' κ and ICC(1) read only the complete questions (every repeat valid).
    columns: ['complete', 'fleiss_kappa', ...withIntervals('icc1')],
    count: 'complete',
  },
  {
    table: 'accuracy_by_k',
    by: { ...BY_CATEGORY, k: 'k' },
    where: { kind: 'vote' },
    pooled: ALL_CATEGORIES,
    // Not the mean single: it grades every repeat alone, not the vote listed (below).
    columns: ['n', ...withIntervals('accuracy')],
    count: 'n',
  },
  {
    table: 'accuracy_by_k',
    by: BY_CATEGORY,
    where: { kind: 'graded' },
    pooled: ALL_CATEGORIES,
    // The mean single (on the k = 1 row): the same questions, every repeat graded alone.
    columns: ['single_mean'],
    count: 'n',
  },
  {
    table: 'position_by_k',
    by: { ...BY_CONDITION, k: 'k' },
    where: { kind: 'order_vote' },
    // Not the mean single: it compares every repeat index, not the votes listed (below).
    columns: ['n', ...withIntervals('consistency')],
    count: 'n',
  },
  {
    table: 'position_by_k',
    by: BY_CONDITION,
    where: { kind: 'order_pair' },
    // The mean single (on the k = 1 row): the same items, every repeat index in both orders.
    columns: ['single_mean'],
    count: 'n',
  },
];

const NO_ANSWER = '×';
const key = (...parts: (string | number)[]) => parts.join('\u0000');

/** Each repeat's reason by question, from the stored answers the metrics read. */
function reasonsOf(ctx: MetricsContext<ScExperiment>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of ctx.results) {
    if (r.status !== 'ok') continue;
    const m = r.meta as RepeatMeta;
    const k = key(m.judge, m.condition, m.sourceId, m.order);
    const list = out.get(k) ?? [];
    list[m.sample] = (r.value as PairwiseVerdict | ScoreVerdict).reason;
    out.set(k, list);
  }
  return out;
}

function verdictRows(ctx: MetricsContext<ScExperiment>): VerdictList {
  const input = metricsInput(ctx);
  const reasons = reasonsOf(ctx);
  const rows: VerdictRow[] = [];
  const listed = (q: Question, kind: string, k: number, correct: boolean | null): VerdictRow => {
    const said = reasons.get(key(q.judge, q.condition, q.item.sourceId, q.order)) ?? [];
    const shown = q.shown.slice(0, k);
    return {
      itemId: q.item.id,
      sourceId: q.item.sourceId,
      fields: {
        kind,
        judge: q.judge,
        condition: q.condition,
        category: q.item.category,
        order: q.order,
        ...(kind === 'vote' || kind === 'order_vote' ? { k: String(k) } : {}),
      },
      verdict: shown.map((s) => s ?? NO_ANSWER).join(' '),
      correct,
      shown: null,
      reason: shown.map((s, i) => `${i + 1}. ${s === undefined ? NO_ANSWER : (said[i] ?? '')}`).join('\n'),
    };
  };
  const questions = questionsOf(input);
  for (const q of questions) {
    const valid = q.verdicts.filter((v): v is Verdict => v !== undefined);
    if (valid.length >= 2) rows.push(listed(q, 'question', q.shown.length, null));
  }
  for (const q of completeQuestions(questions)) rows.push(listed(q, 'complete', q.shown.length, null));
  // The accuracy by k: each complete question with gold once per k, its first k repeats and
  // whether their majority is the gold verdict.
  for (const v of listedVotes(input, questions)) rows.push(listed(v.q, 'vote', v.k, v.hit));
  // The position by k: an item's first k repeats in both orders.
  const orderVote = ({ orig, swap }: OrderPair, kind: string, k: number): VerdictRow => {
    const [a, b] = [listed(orig, kind, k, null), listed(swap, kind, k, null)];
    const side = (order: string, reason: string) =>
      reason
        .split('\n')
        .map((line) => `${order} ${line}`)
        .join('\n');
    return {
      ...a,
      fields: { ...a.fields, order: 'orig → swap' },
      verdict: `${a.verdict} → ${b.verdict}`,
      reason: `${side('orig', a.reason)}\n${side('swap', b.reason)}`,
    };
  };
  for (const v of listedOrderVotes(input, questions)) rows.push(orderVote(v.p, 'order_vote', v.k));
  // The mean singles: every repeat of the same questions (or items), graded one by one.
  for (const q of goldedOf(questions)) rows.push(listed(q, 'graded', q.shown.length, null));
  for (const p of listedOrderPairs(input, questions))
    rows.push(orderVote(p, 'order_pair', p.orig.shown.length));
  return { fields: ['kind', 'judge', 'condition', 'category', 'order', 'k'], rows };
}

export const scVerdicts: VerdictHooks<ScExperiment> = { links: SC_VERDICT_LINKS, rows: verdictRows };

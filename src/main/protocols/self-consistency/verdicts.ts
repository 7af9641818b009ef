// Self-consistency's verdicts for the verdict browser (issue 26 item 4). The stability table
// counts questions (one request, item × order, asked K times), not single verdicts, so each row
// listed is one question: its K verdicts in sample order ("A A B A A"; "×" where a repeat has no
// usable answer) and every repeat's reason. Only questions with at least two valid repeats are
// listed, as only those are the table's `questions` (its rates' denominator). The accuracy by k
// lists each complete question with gold once per k (kind `vote`): its first k verdicts, graded
// by whether their majority is the gold verdict.
import { ALL, type Verdict } from '../../../shared/protocols/self-consistency/types';
import type { VerdictLink, VerdictList, VerdictRow } from '../../../shared/verdicts';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { MetricsContext, VerdictHooks } from '../plugin';
import { metricsInput, type ScExperiment } from './experiment';
import { listedVotes, questionsOf, type Question } from './metrics';
import type { RepeatMeta } from './plan';

export const SC_VERDICT_LINKS: readonly VerdictLink[] = [
  {
    table: 'stability',
    by: { judge: 'judge', condition_id: 'condition', category: 'category' },
    where: { kind: 'question' },
    pooled: { category: ALL },
    // Not κ, ICC or within-SD: they read only the complete questions (every repeat valid).
    columns: ['questions', 'unanimous_rate', 'unanimous_rate_ci', 'disagree_prob', 'disagree_prob_ci'],
    count: 'questions',
  },
  {
    table: 'accuracy_by_k',
    by: { judge: 'judge', condition_id: 'condition', category: 'category', k: 'k' },
    where: { kind: 'vote' },
    pooled: { category: ALL },
    // Not the mean single: it grades every repeat alone, not the vote listed.
    columns: ['n', 'accuracy', 'accuracy_ci'],
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
        ...(kind === 'vote' ? { k: String(k) } : {}),
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
  // The accuracy by k: each complete question with gold once per k, its first k repeats and
  // whether their majority is the gold verdict.
  for (const v of listedVotes(input, questions)) rows.push(listed(v.q, 'vote', v.k, v.hit));
  return { fields: ['kind', 'judge', 'condition', 'category', 'order', 'k'], rows };
}

export const scVerdicts: VerdictHooks<ScExperiment> = { links: SC_VERDICT_LINKS, rows: verdictRows };

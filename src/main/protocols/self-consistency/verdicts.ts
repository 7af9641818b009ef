// Self-consistency's verdicts for the verdict browser (issue 26 item 4). The stability table
// counts questions (one request, item × order, asked K times), not single verdicts, so each row
// listed is one question: its K verdicts in sample order ("A A B A A"; "×" where a repeat has no
// usable answer) and every repeat's reason. Only questions with at least two valid repeats are
// listed, as only those are the table's `questions` (its rates' denominator).
import { ALL, type Verdict } from '../../../shared/protocols/self-consistency/types';
import type { VerdictLink, VerdictList, VerdictRow } from '../../../shared/verdicts';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { MetricsContext, VerdictHooks } from '../plugin';
import { metricsInput, type ScExperiment } from './experiment';
import { questionsOf } from './metrics';
import type { RepeatMeta } from './plan';

export const SC_VERDICT_LINKS: readonly VerdictLink[] = [
  {
    table: 'stability',
    by: { judge: 'judge', condition_id: 'condition', category: 'category' },
    pooled: { category: ALL },
    // Not κ, ICC or within-SD: they read only the complete questions (every repeat valid).
    columns: ['questions', 'unanimous_rate', 'unanimous_rate_ci', 'disagree_prob', 'disagree_prob_ci'],
    count: 'questions',
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
  for (const q of questionsOf(input)) {
    const valid = q.verdicts.filter((v): v is Verdict => v !== undefined);
    if (valid.length < 2) continue;
    const said = reasons.get(key(q.judge, q.condition, q.item.sourceId, q.order)) ?? [];
    rows.push({
      itemId: q.item.id,
      sourceId: q.item.sourceId,
      fields: {
        judge: q.judge,
        condition: q.condition,
        category: q.item.category,
        order: q.order,
      },
      verdict: q.shown.map((s) => s ?? NO_ANSWER).join(' '),
      correct: null,
      shown: null,
      reason: q.shown.map((s, i) => `${i + 1}. ${s === undefined ? NO_ANSWER : (said[i] ?? '')}`).join('\n'),
    });
  }
  return { fields: ['judge', 'condition', 'category', 'order'], rows };
}

export const scVerdicts: VerdictHooks<ScExperiment> = { links: SC_VERDICT_LINKS, rows: verdictRows };

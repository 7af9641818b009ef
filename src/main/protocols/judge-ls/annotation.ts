// Human ratings for Judge-LS (DESIGN.md section 5d): people give a pairwise preference on the
// original English item, with output_1 shown as Response A and output_2 as Response B; the
// judges' EN verdicts are normalized to the same outputs.
import type { AnnotationHooks, AnnotationTask, MetricsContext } from '../plugin';
import { EQUIVALENCE_TASK, equivalenceTask } from './equivalence-annotation';
import type { JudgeRating, RatingValue } from '../../../shared/annotation/types';
import type { JudgeAsk } from '../../../shared/annotation/least-sure';
import { normalizeChoice } from '../../../shared/protocols/judge-ls/choice';
import type { Winner } from '../../../shared/protocols/judge-ls/types';
import type { JudgeTaskMeta } from './model';
import { pairwiseFields } from './pairwise-item';

/**
 * A judge's preference on an item: its EN verdicts in both orders, normalized to output numbers.
 * Both orders agree → that output; they disagree → 'tie' (the verdict depends on the position,
 * so the judge has no preference of its own); only one order answered → that one.
 */
export function judgePreferences(ctx: Pick<MetricsContext, 'results' | 'exp'>): JudgeRating[] {
  const byJudgeItem = new Map<
    string,
    { itemId: number; sourceId: string; judge: string; choices: RatingValue[] }
  >();
  for (const r of ctx.results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeTaskMeta;
    if (m.kind !== 'quality' || m.language !== 'EN') continue;
    const choice = normalizeChoice(m.order, (r.value as { winner: Winner }).winner);
    const key = `${m.judge}\u0000${m.sourceId}`;
    const entry = byJudgeItem.get(key) ?? {
      itemId: m.itemId,
      sourceId: m.sourceId,
      judge: m.judge,
      choices: [],
    };
    entry.choices.push(String(choice));
    byJudgeItem.set(key, entry);
  }
  const subsets = new Map(ctx.exp.items.map((i) => [i.id, i.subset]));
  return [...byJudgeItem.values()].map((e) => ({
    itemKey: e.sourceId,
    itemId: e.itemId,
    judge: e.judge,
    category: subsets.get(e.itemId) ?? null,
    kind: 'preference' as const,
    value: e.choices.every((c) => c === e.choices[0]) ? e.choices[0] : 'tie',
  }));
}

/** Each EN quality verdict (both orders, first asks and the noise floor's repeats), by output number. */
export function judgeLsAsks(ctx: Pick<MetricsContext, 'results'>): JudgeAsk[] {
  const out: JudgeAsk[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeTaskMeta;
    if (m.kind !== 'quality' || m.language !== 'EN') continue;
    out.push({
      itemKey: m.sourceId,
      judge: m.judge,
      order: m.order,
      sample: m.sample ?? 0,
      value: String(normalizeChoice(m.order, (r.value as { winner: Winner }).winner)),
    });
  }
  return out;
}

export const judgeLsAnnotation: AnnotationHooks = {
  scale: () => ({ kind: 'preference' }),
  units: (ctx) =>
    ctx.exp.items.map((item) => {
      const f = pairwiseFields(item);
      return {
        itemKey: item.sourceId,
        itemId: item.id,
        sourceId: item.sourceId,
        category: item.subset,
        view: { prompt: f.instruction, responses: [f.output1, f.output2] },
      };
    }),
  judgeRatings: judgePreferences,
  asks: judgeLsAsks,
  tasks: { [EQUIVALENCE_TASK]: equivalenceTask as AnnotationTask },
};

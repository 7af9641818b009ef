// Human ratings for bias probes (DESIGN.md section 5d): in pointwise mode people score each
// response alone on the judge's scale; in pairwise mode they prefer one output of the pair in its
// original order. Each judge's raw score sits beside its debiased one (Markdown stripped, pairwise
// averaged over both orders), so agreement with people can be read raw vs debiased.
import type { AnnotationUnit, JudgeRating } from '../../../shared/annotation/types';
import type { JudgeAsk } from '../../../shared/annotation/least-sure';
import type { AnnotationHooks, MetricsContext } from '../plugin';
import { biasItems, itemScores, type BiasExperiment } from './experiment';
import { choiceOf } from './metrics';
import type { JudgeMeta } from './plan';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';

/** Pointwise units are one response of an item; pairwise units are the item. */
const unitKey = (sourceId: string, slot: string, pairwise: boolean): string =>
  pairwise ? sourceId : `${sourceId}#${slot}`;

/** output_1's win score (1 win, ½ tie, 0 loss) as a preference: '1', 'tie' or '2'. */
function preferenceOf(winScore: number): string {
  return winScore > 0.5 ? '1' : winScore < 0.5 ? '2' : 'tie';
}

export const biasAnnotation: AnnotationHooks<BiasExperiment> = {
  scale: (exp) =>
    exp.options.mode === 'pairwise'
      ? { kind: 'preference' }
      : { kind: 'score', min: 1, max: exp.options.scale },

  units(ctx: MetricsContext<BiasExperiment>): AnnotationUnit[] {
    const pairwise = ctx.exp.options.mode === 'pairwise';
    return biasItems(ctx.exp).flatMap((item) => {
      const base = { itemId: item.id, sourceId: item.sourceId, category: item.category };
      if (pairwise)
        return [
          {
            ...base,
            itemKey: unitKey(item.sourceId, '', true),
            view: { prompt: item.instruction, responses: item.responses.map((r) => r.text) },
          },
        ];
      return item.responses.map((r) => ({
        ...base,
        itemKey: unitKey(item.sourceId, r.slot, false),
        view: { prompt: item.instruction, responses: [r.text] },
      }));
    });
  },

  /**
   * The answers on the texts people see: pairwise, the original pair in both orders; pointwise, a
   * response scored alone as written (the position probe's pair-shown scores are another question).
   * With the noise floor on, their repeats.
   */
  asks(ctx: MetricsContext<BiasExperiment>): JudgeAsk[] {
    const out: JudgeAsk[] = [];
    for (const r of ctx.results) {
      if (r.stage !== 'judge' || r.status !== 'ok') continue;
      const m = r.meta as JudgeMeta;
      if (m.condition !== 'original') continue;
      if (m.mode === 'pairwise' && m.order)
        out.push({
          itemKey: unitKey(m.sourceId, '', true),
          judge: m.judge,
          order: m.order,
          sample: m.sample ?? 0,
          value: String(choiceOf(r.value as PairwiseVerdict, m.order)),
        });
      else if (m.mode === 'pointwise' && !m.shown && m.slot)
        out.push({
          itemKey: unitKey(m.sourceId, m.slot, false),
          judge: m.judge,
          order: null,
          sample: m.sample ?? 0,
          value: (r.value as ScoreVerdict).score,
        });
    }
    return out;
  },

  judgeRatings(ctx: MetricsContext<BiasExperiment>): JudgeRating[] {
    const pairwise = ctx.exp.options.mode === 'pairwise';
    const ids = new Map(ctx.exp.items.map((i) => [i.sourceId, i.id]));
    return itemScores(ctx).flatMap((s) => {
      const itemId = ids.get(s.itemId);
      if (s.raw === null || itemId === undefined) return [];
      return [
        {
          itemKey: unitKey(s.itemId, s.response, pairwise),
          itemId,
          judge: s.judge,
          category: s.category || null,
          kind: pairwise ? ('preference' as const) : ('score' as const),
          value: pairwise ? preferenceOf(s.raw) : s.raw,
          // Preferences are coded +1 / 0 / −1 for output_1 in the agreement statistics.
          debiased: s.debiased === null ? null : pairwise ? 2 * s.debiased - 1 : s.debiased,
        },
      ];
    });
  },
};

// People mark "equivalent?" on translations (issue 37): a rating task beside the judges'
// preferences. A unit is one translation (item × target language) that was back-translated:
// people see the English source and the translation and answer yes or no; the automatic checks
// (chrF against the threshold, and the LLM verdict when it was asked) are the task's "judges", so
// the agreement report gives their κ with people and (the scale's positive label being "no") their
// sensitivity and specificity. The sample is stratified by the check's pass/fail × language.
import type { AnnotationTask, MetricsContext } from '../plugin';
import type { Database } from '../host';
import type { AnnotationUnit, JudgeRating, RatingScale } from '../../../shared/annotation/types';
import type { VerificationRow } from '../../../shared/protocols/judge-ls/types';
import { currentVariants, type Exp } from './experiment';
import { pairwiseFields } from './pairwise-item';
import { verificationRows } from './verification';

export const EQUIVALENCE_TASK = 'translation_equivalence';
export const EQUIVALENT = 'yes';
export const NOT_EQUIVALENT = 'no';
/** The judge name of the LLM's equivalence verdict in the agreement report. */
export const LLM_CHECK = 'LLM verdict';
export const chrfCheck = (min: number) => `chrF ≥ ${min}`;

/** Instruction and both responses in one text, numbered without words of any language. */
const asText = (t: { instruction: string; output1: string; output2: string }) =>
  `${t.instruction}\n\n[1] ${t.output1}\n\n[2] ${t.output2}`;

const unitKey = (r: Pick<VerificationRow, 'item_id' | 'language'>) => `${r.item_id}::${r.language}`;

function rowsOf(ctx: MetricsContext<Exp>): VerificationRow[] {
  const v = ctx.exp.options.verify;
  return v ? verificationRows(ctx, v.minChrf, ctx.exp.options.languages, v.llmVerdict) : [];
}

export const equivalenceTask: AnnotationTask<Exp> = {
  available: (exp) => exp.options.verify !== undefined,
  scale: (): RatingScale => ({
    kind: 'label',
    labels: [EQUIVALENT, NOT_EQUIVALENT],
    task: EQUIVALENCE_TASK,
    positive: NOT_EQUIVALENT,
  }),
  units(ctx, db: Database): AnnotationUnit[] {
    const items = new Map(ctx.exp.items.map((i) => [i.sourceId, i]));
    // The translation as judged and checked: a hand edit replaces the model's text (and is checked anew).
    const variants = new Map(currentVariants(db, ctx.exp.id).map((v) => [`${v.itemId}:${v.language}`, v]));
    const out: AnnotationUnit[] = [];
    for (const r of rowsOf(ctx)) {
      const item = items.get(r.item_id);
      const variant = item && variants.get(`${item.id}:${r.language}`);
      if (!item || !variant) continue;
      out.push({
        itemKey: unitKey(r),
        itemId: item.id,
        sourceId: item.sourceId,
        category: r.language,
        stratum: `check-${r.verified ? 'pass' : 'fail'} × ${r.language}`,
        view: { prompt: asText(pairwiseFields(item)), responses: [asText(variant)] },
      });
    }
    return out;
  },
  judgeRatings(ctx): JudgeRating[] {
    const min = ctx.exp.options.verify?.minChrf ?? 0;
    const ids = new Map(ctx.exp.items.map((i) => [i.sourceId, i.id]));
    const out: JudgeRating[] = [];
    for (const r of rowsOf(ctx)) {
      const base = {
        itemKey: unitKey(r),
        itemId: ids.get(r.item_id) ?? 0,
        category: r.language,
        kind: 'label' as const,
      };
      // A failed back-translation has no chrF: the check said nothing about the translation.
      if (r.chrf !== null)
        out.push({ ...base, judge: chrfCheck(min), value: r.chrf >= min ? EQUIVALENT : NOT_EQUIVALENT });
      if (typeof r.llm_equivalent === 'boolean')
        out.push({ ...base, judge: LLM_CHECK, value: r.llm_equivalent ? EQUIVALENT : NOT_EQUIVALENT });
    }
    return out;
  },
};

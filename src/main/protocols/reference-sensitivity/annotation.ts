// Human ratings for reference sensitivity (DESIGN.md section 5d): people label each answer
// (generated or imported) CORRECT or INCORRECT, seeing the question, the gold answers and the
// answer, never which model wrote it; each judge's verdict in each setting (NR, RV, RC) is a
// rater of its own, named "<judge> · <setting>".
import type { AnnotationHooks, MetricsContext } from '../plugin';
import type { AnnotationUnit, JudgeRating } from '../../../shared/annotation/types';
import type { JudgeAsk } from '../../../shared/annotation/least-sure';
import type { JudgeMeta } from './plan';
import { answersToJudge, type RefSensExperiment } from './experiment';
import { qaItem } from './qa-item';
import type { CorrectnessVerdict } from '../../judging/correctness';

export const answerKey = (sourceId: string, generator: string): string => `${sourceId}::${generator}`;

export function refSensUnits(ctx: MetricsContext<RefSensExperiment>): AnnotationUnit[] {
  const items = new Map(ctx.exp.items.map((i) => [i.sourceId, qaItem(i)]));
  const out: AnnotationUnit[] = [];
  for (const a of answersToJudge(ctx.exp, ctx.results)) {
    const q = items.get(a.sourceId);
    if (!q) continue;
    const gold = `Gold answer${q.answers.length > 1 ? 's' : ''}: ${q.answers.join(' | ')}`;
    out.push({
      itemKey: answerKey(a.sourceId, a.generator),
      itemId: q.id,
      sourceId: q.sourceId,
      category: q.category ?? q.language,
      view: {
        prompt: q.question,
        context: q.context ? `${q.context}\n\n${gold}` : gold,
        responses: [a.answer],
      },
    });
  }
  return out;
}

export function refSensJudgeRatings(ctx: MetricsContext<RefSensExperiment>): JudgeRating[] {
  const categories = new Map(ctx.exp.items.map((i) => [i.id, qaItem(i)]));
  const out: JudgeRating[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeMeta;
    // The noise floor's repeat is the placebo, not a second rating: counted, it would enter every
    // agreement statistic twice for the NR setting.
    if (m.sample) continue;
    const q = categories.get(m.itemId);
    out.push({
      itemKey: answerKey(m.sourceId, m.generator),
      itemId: m.itemId,
      judge: `${m.judge} · ${m.setting}`,
      category: q ? (q.category ?? q.language) : null,
      kind: 'label',
      value: (r.value as CorrectnessVerdict).verdict,
    });
  }
  return out;
}

/** Every verdict, first asks and the noise floor's NR repeats, each judge · setting a rater. */
export function refSensAsks(ctx: MetricsContext<RefSensExperiment>): JudgeAsk[] {
  const out: JudgeAsk[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeMeta;
    out.push({
      itemKey: answerKey(m.sourceId, m.generator),
      judge: `${m.judge} · ${m.setting}`,
      order: null,
      sample: m.sample ?? 0,
      value: (r.value as CorrectnessVerdict).verdict,
    });
  }
  return out;
}

export const refSensAnnotation: AnnotationHooks<RefSensExperiment> = {
  scale: () => ({ kind: 'label', labels: ['CORRECT', 'INCORRECT'] }),
  units: refSensUnits,
  judgeRatings: refSensJudgeRatings,
  asks: refSensAsks,
};

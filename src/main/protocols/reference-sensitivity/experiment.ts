// A reference-sensitivity experiment as the plug-in, its annotation and judgments CSV read it:
// the answers there are to judge. Below plugin.ts, which assembles them.
import type { ExperimentView, TaskResult } from '../plugin';
import { type RefSensConfig, type RefSensOptions } from './config';
import { type AnswerToJudge, type GenerateMeta } from './plan';

export type RefSensExperiment = ExperimentView<RefSensConfig, RefSensOptions>;

/** Answers to judge now: generated ones stored so far (ok), then imported ones. */
export function answersToJudge(exp: RefSensExperiment, generated: readonly TaskResult[]): AnswerToJudge[] {
  const selected = new Set(exp.items.map((i) => i.sourceId));
  const out: AnswerToJudge[] = [];
  for (const r of generated) {
    if (r.stage !== 'generate' || r.status !== 'ok') continue;
    const m = r.meta as GenerateMeta;
    out.push({
      generator: m.generator,
      sourceId: m.sourceId,
      answer: (r.value as { answer: string }).answer,
      imported: false,
    });
  }
  for (const a of exp.options.imported)
    if (selected.has(a.itemId))
      out.push({ generator: a.generator, sourceId: a.itemId, answer: a.answer, imported: true });
  return out;
}

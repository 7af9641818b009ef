// The metrics input from stored results, read by the metrics, the comparison rows and the
// verdict browser alike (one reading, so their counts agree).
import type { FailureRow, UsageRow, Verdict } from '../../../shared/protocols/reference-sensitivity/types';
import type { MetricsContext } from '../plugin';
import type { CorrectnessVerdict } from '../../judging/correctness';
import { answersToJudge, type RefSensExperiment } from './experiment';
import type { AnswerRecord, CalibrationRecord, VerdictRecord } from './metrics';
import type { CalibrateMeta, GenerateMeta, JudgeMeta } from './plan';
import { qaItem, type QaItem } from './qa-item';

export const qaItems = (exp: Pick<RefSensExperiment, 'items'>): QaItem[] => exp.items.map(qaItem);

function generatorOrder(exp: RefSensExperiment): string[] {
  const gens = (exp.config.generators ?? []).map((g) => g.label);
  for (const a of exp.options.imported) if (!gens.includes(a.generator)) gens.push(a.generator);
  return gens;
}

/** The metrics input from stored results (also used by the export's judgments.csv). */
export function metricsInput(ctx: Pick<MetricsContext<RefSensExperiment>, 'exp' | 'results' | 'usage'>) {
  const exp = ctx.exp;
  const items = qaItems(exp);
  const calibration: CalibrationRecord[] = [];
  const verdicts: VerdictRecord[] = [];
  const failures = new Map<string, FailureRow>();
  const fail = (who: string, stage: FailureRow['stage'], kind: string, reason: string | null) => {
    const key = [who, stage, kind, reason].join('\u0000');
    const row = failures.get(key) ?? { who, stage, kind, reason: reason ?? 'failed', count: 0 };
    row.count++;
    failures.set(key, row);
  };
  for (const r of ctx.results) {
    const v = r.status === 'ok' ? (r.value as CorrectnessVerdict) : null;
    if (r.stage === 'calibrate') {
      const m = r.meta as CalibrateMeta;
      calibration.push({
        judge: m.judge,
        sourceId: m.sourceId,
        language: m.language,
        probe: m.probe,
        verdict: v?.verdict ?? null,
      });
      if (!v) fail(m.judge, 'calibrate', m.probe, r.reason);
    } else if (r.stage === 'judge') {
      const { judge, generator, sourceId, language, setting, sample } = r.meta as JudgeMeta;
      verdicts.push({
        judge,
        generator,
        sourceId,
        language,
        setting,
        verdict: v?.verdict ?? null,
        extracted: v?.extracted_answer ?? null,
        ...(sample ? { sample } : {}),
      });
      if (!v) fail(judge, 'judge', sample ? `${setting} repeat` : setting, r.reason);
    } else if (r.stage === 'generate' && r.status === 'failed') {
      fail((r.meta as GenerateMeta).generator, 'generate', 'answer', r.reason);
    }
  }
  const language = new Map(items.map((i) => [i.sourceId, i.language]));
  const human = new Map<string, Verdict | null>();
  for (const a of exp.options.imported) human.set(`${a.generator}\u0000${a.itemId}`, a.humanLabel);
  const answers: AnswerRecord[] = answersToJudge(exp, ctx.results).map((a) => ({
    generator: a.generator,
    sourceId: a.sourceId,
    language: language.get(a.sourceId)!,
    answer: a.answer,
    humanLabel: a.imported ? (human.get(`${a.generator}\u0000${a.sourceId}`) ?? null) : null,
  }));
  return {
    judges: exp.config.judges.map((j) => j.label),
    generators: generatorOrder(exp),
    languages: [...new Set(items.map((i) => i.language))],
    settings: exp.options.settings,
    noiseFloor: exp.options.noiseFloor,
    calibration,
    verdicts,
    answers,
    gold: new Map(items.map((i) => [i.sourceId, i.answers])),
    usage: ctx.usage as UsageRow[],
    failures: [...failures.values()],
  };
}

// Reference sensitivity's verdicts for the verdict browser (issue 26 item 4): the valid first
// verdicts on generated or imported answers the acceptance table counts (a noise-floor repeat
// is not behind it), each with the answer the judge was shown.
import type { VerdictLink, VerdictList, VerdictRow } from '../../../shared/verdicts';
import type { CorrectnessVerdict } from '../../judging/correctness';
import type { MetricsContext, VerdictHooks } from '../plugin';
import { answersToJudge, type RefSensExperiment } from './experiment';
import type { JudgeMeta } from './plan';

export const REF_SENS_VERDICT_LINKS: readonly VerdictLink[] = [
  {
    table: 'acceptance',
    by: { judge: 'judge', generator: 'generator', language: 'language', setting: 'setting' },
    // Generator "all" pools the generators.
    pooled: { generator: 'all' },
    columns: ['n', 'accept_rate', 'accept_rate_ci'],
    count: 'n',
  },
];

const slot = (generator: string, sourceId: string) => `${generator}\u0000${sourceId}`;

function verdictRows(ctx: MetricsContext<RefSensExperiment>): VerdictList {
  const answers = new Map(
    answersToJudge(ctx.exp, ctx.results).map((a) => [slot(a.generator, a.sourceId), a.answer]),
  );
  const rows: VerdictRow[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeMeta;
    const v = r.value as CorrectnessVerdict | null;
    if (!v?.verdict || m.sample || ctx.excluded.has(m.sourceId)) continue;
    rows.push({
      itemId: m.itemId,
      sourceId: m.sourceId,
      fields: { judge: m.judge, generator: m.generator, language: m.language, setting: m.setting },
      verdict: v.verdict,
      // Nothing grades a generated answer here; the human labels have their own table.
      correct: null,
      shown: answers.get(slot(m.generator, m.sourceId)) ?? null,
      reason: v.explanation,
    });
  }
  return { fields: ['judge', 'generator', 'language', 'setting'], rows };
}

export const refSensVerdicts: VerdictHooks<RefSensExperiment> = {
  links: REF_SENS_VERDICT_LINKS,
  rows: verdictRows,
};

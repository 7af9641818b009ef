// Reference sensitivity's verdicts for the verdict browser (issue 26 item 4). Single verdicts
// (kind `answer`): the valid first verdicts on generated or imported answers the acceptance table
// counts (a noise-floor repeat is not behind it), each with the answer the judge was shown.
// Pairs, one row each, built by the metrics' own pairing (`listedPairs`) so a row's n is its
// pairs' count: `calibration`, a question's C1 verdict (gold answer shown) against its C2 (a wrong
// answer shown), "CORRECT → INCORRECT"; `settings_pair`, an answer's verdict in the first setting
// of a transition against the second's (the flips table), the setting field naming the transition;
// `noise_floor` (`listedNoiseFloor`), an answer's NR verdict against its repeat ("CORRECT →
// INCORRECT", setting `NR-NR (repeat)`), or on the NR-RV and NR-RC rows the NR verdict, the
// target setting's and the repeat's ("CORRECT → INCORRECT ↺ CORRECT"), each with its reason.
import { withIntervals, type VerdictLink, type VerdictList, type VerdictRow } from '../../../shared/verdicts';
import type { CorrectnessVerdict } from '../../judging/correctness';
import type { MetricsContext, VerdictHooks } from '../plugin';
import { answersToJudge, type RefSensExperiment } from './experiment';
import { listedNoiseFloor, listedPairs } from './metrics';
import { REPEAT_TRANSITION } from '../../../shared/protocols/reference-sensitivity/report/tables';
import type { CalibrateMeta, JudgeMeta } from './plan';
import { metricsInput } from './metrics-input';

/**
 * Rows of an answer's transition between two settings (the flips and the noise floor alike): a
 * row per judge, generator, language and transition, generator "all" pooling the generators.
 */
const transitionRows = (kind: string): Pick<VerdictLink, 'by' | 'where' | 'pooled'> => ({
  by: { judge: 'judge', generator: 'generator', language: 'language', transition: 'setting' },
  where: { kind },
  pooled: { generator: 'all' },
});

export const REF_SENS_VERDICT_LINKS: readonly VerdictLink[] = [
  {
    table: 'acceptance',
    by: { judge: 'judge', generator: 'generator', language: 'language', setting: 'setting' },
    where: { kind: 'answer' },
    // Generator "all" pools the generators.
    pooled: { generator: 'all' },
    columns: ['n', ...withIntervals('accept_rate')],
    count: 'n',
  },
  {
    table: 'calibration',
    by: { judge: 'judge', language: 'language' },
    where: { kind: 'calibration' },
    columns: ['n', ...withIntervals('c1_accept', 'c2_accept', 'cgp')],
    count: 'n',
  },
  {
    table: 'flips',
    ...transitionRows('settings_pair'),
    // Not the extraction change: the extracted answers are not listed.
    columns: [
      'n',
      ...withIntervals('flip_rate'),
      'correct_to_incorrect',
      'incorrect_to_correct',
      'mcnemar_p',
    ],
    count: 'n',
  },
  {
    table: 'noise_floor',
    ...transitionRows('noise_floor'),
    // Not Holm's p: it reads every row of the table. An NR-NR row has only n and the flip rate.
    columns: [
      'n',
      ...withIntervals('flip_rate', 'repeat_flip_rate', 'excess_flip_rate'),
      'both_flipped',
      'change_only',
      'repeat_only',
      'mcnemar_p',
    ],
    count: 'n',
  },
];

const key = (...parts: (string | number)[]) => parts.join('\u0000');

function verdictRows(ctx: MetricsContext<RefSensExperiment>): VerdictList {
  const answers = new Map(
    answersToJudge(ctx.exp, ctx.results).map((a) => [key(a.generator, a.sourceId), a.answer]),
  );
  const itemIds = new Map(ctx.exp.items.map((i) => [i.sourceId, i.id]));
  const rows: VerdictRow[] = [];
  // The first asks' reasons (and calibration's shown answers), for the pairs below.
  const reasons = new Map<string, string>();
  const calibrationShown = new Map<string, string>();
  for (const r of ctx.results) {
    if (r.status !== 'ok') continue;
    const v = r.value as CorrectnessVerdict | null;
    if (r.stage === 'calibrate') {
      const m = r.meta as CalibrateMeta;
      reasons.set(key('calibrate', m.judge, m.sourceId, m.probe), v?.explanation ?? '');
      calibrationShown.set(key(m.judge, m.sourceId, m.probe), m.shown);
      continue;
    }
    if (r.stage !== 'judge') continue;
    const m = r.meta as JudgeMeta;
    if (!v?.verdict || ctx.excluded.has(m.sourceId)) continue;
    if (m.sample) {
      reasons.set(key('repeat', m.judge, m.generator, m.sourceId), v.explanation);
      continue;
    }
    reasons.set(key('judge', m.judge, m.generator, m.sourceId, m.setting), v.explanation);
    rows.push({
      itemId: m.itemId,
      sourceId: m.sourceId,
      fields: {
        kind: 'answer',
        judge: m.judge,
        generator: m.generator,
        language: m.language,
        setting: m.setting,
      },
      verdict: v.verdict,
      // Nothing grades a generated answer here; the human labels have their own table.
      correct: null,
      shown: answers.get(key(m.generator, m.sourceId)) ?? null,
      reason: v.explanation,
    });
  }
  const kept = (sourceId: string) => !ctx.excluded.has(sourceId);
  const input = metricsInput(ctx);
  const pairs = listedPairs(input);
  for (const p of pairs.calibration) {
    if (!kept(p.sourceId)) continue;
    const side = (probe: 'C1' | 'C2') => ({
      reason: reasons.get(key('calibrate', p.judge, p.sourceId, probe)) ?? '',
      shown: calibrationShown.get(key(p.judge, p.sourceId, probe)) ?? '',
    });
    const [c1, c2] = [side('C1'), side('C2')];
    rows.push({
      itemId: itemIds.get(p.sourceId)!,
      sourceId: p.sourceId,
      fields: { kind: 'calibration', judge: p.judge, language: p.language, setting: 'C1-C2' },
      verdict: `${p.C1} → ${p.C2}`,
      correct: null,
      shown: `C1: ${c1.shown}\nC2: ${c2.shown}`,
      reason: `C1: ${c1.reason}\nC2: ${c2.reason}`,
    });
  }
  for (const p of pairs.flips) {
    if (!kept(p.from.sourceId)) continue;
    const reason = (s: string) =>
      reasons.get(key('judge', p.judge, p.from.generator, p.from.sourceId, s)) ?? '';
    rows.push({
      itemId: itemIds.get(p.from.sourceId)!,
      sourceId: p.from.sourceId,
      fields: {
        kind: 'settings_pair',
        judge: p.judge,
        generator: p.from.generator,
        language: p.language,
        setting: p.transition,
      },
      verdict: `${p.from.verdict} → ${p.to.verdict}`,
      correct: null,
      shown: answers.get(key(p.from.generator, p.from.sourceId)) ?? null,
      reason: `${p.from.setting}: ${reason(p.from.setting)}\n${p.to.setting}: ${reason(p.to.setting)}`,
    });
  }
  for (const p of listedNoiseFloor(input)) {
    const { first, repeat, target } = p;
    if (!kept(first.sourceId)) continue;
    const again = reasons.get(key('repeat', p.judge, first.generator, first.sourceId)) ?? '';
    const said = (s: string) => reasons.get(key('judge', p.judge, first.generator, first.sourceId, s)) ?? '';
    rows.push({
      itemId: itemIds.get(first.sourceId)!,
      sourceId: first.sourceId,
      fields: {
        kind: 'noise_floor',
        judge: p.judge,
        generator: first.generator,
        language: p.language,
        setting: p.transition === 'NR-NR' ? REPEAT_TRANSITION : p.transition,
      },
      verdict: target
        ? `${first.verdict} → ${target.verdict} ↺ ${repeat.verdict}`
        : `${first.verdict} → ${repeat.verdict}`,
      correct: null,
      shown: answers.get(key(first.generator, first.sourceId)) ?? null,
      reason: [
        `NR: ${said('NR')}`,
        ...(target ? [`${target.setting}: ${said(target.setting)}`] : []),
        `NR ↺: ${again}`,
      ].join('\n'),
    });
  }
  return { fields: ['kind', 'judge', 'generator', 'language', 'setting'], rows };
}

export const refSensVerdicts: VerdictHooks<RefSensExperiment> = {
  links: REF_SENS_VERDICT_LINKS,
  rows: verdictRows,
};

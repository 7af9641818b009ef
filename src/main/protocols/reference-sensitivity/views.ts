// Reference sensitivity's per-item views: the flip browser's rows (computed from stored results,
// never from the ledger's raw text) and the wizard's prompt preview.
import { z } from 'zod';
import type { PromptPreview, RenderedPromptView } from '../../../shared/experiments';
import {
  SETTINGS,
  TRANSITIONS,
  TRANSITION_SETTINGS,
  type Transition,
  type Verdict,
} from '../../../shared/protocols/reference-sensitivity/types';
import type {
  FlipChange,
  FlipRowView,
  FlipsQuery,
  FlipsView,
  SettingVerdictView,
} from '../../../shared/protocols/reference-sensitivity/views';
import { AppError } from '../host';
import type { ExperimentView } from '../plugin';
import type { Database } from '../host';
import { listResults } from '../host';
import type { CustomView } from '../plugin';
import type { ProtocolTask } from '../types';
import type { RefSensConfig, RefSensOptions } from './config';
import type { CorrectnessVerdict } from '../../judging/correctness';
import {
  planCalibration,
  planGenerate,
  planJudge,
  type CalibrateMeta,
  type GenerateMeta,
  type JudgeMeta,
} from './plan';
import { qaItem } from './qa-item';

const transition = z.enum(TRANSITIONS as unknown as [Transition, ...Transition[]]);

export const flipsQuerySchema = z.strictObject({
  judge: z.string().min(1).optional(),
  generator: z.string().min(1).optional(),
  language: z.string().min(1).optional(),
  transition: transition.optional(),
  change: z.enum(['correct_to_incorrect', 'incorrect_to_correct']).optional(),
  flipsOnly: z.boolean().optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(20_000).optional(),
});

const DEFAULT_LIMIT = 5000;

/** Rows of the flip browser, filtered, in dataset order per judge and generator. */
export function flipRows(db: Database, exp: ExperimentView, q: FlipsQuery): FlipsView {
  const options = exp.options as RefSensOptions;
  const items = exp.items.map(qaItem);
  const byId = new Map(items.map((i) => [i.sourceId, i]));
  const answers = new Map<string, string>();
  const human = new Map<string, Verdict | null>();
  const k = (generator: string, sourceId: string) => `${generator}\u0000${sourceId}`;
  for (const r of listResults(db, exp.id, 'generate')) {
    if (r.status !== 'ok') continue;
    const m = r.meta as GenerateMeta;
    answers.set(k(m.generator, m.sourceId), (r.value as { answer: string }).answer);
  }
  for (const a of options.imported) {
    answers.set(k(a.generator, a.itemId), a.answer);
    human.set(k(a.generator, a.itemId), a.humanLabel);
  }
  const rows = new Map<string, FlipRowView>();
  const repeats = new Map<string, Verdict | null>();
  for (const r of listResults(db, exp.id, 'judge')) {
    const m = r.meta as JudgeMeta;
    const key = `${m.judge}\u0000${k(m.generator, m.sourceId)}`;
    let row = rows.get(key);
    if (!row) {
      const item = byId.get(m.sourceId);
      if (!item) continue;
      row = {
        judge: m.judge,
        generator: m.generator,
        sourceId: m.sourceId,
        itemId: m.itemId,
        language: m.language,
        question: item.question,
        gold: item.answers,
        answer: answers.get(k(m.generator, m.sourceId)) ?? '',
        humanLabel: human.get(k(m.generator, m.sourceId)) ?? null,
        verdicts: {},
        flips: {},
      };
      rows.set(key, row);
    }
    const v = r.status === 'ok' ? (r.value as CorrectnessVerdict) : null;
    if (m.sample) {
      // The noise floor's NR repeat: did NR change its verdict when asked again, unchanged?
      repeats.set(key, v?.verdict ?? null);
      continue;
    }
    row.verdicts[m.setting] = {
      status: r.status,
      verdict: v?.verdict ?? null,
      extracted: v?.extracted_answer ?? null,
      explanation: v?.explanation ?? null,
      reason: v ? null : (r.reason ?? 'failed'),
    } satisfies SettingVerdictView;
  }
  for (const [key, again] of repeats) {
    const row = rows.get(key);
    const first = row?.verdicts.NR?.verdict;
    if (row && first && again) row.nrRepeatFlipped = first !== again;
  }
  for (const row of rows.values())
    for (const t of TRANSITIONS) {
      const [a, b] = TRANSITION_SETTINGS[t];
      const va = row.verdicts[a]?.verdict;
      const vb = row.verdicts[b]?.verdict;
      if (va && vb && va !== vb)
        row.flips[t] = (
          va === 'CORRECT' ? 'correct_to_incorrect' : 'incorrect_to_correct'
        ) satisfies FlipChange;
    }
  const flipsOnly = q.flipsOnly ?? true;
  const matches = (row: FlipRowView) => {
    if (q.judge !== undefined && row.judge !== q.judge) return false;
    if (q.generator !== undefined && row.generator !== q.generator) return false;
    if (q.language !== undefined && row.language !== q.language) return false;
    const changes = q.transition ? [row.flips[q.transition]] : Object.values(row.flips);
    if (q.change !== undefined) return changes.includes(q.change);
    if (flipsOnly || q.transition) return changes.some((c) => c !== undefined);
    return true;
  };
  const all = [...rows.values()].filter(matches);
  const offset = q.offset ?? 0;
  const generators = [...new Set([...rows.values()].map((r) => r.generator))];
  return {
    rows: all.slice(offset, offset + (q.limit ?? DEFAULT_LIMIT)),
    total: all.length,
    judges: (exp.config as unknown as RefSensConfig).judges.map((j) => j.label),
    generators,
    languages: [...new Set(items.map((i) => i.language))],
    settings: SETTINGS.filter((s) => options.settings.includes(s)),
  };
}

export const flipsView: CustomView = {
  query: flipsQuerySchema,
  run: (db, exp, q) => flipRows(db, exp, q as FlipsQuery),
};

/**
 * The prompts a config sends for one item (default: the first), as the wizard's live preview
 * shows them: the generator's (under `transform`: the calls that make what is judged), then the
 * first judge's calibration C1/C2 and NR/RV/RC prompts. The verdict prompts show the item's
 * first gold answer as the answer to grade, since no generated answer exists yet.
 */
export function refSensPromptPreview(exp: ExperimentView, itemId?: number): PromptPreview {
  const options = exp.options as RefSensOptions;
  const config = exp.config as unknown as RefSensConfig;
  const items = exp.items.map(qaItem);
  const item = itemId === undefined ? items[0] : items.find((i) => i.id === itemId);
  if (!item) throw new AppError('not_found', 'No item to preview');
  const judge = config.judges.slice(0, 1);
  const generator = (config.generators ?? []).slice(0, 1);
  const all = { ...options, calibration: true, sensitivity: true };
  const view = (
    label: string,
    t: ProtocolTask,
    labelKey: string,
    labelParams: Record<string, string>,
  ): RenderedPromptView => ({
    stage: t.stage,
    label,
    labelKey,
    labelParams,
    system: t.request.system ?? '',
    user: t.request.messages.map((m) => m.content).join('\n\n'),
  });
  const transform = planGenerate([item], generator, all).map((t) =>
    view(`Generator ${(t.meta as GenerateMeta).generator} (${item.language})`, t, 'generator', {
      generator: (t.meta as GenerateMeta).generator,
      language: item.language,
    }),
  );
  const calibration = planCalibration(items, judge, all)
    .filter((t) => t.meta.sourceId === item.sourceId)
    .map((t) => {
      const m = t.meta as CalibrateMeta;
      return m.probe === 'C1'
        ? view(`Calibration C1 (gold answer, no reference)`, t, 'c1', {})
        : view(`Calibration C2 (wrong answer from ${m.wrongFrom}, no reference)`, t, 'c2', {
            from: String(m.wrongFrom),
          });
    });
  const answer = [
    {
      generator: config.generators?.[0]?.label ?? 'answer',
      sourceId: item.sourceId,
      answer: item.answers[0],
      imported: false,
    },
  ];
  const settings = planJudge([item], judge, answer, all)
    .filter((t) => options.settings.includes((t.meta as JudgeMeta).setting))
    .map((t) => {
      const setting = (t.meta as JudgeMeta).setting;
      return view(`Judge ${setting} (gold answer shown as the answer)`, t, 'judge', { setting });
    });
  return { itemId: item.id, sourceId: item.sourceId, prompts: [...transform, ...calibration, ...settings] };
}

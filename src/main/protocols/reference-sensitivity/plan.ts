// Planning: which calls the protocol makes (DESIGN.md section 5b). Pure functions of the items,
// options and answers stored so far.
import { createHash } from 'node:crypto';
import type { Setting } from '../../../shared/protocols/reference-sensitivity/types';
import { CORRECTNESS_VERDICT_SCHEMA } from '../../judging/correctness';
import { modelRequest } from '../../judging/request';
import type { ChatRequestSpec } from '../host';
import { renderTemplate } from '../../judging/template';
import { taskKey, type ProtocolTask } from '../types';
import type { ModelEntry, RefSensOptions } from './config';
import { normalizedAnswers, normalizedOverlap } from './normalize';
import { languageName, referenceText } from './prompts';
import type { QaItem } from './qa-item';

export const GENERATE_MAX_TOKENS = 300;
export const JUDGE_MAX_TOKENS = 400;

export interface GenerateMeta {
  generator: string;
  itemId: number;
  sourceId: string;
  language: string;
}
export interface CalibrateMeta {
  judge: string;
  itemId: number;
  sourceId: string;
  language: string;
  probe: 'C1' | 'C2';
  /** The answer shown as "generated". */
  shown: string;
  /** C2: the item whose gold answer is shown. */
  wrongFrom: string | null;
}
export interface JudgeMeta {
  judge: string;
  generator: string;
  itemId: number;
  sourceId: string;
  language: string;
  setting: Setting;
  /** The answer came from the `answers` file, not a generate call. */
  imported: boolean;
  /** 1 on the noise floor's repeat of the NR verdict; absent on a first ask. */
  sample?: number;
}

/** An answer to judge: generated and stored, or imported. */
export interface AnswerToJudge {
  generator: string;
  sourceId: string;
  answer: string;
  imported: boolean;
}

function values(item: QaItem): Record<string, string> {
  return {
    question: item.question,
    language: item.language,
    language_name: languageName(item.language),
    context: item.context ?? '',
  };
}

export function planGenerate(
  items: readonly QaItem[],
  generators: readonly ModelEntry[],
  opts: RefSensOptions,
): ProtocolTask<'generate', GenerateMeta>[] {
  if (!opts.sensitivity) return [];
  const t = opts.templates;
  // An item's prompts are the same for every generator: rendered once.
  const prompts = items.map((item) => {
    const v = values(item);
    return { system: renderTemplate(t.generateSystem, v), user: renderTemplate(t.generateUser, v) };
  });
  return generators.flatMap((g) =>
    items.map((item, i) => ({
      key: taskKey('generate', g.label, item.sourceId),
      stage: 'generate' as const,
      meta: { generator: g.label, itemId: item.id, sourceId: item.sourceId, language: item.language },
      request: {
        ...modelRequest(g, GENERATE_MAX_TOKENS),
        system: prompts[i].system,
        messages: [{ role: 'user' as const, content: prompts[i].user }],
        // no `response`: a plain-text answer
      },
    })),
  );
}

/**
 * A judge's request: its prompt depends on the item, the answer and the setting, not on the
 * judge, so it is rendered once for all judges (and once for answers that are the same text),
 * and the estimate counts each prompt's tokens once.
 */
function judgeRequests(opts: RefSensOptions, share = true) {
  const t = opts.templates;
  const prompts = new Map<QaItem, Map<string, [NR?: string, RV?: string, RC?: string]>>();
  const render = (item: QaItem, answer: string, setting: Setting) => {
    const template = setting === 'NR' ? t.judgeUserNR : setting === 'RV' ? t.judgeUserRV : t.judgeUserRC;
    return renderTemplate(template, {
      ...values(item),
      answer,
      ...(setting === 'NR' ? {} : { reference: referenceText(item.answers) }),
    });
  };
  const prompt = (item: QaItem, answer: string, setting: Setting) => {
    if (!share) return render(item, answer, setting);
    let byAnswer = prompts.get(item);
    if (!byAnswer) prompts.set(item, (byAnswer = new Map()));
    let bySetting = byAnswer.get(answer);
    if (!bySetting) byAnswer.set(answer, (bySetting = []));
    const at = setting === 'NR' ? 0 : setting === 'RV' ? 1 : 2;
    let text = bySetting[at];
    if (text === undefined) bySetting[at] = text = render(item, answer, setting);
    return text;
  };
  const models = new Map<ModelEntry, ReturnType<typeof modelRequest>>();
  const model = (judge: ModelEntry) => {
    let m = models.get(judge);
    if (!m) models.set(judge, (m = modelRequest(judge, JUDGE_MAX_TOKENS)));
    return m;
  };
  // Written out rather than spread: a spread's copy took most of planning's time (92,000 tasks).
  return (judge: ModelEntry, item: QaItem, answer: string, setting: Setting): ChatRequestSpec => {
    const { provider, model: name, temperature, maxOutputTokens } = model(judge);
    const system = t.judgeSystem;
    const messages = [{ role: 'user' as const, content: prompt(item, answer, setting) }];
    const response = CORRECTNESS_VERDICT_SCHEMA;
    return temperature === undefined
      ? { provider, model: name, maxOutputTokens, system, messages, response }
      : { provider, model: name, temperature, maxOutputTokens, system, messages, response };
  };
}

function hashUnit(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0);
}

/**
 * The wrong answer for C2: a gold answer of another item in the same language whose answers
 * share nothing with this item's (normalize.ts). The scan starts at a position given by a hash
 * of the seed and the item id and walks the language's items in order, so the pick depends
 * only on the seed, the item and the experiment's items: a re-run picks the same.
 */
export function pickWrongAnswers(items: readonly QaItem[], seed: number): Map<string, QaItem | null> {
  const byLanguage = new Map<string, QaItem[]>();
  for (const it of items) {
    const pool = byLanguage.get(it.language);
    if (pool) pool.push(it);
    else byLanguage.set(it.language, [it]);
  }
  // Each item's answers normalized once: the scan compares an item with several candidates,
  // and a candidate with many items.
  const normalized = new Map<QaItem, string[]>();
  const answersOf = (it: QaItem) => {
    let n = normalized.get(it);
    if (!n) normalized.set(it, (n = normalizedAnswers(it.answers)));
    return n;
  };
  const out = new Map<string, QaItem | null>();
  for (const item of items) {
    const pool = byLanguage.get(item.language)!;
    const start = hashUnit(seed, item.sourceId) % pool.length;
    let pick: QaItem | null = null;
    for (let k = 0; k < pool.length; k++) {
      const cand = pool[(start + k) % pool.length];
      if (cand.sourceId === item.sourceId || normalizedOverlap(answersOf(item), answersOf(cand))) continue;
      pick = cand;
      break;
    }
    out.set(item.sourceId, pick);
  }
  return out;
}

export function planCalibration(
  items: readonly QaItem[],
  judges: readonly ModelEntry[],
  opts: RefSensOptions,
): ProtocolTask<'calibrate', CalibrateMeta>[] {
  if (!opts.calibration) return [];
  const wrong = pickWrongAnswers(items, opts.seed);
  const judgeRequest = judgeRequests(opts);
  const tasks: ProtocolTask<'calibrate', CalibrateMeta>[] = [];
  for (const judge of judges)
    for (const item of items) {
      // Each meta written out (a spread's copy is slow at this count).
      const meta = (probe: 'C1' | 'C2', shown: string, wrongFrom: string | null): CalibrateMeta => ({
        judge: judge.label,
        itemId: item.id,
        sourceId: item.sourceId,
        language: item.language,
        probe,
        shown,
        wrongFrom,
      });
      const shownC1 = item.answers[0];
      tasks.push({
        key: taskKey('calibrate', judge.label, item.sourceId, 'C1'),
        stage: 'calibrate',
        meta: meta('C1', shownC1, null),
        request: judgeRequest(judge, item, shownC1, 'NR'),
      });
      const w = wrong.get(item.sourceId);
      if (!w) continue;
      tasks.push({
        key: taskKey('calibrate', judge.label, item.sourceId, 'C2'),
        stage: 'calibrate',
        meta: meta('C2', w.answers[0], w.sourceId),
        request: judgeRequest(judge, item, w.answers[0], 'NR'),
      });
    }
  return tasks;
}

export function planJudge(
  items: readonly QaItem[],
  judges: readonly ModelEntry[],
  answers: readonly AnswerToJudge[],
  opts: RefSensOptions,
): ProtocolTask<'judge', JudgeMeta>[] {
  return [...judgeTasks(items, judges, answers, opts, () => false, true)];
}

/** planJudge's tasks one at a time, leaving out the keys a run has `planned` (PlanContext). */
export function* judgeTasks(
  items: readonly QaItem[],
  judges: readonly ModelEntry[],
  answers: readonly AnswerToJudge[],
  opts: RefSensOptions,
  planned: (key: string) => boolean = () => false,
  /**
   * Render each prompt once for all judges (a whole plan held at once: the estimate). A run's
   * plan, recorded a chunk at a time, renders per task instead: judges are the outer loop, so
   * sharing would keep every prompt of the study alive until the last judge's turn.
   */
  share = false,
): Generator<ProtocolTask<'judge', JudgeMeta>> {
  if (!opts.sensitivity) return;
  const byId = new Map(items.map((i) => [i.sourceId, i]));
  const judgeRequest = judgeRequests(opts, share);
  for (const judge of judges)
    for (const a of answers) {
      const item = byId.get(a.sourceId);
      if (!item) continue;
      for (const setting of opts.settings) {
        const key = taskKey('judge', judge.label, a.generator, item.sourceId, setting);
        const repeatKey =
          opts.noiseFloor && setting === 'NR'
            ? taskKey('judge', judge.label, a.generator, item.sourceId, setting, 'sample', 1)
            : null;
        const repeat = repeatKey !== null && !planned(repeatKey);
        // Recorded tasks are not rendered again (PlanContext): most plans of a run find only a few new.
        if (planned(key) && !repeat) continue;
        const meta: JudgeMeta = {
          judge: judge.label,
          generator: a.generator,
          itemId: item.id,
          sourceId: item.sourceId,
          language: item.language,
          setting,
          imported: a.imported,
        };
        const request = judgeRequest(judge, item, a.answer, setting);
        if (!planned(key)) yield { key, stage: 'judge', meta, request };
        // The placebo: the same NR question again (a repeat, its own ledger row).
        if (repeat)
          yield {
            key: repeatKey!,
            stage: 'judge',
            meta: { ...meta, sample: 1 },
            request: { ...request, sample: 1 },
          };
      }
    }
}

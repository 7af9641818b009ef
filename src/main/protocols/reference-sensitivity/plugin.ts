// Reference sensitivity as a plug-in of the generic runner (../plugin.ts; DESIGN.md section 5b):
// generate (plain-text answers), calibrate (C1 gold / C2 wrong, no reference) and judge
// (NR / RV / RC per judge × answer), verdicts as `correctness_verdict`.
import { refSensMethods } from './methods';
import type { Item } from '../../../shared/domain';
import { buildRefSensFigures } from '../../../shared/protocols/reference-sensitivity/report/figures';
import { REFSENS_FIGURES_ZH } from '../../../shared/protocols/reference-sensitivity/report/figure-zh';
import { buildRefSensTables } from '../../../shared/protocols/reference-sensitivity/report/tables';
import type {
  FailureRow,
  RefSensMetrics,
  UsageRow,
  Verdict,
} from '../../../shared/protocols/reference-sensitivity/types';
import type { Database } from '../host';
import { listResults } from '../host';
import type { ComparableRow, MetricsContext, ModelUse, ProtocolPlugin } from '../plugin';
import { judgeUses, modelUse } from '../model-use';
import type { ProtocolTask } from '../types';
import {
  refineRefSensConfig,
  refSensConfigShape,
  resolveRefSensOptions,
  answersFileName,
  type RefSensConfig,
  type RefSensOptions,
} from './config';
import { answersText, checkImportedItems, readImportedAnswers } from './imported-answers';
import {
  computeRefSensMetrics,
  type AnswerRecord,
  type CalibrationRecord,
  type VerdictRecord,
} from './metrics';
import { parseCorrectnessVerdict, type CorrectnessVerdict } from '../../judging/correctness';
import { parseGeneratedAnswer } from './parse';
import {
  GENERATE_MAX_TOKENS,
  planCalibration,
  planGenerate,
  planJudge,
  type AnswerToJudge,
  type CalibrateMeta,
  type GenerateMeta,
  type JudgeMeta,
} from './plan';
import { qaItem, type QaItem } from './qa-item';
import { judgmentsCsv } from './judgments-csv';
import { refSensTextsCsv } from './texts-csv';
import { FLIPS_VIEW } from '../../../shared/protocols/reference-sensitivity/views';
import { flipsView, refSensPromptPreview } from './views';
import { DEFAULT_TEMPLATES } from './prompts';
import { refSensAnnotation } from './annotation';
import { refSensVerdicts } from './verdicts';
import { refSensPower } from './power';
import { refSensReportCardHooks } from './report-card';
import { answersToJudge, type RefSensExperiment } from './experiment';

const VERDICT_OUTPUT_TOKENS = 120;

function modelsOf(config: RefSensConfig): ModelUse[] {
  return [
    ...(config.generators ?? []).map((g, i) =>
      modelUse('generator', g.label, g, ['generators', i, 'provider']),
    ),
    ...judgeUses(config.judges),
  ];
}

const qaItems = (exp: Pick<RefSensExperiment, 'items'>): QaItem[] => exp.items.map(qaItem);

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
      const m = r.meta as JudgeMeta;
      verdicts.push({
        judge: m.judge,
        generator: m.generator,
        sourceId: m.sourceId,
        language: m.language,
        setting: m.setting,
        verdict: v?.verdict ?? null,
        extracted: v?.extracted_answer ?? null,
        ...(m.sample ? { sample: m.sample } : {}),
      });
      if (!v) fail(m.judge, 'judge', m.sample ? `${m.setting} repeat` : m.setting, r.reason);
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

/**
 * Graded verdicts for comparing runs: the calibration probes (C1 shows the gold answer, so
 * CORRECT is right; C2 a wrong one, so INCORRECT is) under condition "calibration", and
 * verdicts on answers a person labelled (imported `human_label`) under their setting.
 */
export function comparableRows(input: ReturnType<typeof metricsInput>): ComparableRow[] {
  const rows: ComparableRow[] = [];
  for (const c of input.calibration)
    if (c.verdict !== null)
      rows.push({
        judge: c.judge,
        condition: 'calibration',
        item: c.sourceId,
        unit: c.probe,
        correct: c.verdict === (c.probe === 'C1' ? 'CORRECT' : 'INCORRECT'),
      });
  const human = new Map(input.answers.map((a) => [`${a.generator}\u0000${a.sourceId}`, a.humanLabel]));
  for (const v of input.verdicts) {
    const label = human.get(`${v.generator}\u0000${v.sourceId}`);
    if (v.verdict === null || !label) continue;
    rows.push({
      judge: v.judge,
      condition: v.setting,
      item: v.sourceId,
      unit: v.generator,
      correct: v.verdict === label,
    });
  }
  return rows;
}

export const METRICS_KEYS = [
  'calibration',
  'acceptance',
  'flips',
  'string_baseline',
  'human',
  'usage',
  'failures',
] as const satisfies readonly (keyof RefSensMetrics)[];

export const referenceSensitivityPlugin: ProtocolPlugin<RefSensExperiment, RefSensMetrics> = {
  id: 'reference-sensitivity',
  title: 'Reference sensitivity: are judges over-generous without a reference answer?',
  configShape: refSensConfigShape,
  refineConfig: refineRefSensConfig,
  // The answers file is stored with the experiment: a run, a resume and a study bundle read the
  // same answers even after the file moved or changed.
  sealConfig: (config) =>
    typeof config.answers === 'string' ? { ...config, answers: answersText(config.answers) } : config,
  resolveOptions: (config) => resolveRefSensOptions(config, readImportedAnswers),
  selectItems(items: Item[], options: RefSensOptions): Item[] {
    for (const item of items) qaItem(item);
    if (options.answersFile) checkImportedItems(options.answersFile, options.imported, items);
    const langs = options.languages;
    return langs ? items.filter((i) => langs.includes(qaItem(i).language)) : items;
  },
  models: modelsOf,
  stages: [
    {
      name: 'generate',
      plan: (exp) => planGenerate(qaItems(exp), exp.config.generators ?? [], exp.options),
      parse: (json) => parseGeneratedAnswer(json),
      group: () => 'generate',
      outputTokens: () => 60,
      describe: (t) => ({ role: 'generator', label: (t.meta as GenerateMeta).generator, kind: 'generate' }),
    },
    {
      name: 'calibrate',
      plan: (exp) => planCalibration(qaItems(exp), exp.config.judges, exp.options),
      parse: (json) => parseCorrectnessVerdict(json),
      group: (t) => (t.meta as CalibrateMeta).judge,
      outputTokens: () => VERDICT_OUTPUT_TOKENS,
      describe: (t) => {
        const m = t.meta as CalibrateMeta;
        return { role: 'judge', label: m.judge, kind: m.probe };
      },
    },
    {
      name: 'judge',
      // A verdict on a generated answer is planned once the answer is stored.
      plan: (exp, db: Database) =>
        planJudge(
          qaItems(exp),
          exp.config.judges,
          answersToJudge(exp, listResults(db, exp.id, 'generate')),
          exp.options,
        ),
      parse: (json) => parseCorrectnessVerdict(json),
      group: (t) => (t.meta as JudgeMeta).judge,
      outputTokens: () => VERDICT_OUTPUT_TOKENS,
      describe: (t) => {
        const m = t.meta as JudgeMeta;
        // The noise floor's NR repeats are their own row of the estimate: their cost shows apart.
        return { role: 'judge', label: m.judge, kind: m.sample ? 'repeat' : m.setting };
      },
    },
  ],
  estimatePlan(exp) {
    const items = qaItems(exp);
    // Answers not generated yet are stood in for by the first gold answer padded to a typical
    // answer length, so judge calls on them can be priced.
    const standIns: AnswerToJudge[] = (exp.config.generators ?? []).flatMap((g) =>
      items.map((i) => ({
        generator: g.label,
        sourceId: i.sourceId,
        answer: `${i.answers[0]} `.repeat(Math.max(1, Math.round(GENERATE_MAX_TOKENS / 20))).trim(),
        imported: false,
      })),
    );
    const imported = answersToJudge(exp, []);
    const tasks: ProtocolTask[] = [
      ...planGenerate(items, exp.config.generators ?? [], exp.options),
      ...planCalibration(items, exp.config.judges, exp.options),
      ...planJudge(items, exp.config.judges, [...standIns, ...imported], exp.options),
    ];
    return {
      tasks,
      fresh: (t) => t.stage === 'judge' && !(t.meta as JudgeMeta).imported,
      note: 'Verdicts on answers not generated yet are estimated from stand-in answers of typical length; output lengths are typical values.',
      noteKey: 'estimateNote.standIns',
    };
  },
  // The noise floor's key only with `noiseFloor` on, so metrics.json is as before without it.
  metricsKeys: [...METRICS_KEYS, 'noise_floor?'],
  computeMetrics: (ctx) => computeRefSensMetrics(metricsInput(ctx)),
  comparable: (ctx) => comparableRows(metricsInput(ctx)),
  tables: buildRefSensTables,
  figures: buildRefSensFigures,
  figureText: { zh: REFSENS_FIGURES_ZH },
  exportFiles(ctx, calls) {
    return [
      { name: 'judgments.csv', content: judgmentsCsv(ctx.exp, ctx.results, calls) },
      { name: 'texts.csv', content: refSensTextsCsv(ctx.exp, ctx.results) },
    ];
  },
  defaultTemplates: () => ({ ...DEFAULT_TEMPLATES }),
  views: {
    previewPrompts: (exp, itemId) => refSensPromptPreview(exp, itemId),
    custom: { [FLIPS_VIEW]: flipsView },
  },
  annotation: refSensAnnotation,
  verdicts: refSensVerdicts,
  power: refSensPower,
  reportCard: refSensReportCardHooks,
  methods: refSensMethods,
  promptTemplates: (exp) => ({
    ...exp.options.templates,
    answersFile: exp.config.answers ? answersFileName(exp.config.answers) : '',
  }),
};

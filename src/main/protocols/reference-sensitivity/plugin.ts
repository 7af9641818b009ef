// Reference sensitivity as a plug-in of the generic runner (../plugin.ts; DESIGN.md section 5b):
// generate (plain-text answers), calibrate (C1 gold / C2 wrong, no reference) and judge
// (NR / RV / RC per judge × answer), verdicts as `correctness_verdict`.
import { refSensMethods } from './methods';
import type { Item } from '../../../shared/domain';
import { buildRefSensFigures } from '../../../shared/protocols/reference-sensitivity/report/figures';
import { REFSENS_FIGURES_ZH } from '../../../shared/protocols/reference-sensitivity/report/figure-zh';
import { buildRefSensTables } from '../../../shared/protocols/reference-sensitivity/report/tables';
import type { RefSensMetrics } from '../../../shared/protocols/reference-sensitivity/types';
import type { Database } from '../host';
import { listResults } from '../host';
import type { ComparableRow, ModelUse, ProtocolPlugin } from '../plugin';
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
import { computeRefSensMetrics } from './metrics';
import { parseCorrectnessVerdict } from '../../judging/correctness';
import { parseGeneratedAnswer } from './parse';
import {
  GENERATE_MAX_TOKENS,
  planCalibration,
  planGenerate,
  judgeTasks,
  planJudge,
  type AnswerToJudge,
  type CalibrateMeta,
  type GenerateMeta,
  type JudgeMeta,
} from './plan';
import { qaItem } from './qa-item';
import { judgmentsCsv } from './judgments-csv';
import { refSensTextsCsv } from './texts-csv';
import { FLIPS_VIEW } from '../../../shared/protocols/reference-sensitivity/views';
import { flipsView, refSensPromptPreview } from './views';
import { DEFAULT_TEMPLATES } from './prompts';
import { refSensAnnotation } from './annotation';
import { refSensVerdicts } from './verdicts';
import { metricsInput, qaItems } from './metrics-input';
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
  configPaths: (config) =>
    typeof config.answers === 'string' ? [{ field: 'answers', path: config.answers }] : [],
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
      plan: (exp, db: Database, ctx) =>
        judgeTasks(
          qaItems(exp),
          exp.config.judges,
          answersToJudge(exp, listResults(db, exp.id, 'generate')),
          exp.options,
          ctx?.planned,
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
  estimatePlan(exp, _db, _storedFrom, forCost) {
    const items = qaItems(exp);
    const generators = exp.config.generators ?? [];
    // Answers not generated yet are stood in for by the first gold answer padded to a typical
    // answer length, so judge calls on them can be priced.
    // One text per item, shared by every generator's stand-in: the judge prompts on it are
    // rendered and counted once (plan.ts).
    const standIn = new Map(
      items.map((i) => [
        i.sourceId,
        `${i.answers[0]} `.repeat(Math.max(1, Math.round(GENERATE_MAX_TOKENS / 20))).trim(),
      ]),
    );
    // The verdicts on them are the same calls for every generator (their rows are the judge's):
    // for the cost, one generator's stand the others'.
    const standing = forCost ? generators.slice(0, 1) : generators;
    const standIns: AnswerToJudge[] = standing.flatMap((g) =>
      items.map((i) => ({
        generator: g.label,
        sourceId: i.sourceId,
        answer: standIn.get(i.sourceId)!,
        imported: false,
      })),
    );
    const imported = answersToJudge(exp, []);
    const tasks: ProtocolTask[] = [
      ...planGenerate(items, generators, exp.options),
      ...planCalibration(items, exp.config.judges, exp.options),
      ...planJudge(items, exp.config.judges, [...standIns, ...imported], exp.options),
    ];
    const onStandIn = (t: ProtocolTask) => t.stage === 'judge' && !(t.meta as JudgeMeta).imported;
    return {
      tasks,
      fresh: onStandIn,
      ...(standing.length < generators.length
        ? { calls: (t: ProtocolTask) => (onStandIn(t) ? generators.length : 1) }
        : {}),
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

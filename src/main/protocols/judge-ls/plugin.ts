// Judge-LS as a plug-in of the generic runner (see ../plugin.ts): config keys, stages,
// metrics, report and export content. The pure parts (plan, parse, metrics) are the modules
// beside this one; here they are wired to the seam.
import { judgeLsMethods } from './methods';
import { judgeLsAnnotation } from './annotation';
import { judgeLsVerdicts } from './verdicts';
import { judgeLsPower } from './power';
import { judgeLsReportCardHooks } from './report-card';
import { requirePairwise } from './pairwise-item';
import { z } from 'zod';
import { buildFigureSpecs } from '../../../shared/protocols/judge-ls/report/figures';
import { JUDGE_LS_FIGURES_ZH } from '../../../shared/protocols/judge-ls/report/figure-zh';
import { buildTables, withChosenIntervals } from '../../../shared/protocols/judge-ls/report/tables';
import type { JudgeLsMetrics, UsageRow } from '../../../shared/protocols/judge-ls/types';
import { JUDGMENTS_VIEW, VARIANT_EDIT, VARIANTS_VIEW } from '../../../shared/protocols/judge-ls/views';
import { parsePairwiseVerdict } from '../../judging/pairwise';
import type { ProtocolPlugin, TaskCall } from '../plugin';
import type { ProtocolTask } from '../types';
import type { Database } from '../host';
import { auditChecks } from './audit';
import { judgeLsOptionsSchema } from './config';
import { judgeLsFiles, METRICS_KEYS } from './export';
import { textsCsv } from './texts-csv';
import { computeJudgeLsMetrics, TRANSFORMER_ROLE } from './metrics';
import type { JudgeTask, TransformTask, VerifyTask } from './model';
import { normalizeChoice, parseVariant } from './parse';
import { DEFAULT_TEMPLATES } from './prompts';
import { applyBundleEdits, listBundleEdits } from './bundle-edits';
import {
  applyVariantEdit,
  judgmentViews,
  promptPreview,
  variantViews,
  type JudgmentFilter,
  type VariantEdit,
} from './views';
import { planJudgments, planTransforms, planVerifications, selectItems } from './plan';
import {
  parseBackTranslation,
  parseEquivalence,
  unverifiedItems,
  VERIFICATION_METRIC,
  verificationRows,
} from './verification';
import { targetLanguageSchema } from './config';
import { mixedTargets, mixingOfVerdicts } from './dose-response';
import {
  type Exp,
  VERDICT_OUTPUT_TOKENS,
  currentVariants,
  flaggedItems,
  judgeLsConfigShape,
  judgeLsExperiment,
  judgmentRecords,
  missingJudgments,
  modelsOf,
  planAll,
  protocolOptionsOf,
  storeVariants,
  transformFailures,
  transformOutputTokens,
  storedVariantLookup,
  withStandIns,
} from './experiment';

/** The back-translating model's role in usage rows and the estimate. */
export const VERIFIER_ROLE = 'verifier';

export const judgeLsPlugin: ProtocolPlugin<Exp, JudgeLsMetrics> = {
  id: 'judge-ls',
  title: 'Judge-LS: language-switching invariance',
  configShape: judgeLsConfigShape,
  refineConfig(cfg, issue) {
    for (const key of ['languages', 'tieProbes', 'limit', 'noiseFloor']) {
      if (cfg.options && Object.hasOwn(cfg.options, key))
        issue(['options', key], `set "${key}" at the top level, not in options`);
    }
    const protocolOptions = judgeLsOptionsSchema.safeParse(protocolOptionsOf(cfg));
    if (!protocolOptions.success) {
      for (const i of protocolOptions.error.issues) {
        const [head] = i.path;
        const path = (
          head === 'languages' || head === 'verify'
            ? ['transform', ...i.path]
            : head === 'tieProbes' || head === 'limit' || head === 'ci' || head === 'noiseFloor'
              ? i.path
              : ['options', ...i.path]
        ) as (string | number)[];
        const keys = i.code === 'unrecognized_keys' ? i.keys : [undefined];
        for (const k of keys)
          issue(k === undefined ? path : [...path, k], k === undefined ? i.message : 'unknown key');
      }
    }
    const seen = new Set<string>();
    cfg.judges.forEach((j, i) => {
      if (seen.has(j.label)) issue(['judges', i, 'label'], `duplicate label "${j.label}"`);
      seen.add(j.label);
    });
  },
  resolveOptions: (config) => judgeLsOptionsSchema.parse(protocolOptionsOf(config)),
  bundleEdits: { list: listBundleEdits, apply: applyBundleEdits },
  selectItems: (items) => {
    requirePairwise(items);
    return selectItems(items);
  },
  models: modelsOf,
  stages: [
    {
      name: 'transform',
      plan: (exp, _db, ctx) => {
        const e = judgeLsExperiment(exp);
        return planTransforms(e.items, e.options, e.transformer, ctx?.planned, ctx?.settled);
      },
      parse: (json, task) => parseVariant(json, (task.meta as TransformTask['meta']).source),
      group: () => 'transform',
      outputTokens: transformOutputTokens,
      describe: () => ({ role: TRANSFORMER_ROLE, label: TRANSFORMER_ROLE, kind: 'transform' }),
    },
    {
      name: 'judge',
      // Verdicts on a translation are planned once it is stored (EN verdicts need none).
      plan: (exp, db, ctx) => {
        const e = judgeLsExperiment(exp);
        // A run's plan reads the texts of variants with a verdict still to render, not all.
        return ctx
          ? planJudgments(
              e.items,
              storedVariantLookup(db, e.id),
              e.judges,
              e.options,
              ctx.planned,
              ctx.settled,
            )
          : planJudgments(e.items, currentVariants(db, e.id), e.judges, e.options);
      },
      parse: (json) => parsePairwiseVerdict(json),
      group: (task) => (task.meta as JudgeTask['meta']).judge,
      outputTokens: () => VERDICT_OUTPUT_TOKENS,
      describe: (task) => {
        const m = task.meta as JudgeTask['meta'];
        return { role: 'judge', label: m.judge, kind: m.kind };
      },
    },
    {
      // Verified translations (issue 37): a back-translation of each stored variant, only with
      // `transform.verify` (no tasks otherwise). After the judge stage in the list, but planned
      // in the same rounds: each translation is back-translated once it is stored.
      name: 'verify',
      plan: (exp, db, ctx) => {
        const e = judgeLsExperiment(exp);
        // Without `verify` nothing is planned: the variants are not read at all.
        if (!e.options.verify) return [];
        return planVerifications(e.items, currentVariants(db, e.id), e.options, ctx?.planned);
      },
      parse: (json, task) =>
        (task.meta as VerifyTask['meta']).check === 'llm'
          ? parseEquivalence(json)
          : parseBackTranslation(json),
      group: () => VERIFIER_ROLE,
      outputTokens: transformOutputTokens,
      // The estimate lists the equivalence verdicts apart from the back-translations.
      describe: (t) => ({
        role: VERIFIER_ROLE,
        label: VERIFIER_ROLE,
        kind: (t.meta as VerifyTask['meta']).check === 'llm' ? 'equivalence-verdict' : 'back-translation',
      }),
    },
  ],
  afterAnswers(exp, db, stage) {
    if (stage === 'transform') storeVariants(db, judgeLsExperiment(exp));
  },
  estimatePlan(exp, db, storedFrom) {
    const e = judgeLsExperiment(exp);
    const stored = storedFrom === null ? [] : currentVariants(db, storedFrom);
    const { variants, standIns } = withStandIns(e, stored);
    const usesStandIn = (t: ProtocolTask) => {
      if (t.stage === 'verify') {
        const v = t.meta as VerifyTask['meta'];
        return standIns.has(`${v.itemId}:${v.language}`);
      }
      if (t.stage !== 'judge') return false;
      const m = t.meta as JudgeTask['meta'];
      // A tie probe needs its target's translation (EN-ar → ar).
      const lang = m.kind === 'tie_probe' ? m.language.slice(3) : m.language;
      return lang !== 'EN' && standIns.has(`${m.itemId}:${lang}`);
    };
    return {
      tasks: [...planAll(e, variants), ...planVerifications(e.items, variants, e.options)],
      fresh: usesStandIn,
      note: standIns.size
        ? 'Judge calls on translations not made yet are estimated from the English texts; output lengths are typical values.'
        : 'Output lengths are typical values; real usage replaces them as answers arrive.',
      noteKey: standIns.size ? 'estimateNote.standIns' : 'estimateNote.typical',
    };
  },
  flagged: (exp, db) => flaggedItems(db, exp),
  unverified: (ctx) => unverifiedItems(ctx),
  // The noise floor's key only with `noiseFloor` on, so metrics.json is as before without it.
  metricsKeys: [...METRICS_KEYS, 'noise_floor?', 'verification?', 'dose_response?'],
  computeMetrics: (ctx) =>
    computeJudgeLsMetrics(judgmentRecords(ctx), {
      flagged: ctx.flagged,
      checks: auditChecks(ctx.exp.options.audit, ctx.exp.options.languages),
      usage: ctx.usage as UsageRow[],
      transformFailures: transformFailures(ctx),
      noiseFloor: ctx.exp.options.noiseFloor,
      statistics: {
        ci: ctx.exp.options.ci,
        bootstrapB: ctx.exp.options.bootstrapB,
        // Its own seed, else the experiment's (set with "sample": "random"), else the default.
        seed: ctx.exp.options.bootstrapSeed ?? ctx.exp.config.seed,
      },
      ...(ctx.exp.options.verify
        ? {
            verification: {
              provider: ctx.exp.options.verify.provider,
              model: ctx.exp.options.verify.model,
              metric: VERIFICATION_METRIC,
              minChrf: ctx.exp.options.verify.minChrf,
              rows: verificationRows(
                ctx,
                ctx.exp.options.verify.minChrf,
                ctx.exp.options.languages,
                ctx.exp.options.verify.llmVerdict,
              ),
            },
          }
        : {}),
      // Only with a target at a mixing ratio (LS:<code>@<0–100>): no key otherwise.
      ...(mixedTargets(ctx.exp.options.languages).length
        ? {
            doseResponse: {
              targets: mixedTargets(ctx.exp.options.languages),
              mixing: mixingOfVerdicts(ctx),
            },
          }
        : {}),
    }),
  tables: (metrics) => buildTables(metrics),
  // Figures draw the intervals the tables show.
  figures: (metrics) => buildFigureSpecs(withChosenIntervals(metrics)),
  // Quality verdicts graded against gold: condition = language, unit = answer order.
  comparable: (ctx) =>
    judgmentRecords(ctx).flatMap((r) =>
      r.kind === 'quality' && r.status === 'ok' && r.winner
        ? [
            {
              judge: r.judge,
              condition: r.language,
              item: r.itemId,
              unit: r.order,
              correct: normalizeChoice(r.order as 'orig' | 'swap', r.winner) === r.gold,
            },
          ]
        : [],
    ),
  figureText: { zh: JUDGE_LS_FIGURES_ZH },
  exportFiles(ctx, calls: ReadonlyMap<number, TaskCall>, db: Database) {
    const judged = ctx.results.filter((r) => r.stage === 'judge');
    const tokens = judged.map((r) => ({
      inputTokens: calls.get(r.requestId)?.inputTokens ?? 0,
      outputTokens: calls.get(r.requestId)?.outputTokens ?? 0,
    }));
    const e = judgeLsExperiment(ctx.exp);
    return [
      ...judgeLsFiles(
        judgmentRecords({ results: judged, excluded: new Set() }),
        tokens,
        missingJudgments(ctx),
      ),
      { name: 'texts.csv', content: textsCsv(e.items, currentVariants(db, e.id)) },
    ];
  },
  annotation: judgeLsAnnotation,
  verdicts: judgeLsVerdicts,
  power: judgeLsPower,
  reportCard: judgeLsReportCardHooks,
  views: {
    custom: {
      [VARIANTS_VIEW]: {
        query: z.strictObject({ flaggedOnly: z.boolean().optional() }),
        run: (db, exp, q) => variantViews(db, exp, q.flaggedOnly === true),
      },
      // The verdict kinds it has: checked here, not by the generic API.
      [JUDGMENTS_VIEW]: {
        query: z.strictObject({
          judge: z.string().optional(),
          itemId: z.number().int().positive().optional(),
          status: z.enum(['ok', 'failed']).optional(),
          kind: z.enum(['quality', 'tie_probe']).optional(),
        }),
        run: (db, exp, filter) => judgmentViews(db, exp, filter as JudgmentFilter),
      },
    },
    edits: {
      // The languages it transforms: checked here, not by the generic API.
      [VARIANT_EDIT]: {
        fields: z.strictObject({
          itemId: z.number().int().positive(),
          language: targetLanguageSchema,
          instruction: z.string(),
          output1: z.string(),
          output2: z.string(),
        }),
        apply: (db, exp, fields) => {
          const e = fields as unknown as VariantEdit;
          const tasks = applyVariantEdit(db, exp, e);
          const row = variantViews(db, exp, false).find(
            (v) => v.itemId === e.itemId && v.language === e.language,
          )!;
          return { tasks, row };
        },
      },
    },
    previewPrompts: (exp, itemId) => promptPreview(exp, itemId),
  },
  defaultTemplates() {
    const { languageRules, ...rest } = DEFAULT_TEMPLATES;
    return { ...rest, languageRulesZH: languageRules.ZH, languageRulesLS: languageRules.LS };
  },
  methods: judgeLsMethods,
  promptTemplates(exp) {
    const t = exp.options.templates;
    return {
      transformSystem: t.transformSystem,
      transformUser: t.transformUser,
      languageRulesZH: t.languageRules.ZH,
      languageRulesLS: t.languageRules.LS,
      judgeSystem: t.judgeSystem,
      judgeUser: t.judgeUser,
      tieProbeUser: t.tieProbeUser,
    };
  },
};

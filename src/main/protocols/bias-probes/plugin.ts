// Bias probes as a plug-in of the generic runner (../plugin.ts; DESIGN.md section 5c):
// `rewrite` (longer / shorter / Markdown variants, plain text, audited) and `judge` (the
// original and each variant; pairwise in both orders), answers `score_verdict` and
// `pairwise_verdict`; metrics: each probe's paired effect, position, length correlations and
// debiased scores.
import { biasMethods } from './methods';
import type { Item } from '../../../shared/domain';
import type { FlaggedItem } from '../../../shared/experiments';
import { BIAS_FIGURES_ZH } from '../../../shared/protocols/bias-probes/report/figure-zh';
import { buildBiasFigures } from '../../../shared/protocols/bias-probes/report/figures';
import { biasVerdicts } from './verdicts';
import { buildBiasTables } from '../../../shared/protocols/bias-probes/report/tables';
import type { BiasMetrics } from '../../../shared/protocols/bias-probes/types';
import { VARIANTS_VIEW } from '../../../shared/protocols/bias-probes/views';
import { z } from 'zod';
import { listResults } from '../host';
import type { ModelUse, ProtocolPlugin } from '../plugin';
import { judgeUses, modelUse } from '../model-use';
import type { ProtocolTask } from '../types';
import {
  biasConfigShape,
  refineBiasConfig,
  resolveBiasOptions,
  REWRITER_LABEL,
  sealBiasConfig,
  type BiasConfig,
  type BiasOptions,
} from './config';
import { biasAnnotation } from './annotation';
import { biasPower } from './power';
import { biasReportCardHooks } from './report-card';
import { exportFilesOf } from './export';
import { biasItem, requireAnswerModels, requirePairs } from './item';
import { auditVariants, computeBiasMetrics } from './metrics';
import { parsePairwiseVerdict } from '../../judging/pairwise';
import { parseScoreVerdict } from '../../judging/score';
import { parseRewrite } from './parse';
import { setPlantedDetectors } from '../host';
import {
  paraphraseKey,
  planJudge,
  planRewrite,
  variantTexts,
  type JudgeMeta,
  type RewriteMeta,
} from './plan';
import { judgingInstructions, promptTemplatesOf } from './prompts';
import {
  conditionById,
  defaultProbeIds,
  probeById,
  rewriteOf,
  selectedProbes,
} from '../../../shared/protocols/bias-probes/probe-registry';
import { variantViews } from './views';
import {
  applyBundleEdits,
  applyRewriteEdit,
  currentEdits,
  editedResults,
  listBundleEdits,
  RewriteEditFields,
  withHandEdits,
  type RewriteEditInput,
} from './hand-edits';
import { instructionParaphrases, paraphraseTemplates } from './instructions';
import { REWRITE_EDIT, type BiasParaphraseEdited } from '../../../shared/protocols/bias-probes/views';
import { biasItems, metricsInput, type BiasExperiment } from './experiment';

function modelsOf(config: BiasConfig): ModelUse[] {
  // The rewriter is called when a selected probe has a condition it makes.
  const rewrites = selectedProbes({ probes: config.probes ?? defaultProbeIds() }).some((p) =>
    p.conditions.some((c) => 'rewrite' in c.text || c.instructions),
  );
  return [
    ...(config.rewriter && rewrites
      ? [modelUse('rewriter', REWRITER_LABEL, config.rewriter, ['rewriter', 'provider'])]
      : []),
    ...judgeUses(config.judges),
  ];
}

export const METRICS_KEYS = [
  'mode',
  'scale',
  'probes',
  'position',
  'length_correlation',
  'debiased',
  'audit',
  'sensitivity',
  'scatter',
  'differences',
  'usage',
  'failures',
] as const satisfies readonly (keyof BiasMetrics)[];

function flaggedOf(exp: BiasExperiment, results: ReturnType<typeof listResults>): FlaggedItem[] {
  const byItem = new Map<string, string[]>();
  for (const a of auditVariants(biasItems(exp), results, exp.options))
    if (a.reasons.length)
      byItem.set(a.sourceId, [
        ...(byItem.get(a.sourceId) ?? []),
        ...a.reasons.map((r) => `${a.slot} ${a.kind}: ${r}`),
      ]);
  return [...byItem].map(([item_id, reasons]) => ({ item_id, reasons }));
}

// The simulated judge's `-bias-<probe><NN>` knob finds each probe's perturbation by its `detect`
// (any probe registered, at the time of the call).
setPlantedDetectors((id) => probeById(id)?.detect);

export const biasProbesPlugin: ProtocolPlugin<BiasExperiment, BiasMetrics> = {
  id: 'bias-probes',
  title: 'Bias probes: position, length and format effects by controlled edits',
  configShape: biasConfigShape,
  refineConfig: refineBiasConfig,
  sealConfig: sealBiasConfig,
  resolveOptions: resolveBiasOptions,
  selectItems(items: Item[], options: BiasOptions): Item[] {
    const read = items.map(biasItem);
    if (options.mode === 'pairwise') requirePairs(read, 'pairwise mode');
    requireAnswerModels(read, options);
    return items;
  },
  models: modelsOf,
  stages: [
    {
      name: 'rewrite',
      plan: (exp) => planRewrite(biasItems(exp), exp.config.rewriter, exp.options),
      parse: (json) => parseRewrite(json),
      group: () => REWRITER_LABEL,
      outputTokens: () => 400,
      describe: (t) => ({ role: 'rewriter', label: REWRITER_LABEL, kind: (t.meta as RewriteMeta).kind }),
    },
    {
      name: 'judge',
      // A variant is judged once its rewrite is stored.
      plan: (exp, db) =>
        planJudge(
          biasItems(exp),
          exp.config.judges,
          exp.options,
          // A person's edit replaces the rewriter's text: the judges see the edited one.
          variantTexts(editedResults(db, exp.id, 'rewrite')),
        ),
      parse: (json, task) => {
        const m = task.meta as JudgeMeta;
        return m.mode === 'pairwise' ? parsePairwiseVerdict(json) : parseScoreVerdict(json, m.scale);
      },
      group: (t) => (t.meta as JudgeMeta).judge,
      outputTokens: () => 120,
      describe: (t) => {
        const m = t.meta as JudgeMeta;
        // The noise floor's repeats are their own kind, so the estimate shows what they add.
        return {
          role: 'judge',
          label: m.judge,
          kind: m.sample ? 'repeat' : m.shown ? 'pair-shown' : m.condition,
        };
      },
    },
  ],
  estimatePlan(exp) {
    const items = biasItems(exp);
    // Variants not made yet are stood in for by their source text padded to the target length.
    const standIns = new Map<string, string>();
    for (const t of planRewrite(items, exp.config.rewriter, exp.options)) {
      const m = t.meta;
      // A paraphrase of the judging instructions is stood in for by the instructions themselves.
      if (m.paraphrase !== undefined) {
        standIns.set(paraphraseKey(m.kind, m.paraphrase), judgingInstructions(exp.options));
        continue;
      }
      const source = items
        .find((i) => i.sourceId === m.sourceId)!
        .responses.find((r) => r.slot === m.slot)!.text;
      const standIn = rewriteOf(m.kind)?.standIn;
      const text = standIn ? standIn(source) : source;
      standIns.set(`${m.sourceId}\u0000${m.slot}\u0000${m.kind}`, text);
    }
    const tasks: ProtocolTask[] = [
      ...planRewrite(items, exp.config.rewriter, exp.options),
      ...planJudge(items, exp.config.judges, exp.options, standIns),
    ];
    return {
      tasks,
      // A judge call on a rewrite cannot be a stored answer yet (its text is a stand-in).
      fresh: (t) => {
        if (t.stage !== 'judge') return false;
        const m = t.meta as JudgeMeta;
        const c = conditionById(m.condition);
        return (c !== undefined && 'rewrite' in c.text) || m.paraphrase !== undefined;
      },
      note: 'Judge calls on variants not rewritten yet are estimated from stand-in texts of the target length; every shorter rewrite is assumed to exist.',
      noteKey: 'estimateNote.standIns',
    };
  },
  flagged: (exp, db) => flaggedOf(exp, editedResults(db, exp.id, 'rewrite')),
  editedResults: (db, exp, results) => withHandEdits(results, currentEdits(db, exp.id)),
  bundleEdits: { list: listBundleEdits, apply: applyBundleEdits },
  // The noise floor's key only with `noiseFloor` on, so metrics.json is as before without it.
  metricsKeys: [
    ...METRICS_KEYS,
    'accuracy?',
    'noise_floor?',
    'instruction_paraphrases?',
    'own_answers?',
    'hand_edits?',
  ],
  computeMetrics: (ctx) => computeBiasMetrics(metricsInput(ctx)),
  tables: buildBiasTables,
  figures: buildBiasFigures,
  figureText: { zh: BIAS_FIGURES_ZH },
  exportFiles: (ctx, calls) => exportFilesOf(ctx, calls),
  methods: biasMethods,
  // With the store, the paraphrases of the judging instructions as judged (hand edits included).
  promptTemplates: (exp, db) => ({
    ...promptTemplatesOf(exp.options.scale, exp.options.rubric, exp.options.probes),
    ...(db ? paraphraseTemplates(exp.options, editedResults(db, exp.id, 'rewrite')) : {}),
  }),
  annotation: biasAnnotation,
  power: biasPower,
  reportCard: biasReportCardHooks,
  verdicts: biasVerdicts,
  views: {
    custom: {
      [VARIANTS_VIEW]: {
        query: z.strictObject({ flaggedOnly: z.boolean().optional() }),
        run: (db, exp, q) => variantViews(db, exp, q.flaggedOnly === true),
      },
    },
    edits: {
      // Any rewrite the experiment plans: a response's variant or a paraphrase of the instructions.
      [REWRITE_EDIT]: {
        fields: RewriteEditFields,
        apply: (db, exp, fields) => {
          const f = fields as RewriteEditInput;
          const tasks = applyRewriteEdit(db, exp, f);
          if (f.paraphrase !== undefined) {
            const block = instructionParaphrases(
              (exp as BiasExperiment).options,
              [],
              [],
              editedResults(db, exp.id, 'rewrite'),
            ).find((b) => b.condition === f.variant)!;
            const row: BiasParaphraseEdited = {
              variant: f.variant,
              ...block.paraphrases.find((p) => p.paraphrase === f.paraphrase)!,
            };
            return { tasks, row };
          }
          const row = variantViews(db, exp, false).find(
            (v) => v.itemId === f.itemId && v.response === f.response && v.variant === f.variant,
          )!;
          return { tasks, row };
        },
      },
    },
  },
};

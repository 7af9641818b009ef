// Judge-LS: does a judge keep its verdict when the same pairwise comparison is shown in
// English, Chinese (ZH) or Chinese-English code-switching (LS)? Stages: transform (one call
// per item and target language), then judge (8 verdicts per item and judge); between them
// the runner audits the variants (`audit`), and metrics are computed from the judgments.
import type { Item } from '../../../shared/domain';
import type { JudgeLsMetrics, JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import type { Protocol, ProtocolStage } from '../types';
import { auditVariants } from './audit';
import { judgeLsOptionsSchema, type JudgeLsOptions } from './config';
import { computeJudgeLsMetrics, type JudgeLsMetricsInput } from './metrics';
import type {
  JudgeSpec,
  JudgeTask,
  TransformerSpec,
  TransformTask,
  Variant,
  VariantText,
  Verdict,
} from './model';
import { parseVariant, parseVerdict } from './parse';
import { planJudgments, planTransforms } from './plan';

export interface TransformStageInput {
  items: readonly Item[];
  options: JudgeLsOptions;
  transformer: TransformerSpec;
}

export interface JudgeStageInput {
  items: readonly Item[];
  /** Variants that exist now (parsed or edited by hand); a missing one is not judged. */
  variants: readonly Variant[];
  judges: readonly JudgeSpec[];
  options: JudgeLsOptions;
}

export interface JudgeLsStages {
  [name: string]: ProtocolStage<never, TransformTask | JudgeTask, unknown>;
  transform: ProtocolStage<TransformStageInput, TransformTask, VariantText>;
  judge: ProtocolStage<JudgeStageInput, JudgeTask, Verdict>;
}

export interface JudgeLsMetricsArgs extends JudgeLsMetricsInput {
  records: readonly JudgmentRecord[];
}

export interface JudgeLsProtocol extends Protocol<
  JudgeLsOptions,
  JudgeLsStages,
  JudgeLsMetricsArgs,
  JudgeLsMetrics
> {
  /** Audits variants against English; run after transforms, before metrics. */
  audit: typeof auditVariants;
}

export const judgeLsProtocol: JudgeLsProtocol = {
  id: 'judge-ls',
  title: 'Judge-LS: language-switching invariance',
  optionsSchema: judgeLsOptionsSchema,
  stageOrder: ['transform', 'judge'],
  stages: {
    transform: {
      name: 'transform',
      plan: ({ items, options, transformer }) => planTransforms(items, options, transformer),
      parse: (json, task) => parseVariant(json, task.meta.source),
    },
    judge: {
      name: 'judge',
      plan: ({ items, variants, judges, options }) => planJudgments(items, variants, judges, options),
      parse: (json) => parseVerdict(json),
    },
  },
  audit: auditVariants,
  computeMetrics: ({ records, ...input }) => computeJudgeLsMetrics(records, input),
};

export { auditChecks, auditVariant, auditVariants, countNumberTokens, charLength } from './audit';
export type { AuditResult, VariantAudit } from './audit';
export {
  DEFAULT_AUDIT_THRESHOLDS,
  judgeLsOptionsSchema,
  parseJudgeLsOptions,
  type AuditThresholds,
  type JudgeLsOptions,
  type JudgeLsOptionsInput,
} from './config';
export {
  computeJudgeLsMetrics,
  TRANSFORMER_ROLE,
  type JudgeLsMetricsInput,
  type TransformFailure,
} from './metrics';
export * from './model';
export {
  normalizeChoice,
  normalizeWinner,
  parseVariant,
  parseVerdict,
  type ProbeChoice,
  type QualityChoice,
} from './parse';
export {
  judgeTaskKey,
  planJudgments,
  planTransforms,
  selectItems,
  transformTaskKey,
  type PlanOptions,
} from './plan';
export {
  DEFAULT_TEMPLATES,
  LANGUAGE_VARIANT_SCHEMA,
  PAIRWISE_VERDICT_SCHEMA,
  TARGET_LANGUAGE_NAMES,
  TEMPLATE_PLACEHOLDERS,
  renderJudgePrompt,
  renderTemplate,
  renderTieProbePrompt,
  renderTransformPrompt,
  transformPromptHash,
  type JudgeLsTemplates,
  type PairwiseTexts,
  type RenderedPrompt,
} from './prompts';

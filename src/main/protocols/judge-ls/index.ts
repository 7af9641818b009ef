// Judge-LS: does a judge keep its verdict when the same pairwise comparison is shown in
// English, Chinese (ZH) or Chinese-English code-switching (LS)? The plug-in (./plugin.ts) wires
// the pure parts below (plan, parse, audit, metrics) to the generic runner.
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

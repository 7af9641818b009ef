// A Judge-LS experiment as the stages, views and reports work with it: its config, the
// stored variants and their audit, the plans, and the verdict records. The plug-in object
// (plugin.ts) assembles these; views.ts reads them, so they sit below both.
import { pairwiseFields } from './pairwise-item';
import { z } from 'zod';
import type { Item } from '../../../shared/domain';
import type { FlaggedItem, JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import { judgeEntrySchema, modelEntryFields } from '../../judging/config';
import type { Database } from '../host';
import { listResults } from '../host';
import type { BaseConfig, ExperimentView, MetricsContext, ModelUse, PlanTokens } from '../plugin';
import { judgeUses, modelUse } from '../model-use';
import type { ProtocolTask } from '../types';
import { auditVariants } from './audit';
import { targetLanguageSchema, type JudgeLsOptions } from './config';
import type { MissingJudgment } from './judgments-csv';
import { TRANSFORMER_ROLE, type TransformFailure } from './metrics';
import type {
  JudgeSpec,
  JudgeTask,
  TransformerSpec,
  TransformTask,
  Variant,
  VariantText,
  Verdict,
} from './model';
import { planJudgments, planTransforms, transformTaskKey, type VariantLookup } from './plan';
import {
  listVariants,
  setVariantReasons,
  upsertVariant,
  variantKeys,
  variantSources,
  variantTexts,
} from './variants-store';

const judgeSchema = judgeEntrySchema;

const { provider, model, ...transformRest } = modelEntryFields;
const transformSchema = z.strictObject({
  provider,
  model,
  languages: z.array(targetLanguageSchema).min(1).optional(),
  /** Back-translate every translation with this model and score it (chrF): verified items. */
  verify: z
    .strictObject({
      provider,
      model,
      minChrf: z.number().min(0).max(100).optional(),
      llmVerdict: z.boolean().optional(),
    })
    .optional(),
  ...transformRest,
});

/** Judge-LS's keys of the experiment config (DESIGN.md section 7), beside the shared ones. */
export const judgeLsConfigShape = {
  transform: transformSchema,
  judges: z.array(judgeSchema).min(1),
  tieProbes: z.boolean().optional(),
  /** Ask each EN verdict twice (sample 1): the flip rates' noise floor (DESIGN.md section 5). */
  noiseFloor: z.boolean().optional(),
  /** Which intervals the tables show (both are computed): Wilson or the item-clustered bootstrap. */
  ci: z.enum(['wilson', 'cluster-bootstrap']).optional(),
  /** Protocol options beyond the common ones: audit thresholds, templates, temperatures. */
  options: z.record(z.string(), z.unknown()).optional(),
};

/** The study's keys beside those every study's config has (`BaseConfig`). */
export interface JudgeLsConfig extends BaseConfig, Record<string, unknown> {
  transform: z.output<typeof transformSchema>;
  judges: z.output<typeof judgeSchema>[];
  tieProbes?: boolean;
  noiseFloor?: boolean;
  ci?: 'wilson' | 'cluster-bootstrap';
  seed?: number;
  options?: Record<string, unknown>;
}

export interface JudgeLsExperiment extends ExperimentView<JudgeLsConfig, JudgeLsOptions> {
  transformer: TransformerSpec;
  judges: JudgeSpec[];
}

/** The Judge-LS protocol's raw options as the config spreads them over its keys. */
export function protocolOptionsOf(
  cfg: Pick<JudgeLsConfig, 'options' | 'transform' | 'tieProbes' | 'limit' | 'ci' | 'noiseFloor'>,
): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...(cfg.options ?? {}) };
  if (cfg.ci !== undefined) raw.ci = cfg.ci;
  if (cfg.noiseFloor !== undefined) raw.noiseFloor = cfg.noiseFloor;
  if (cfg.transform.languages) raw.languages = cfg.transform.languages;
  if (cfg.transform.verify) raw.verify = cfg.transform.verify;
  if (cfg.tieProbes !== undefined) raw.tieProbes = cfg.tieProbes;
  if (cfg.limit !== undefined) raw.limit = cfg.limit;
  return raw;
}

export function specsOf(config: JudgeLsConfig): { transformer: TransformerSpec; judges: JudgeSpec[] } {
  const t = config.transform;
  return {
    transformer: {
      provider: t.provider,
      model: t.model,
      ...(t.temperature !== undefined ? { temperature: t.temperature } : {}),
      ...(t.maxOutputTokens !== undefined ? { maxOutputTokens: t.maxOutputTokens } : {}),
    },
    judges: config.judges.map((j) => ({
      label: j.label,
      provider: j.provider,
      model: j.model,
      ...(j.temperature !== undefined ? { temperature: j.temperature } : {}),
      ...(j.maxOutputTokens !== undefined ? { maxOutputTokens: j.maxOutputTokens } : {}),
    })),
  };
}

/** Adds what Judge-LS needs beside the generic view: who transforms and who judges. */
export function judgeLsExperiment(exp: ExperimentView<JudgeLsConfig, JudgeLsOptions>): JudgeLsExperiment {
  return { ...exp, ...specsOf(exp.config) };
}

/** The stored variants in the protocol's shape. */
export function currentVariants(db: Database, experimentId: number): Variant[] {
  return listVariants(db, experimentId).map((v) => ({
    itemId: v.itemId,
    language: v.language,
    instruction: v.instruction,
    output1: v.output1,
    output2: v.output2,
    manual: v.manual,
  }));
}

/**
 * The stored variants for a plan that renders few of them (a run's plans while answers arrive):
 * which exist is read at once, each one's texts only when asked for.
 */
export function storedVariantLookup(db: Database, experimentId: number): VariantLookup {
  // Read at the first question: a plan that skips every item (all settled) reads nothing.
  let keys: Set<string> | undefined;
  const stored = (k: string) => (keys ??= variantKeys(db, experimentId)).has(k);
  // Each judge reads the same texts: read once per plan.
  const read = new Map<string, Variant | undefined>();
  return {
    has: (itemId, language) => stored(`${itemId}:${language}`),
    get: (itemId, language) => {
      const k = `${itemId}:${language}`;
      if (!stored(k)) return undefined;
      if (!read.has(k)) {
        const v = variantTexts(db, experimentId, itemId, language);
        read.set(k, v && { itemId, language, ...v });
      }
      return read.get(k);
    },
  };
}

export function auditAll(db: Database, exp: Pick<JudgeLsExperiment, 'id' | 'items' | 'options'>): void {
  const audit = auditVariants(exp.items, currentVariants(db, exp.id), exp.options.audit);
  for (const v of audit.variants) setVariantReasons(db, exp.id, v.itemId, v.language, v.reasons);
}

/**
 * Stores each answered transform not stored yet as a variant (a person's edit is never
 * overwritten), and audits the variants it stored.
 */
export function storeVariants(db: Database, exp: JudgeLsExperiment): void {
  // Runs every second while translations arrive: only translations not stored as variants yet
  // are read whole (reading every variant and translation each time was ~5% of a study's CPU).
  // By task key, so a row already stored is passed over before its meta is parsed: a
  // translation's key names its item (a source id, unique in the dataset) and language.
  const sourceOf = new Map(exp.items.map((i) => [i.id, i.sourceId]));
  const stored = new Map(
    variantSources(db, exp.id).flatMap((v) => {
      const source = sourceOf.get(v.itemId);
      return source === undefined ? [] : [[transformTaskKey(source, v.language), v] as const];
    }),
  );
  const isNew = (r: { key: string; requestId: number; status: string }) => {
    const v = stored.get(r.key);
    return r.status === 'ok' && !v?.manual && v?.requestId !== r.requestId;
  };
  db.transaction(() => {
    const changed: Variant[] = [];
    for (const r of listResults(db, exp.id, 'transform', isNew)) {
      const meta = r.meta as TransformTask['meta'];
      const variant: Variant = {
        itemId: meta.itemId,
        language: meta.language,
        ...(r.value as VariantText),
        manual: false,
      };
      upsertVariant(db, exp.id, {
        ...variant,
        model: exp.transformer.model,
        promptHash: meta.promptHash,
        requestId: r.requestId,
        reasons: [],
      });
      changed.push(variant);
    }
    // A variant's audit reads only it and its item's English texts: the new ones are audited, the
    // others keep their reasons (a person's edit audits everything itself: views.ts).
    if (changed.length === 0) return;
    const items = new Set(changed.map((v) => v.itemId));
    const audit = auditVariants(
      exp.items.filter((i) => items.has(i.id)),
      changed,
      exp.options.audit,
    );
    for (const v of audit.variants) setVariantReasons(db, exp.id, v.itemId, v.language, v.reasons);
  })();
}

/** Items with any audit reason, keyed by source id (as judgment records are). */
export function flaggedItems(db: Database, exp: Pick<ExperimentView, 'id' | 'items'>): FlaggedItem[] {
  const sourceOf = new Map(exp.items.map((i) => [i.id, i.sourceId]));
  const byItem = new Map<string, string[]>();
  for (const v of listVariants(db, exp.id)) {
    const source = sourceOf.get(v.itemId);
    if (!source || v.reasons.length === 0) continue;
    byItem.set(source, [...(byItem.get(source) ?? []), ...v.reasons]);
  }
  return exp.items
    .filter((i) => byItem.has(i.sourceId))
    .map((i) => ({ item_id: i.sourceId, reasons: byItem.get(i.sourceId)! }));
}

/**
 * Variants to plan judge calls with: the stored ones, and for each missing one the English
 * texts standing in (the translation does not exist yet, so its cost is estimated from them).
 */
export function withStandIns(
  exp: Pick<JudgeLsExperiment, 'items' | 'options'>,
  stored: readonly Variant[] = [],
): { variants: Variant[]; standIns: Set<string> } {
  const have = new Set(stored.map((v) => `${v.itemId}:${v.language}`));
  const standIns = new Set<string>();
  const variants = [...stored];
  for (const item of exp.items) {
    for (const language of exp.options.languages) {
      const key = `${item.id}:${language}`;
      if (have.has(key)) continue;
      standIns.add(key);
      variants.push({ itemId: item.id, language, ...englishOf(item), manual: false });
    }
  }
  return { variants, standIns };
}

function englishOf(item: Item): VariantText {
  const { instruction, output1, output2 } = pairwiseFields(item);
  return { instruction, output1, output2 };
}

/** Every task of the experiment, given these variants. */
export function planAll(exp: JudgeLsExperiment, variants: readonly Variant[]): (TransformTask | JudgeTask)[] {
  return [
    ...planTransforms(exp.items, exp.options, exp.transformer),
    ...planJudgments(exp.items, variants, exp.judges, exp.options),
  ];
}

/** Rough answer lengths: a transform returns the three texts again; a verdict is short. */
export const VERDICT_OUTPUT_TOKENS = 120;
const TRANSLATION_EXPANSION = 1.3;

export function transformOutputTokens(task: ProtocolTask, tokens: PlanTokens): number {
  // The answer repeats the prompt's texts in the target language, a little longer.
  const texts = tokens.input({ ...task.request, system: undefined, response: undefined });
  return Math.round(TRANSLATION_EXPANSION * texts * 0.9);
}

export const modelsOf = (config: JudgeLsConfig): ModelUse[] => [
  modelUse(TRANSFORMER_ROLE, TRANSFORMER_ROLE, config.transform, ['transform', 'provider']),
  ...judgeUses(config.judges),
  // The back-translating model (issue 37), only when set: earlier configs list the same models.
  ...(config.transform.verify
    ? [modelUse('verifier', 'verifier', config.transform.verify, ['transform', 'verify', 'provider'])]
    : []),
];

/** Who judged which item, in which language and order: what a record and a missing judgment share. */
export const judgmentOf = (m: JudgeTask['meta']) => ({
  judge: m.judge,
  itemId: m.sourceId,
  subset: m.subset,
  gold: m.gold,
  kind: m.kind,
  language: m.language,
  order: m.order,
});

/** Judge-LS records (metrics input) from stored results of the judge stage. */
export function judgmentRecords(ctx: Pick<MetricsContext, 'results' | 'excluded'>): JudgmentRecord[] {
  const out: JudgmentRecord[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'judge') continue;
    const m = r.meta as JudgeTask['meta'];
    if (ctx.excluded.has(m.sourceId)) continue;
    const v = r.status === 'ok' ? (r.value as Verdict) : null;
    out.push({
      ...judgmentOf(m),
      status: r.status,
      winner: v?.winner ?? null,
      confidence: v?.confidence ?? null,
      reason: v?.reason ?? null,
      failureReason: r.status === 'failed' ? r.reason : null,
      attempts: r.attempts,
      ...(m.sample ? { sample: m.sample } : {}),
    });
  }
  return out;
}

export function transformFailures(ctx: Pick<MetricsContext, 'results' | 'excluded'>): TransformFailure[] {
  const out: TransformFailure[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'transform' || r.status !== 'failed') continue;
    const m = r.meta as TransformTask['meta'];
    if (!ctx.excluded.has(m.sourceId))
      out.push({ itemId: m.sourceId, language: m.language, reason: r.reason ?? 'failed' });
  }
  return out;
}

/**
 * Every verdict the study plans (all judges × items × languages × orders, planned as if each
 * translation existed) that has no stored answer, with why: its translation failed, or it
 * was not answered yet.
 */
export function missingJudgments(ctx: Pick<MetricsContext, 'exp' | 'results'>): MissingJudgment[] {
  const e = judgeLsExperiment(ctx.exp as ExperimentView<JudgeLsConfig, JudgeLsOptions>);
  const answered = new Set(ctx.results.filter((r) => r.stage === 'judge').map((r) => r.key));
  const failedTranslation = new Map<string, string>();
  for (const r of ctx.results) {
    if (r.stage !== 'transform' || r.status !== 'failed') continue;
    const m = r.meta as TransformTask['meta'];
    failedTranslation.set(`${m.itemId}:${m.language}`, r.reason ?? 'failed');
  }
  // Answered slots are left out unrendered (the plan's own `planned`): rendering every judge
  // prompt of the study again only to drop most of them was ~30 MB of the export's garbage.
  const slots = planJudgments(e.items, withStandIns(e).variants, e.judges, e.options, (key) =>
    answered.has(key),
  );
  return slots.map((t) => {
    const m = t.meta;
    // A tie probe needs its target's translation (EN-ar → ar).
    const lang = m.kind === 'tie_probe' ? m.language.slice(3) : m.language;
    const why = lang === 'EN' ? undefined : failedTranslation.get(`${m.itemId}:${lang}`);
    return {
      ...judgmentOf(m),
      status: why ? ('blocked' as const) : ('pending' as const),
      reason: why ? `blocked: translation to ${lang} failed (${why})` : 'not answered yet',
      ...(m.sample ? { sample: m.sample } : {}),
    };
  });
}

export type Exp = ExperimentView<JudgeLsConfig, JudgeLsOptions>;

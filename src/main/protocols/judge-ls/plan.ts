// Planning: which requests Judge-LS needs for a set of items, transformers and judges.
// Pure and deterministic: the same input gives the same tasks in the same order.
import { pairwiseFields } from './pairwise-item';
import type { Item } from '../../../shared/domain';
import type {
  Comparison,
  Language,
  ProbeOrder,
  QualityOrder,
  TargetLanguage,
} from '../../../shared/protocols/judge-ls/types';
import { shownPair } from '../../judging/order';
import { PAIRWISE_VERDICT_SCHEMA } from '../../judging/pairwise';
import type { ChatRequestSpec, ResponseSchema } from '../host';
import { promptHash, taskKey } from '../types';
import {
  canonicalTargets,
  comparisonOf,
  languageInfo,
  mixingOf,
  probeOrdersOf,
  probeTargets,
} from '../../../shared/protocols/judge-ls/languages';
import { mixingCount, type MixingCount } from '../../../shared/text/mixing';
import type { JudgeLsOptions } from './config';
import {
  BACK_TRANSLATION_SCHEMA,
  EQUIVALENCE_SCHEMA,
  LANGUAGE_VARIANT_SCHEMA,
  renderBackTranslationPrompt,
  renderEquivalencePrompt,
  renderJudgePrompt,
  renderTieProbePrompt,
  renderTransformPrompt,
  transformPromptHash,
  type PairwiseTexts,
  type RenderedPrompt,
} from './prompts';
import {
  QUALITY_ORDERS,
  type JudgeSpec,
  type JudgeTask,
  type JudgeTaskMeta,
  type TransformerSpec,
  type TransformTask,
  type Variant,
  type VerifyTask,
  type VariantText,
} from './model';

/** The options planning reads (a parsed `JudgeLsOptions` has them all). */
export type PlanOptions = Pick<
  JudgeLsOptions,
  | 'languages'
  | 'tieProbes'
  | 'templates'
  | 'judgeTemperature'
  | 'judgeMaxOutputTokens'
  | 'transformTemperature'
  | 'transformMaxOutputTokens'
> &
  Partial<Pick<JudgeLsOptions, 'noiseFloor'>>;

/**
 * The items as given (the runner has applied `limit` and the sample, DESIGN.md section 1b); source
 * ids must be unique, since task keys name items by them.
 */
export function selectItems(items: readonly Item[]): Item[] {
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.sourceId)) throw new Error(`Two items share the source id "${it.sourceId}"`);
    seen.add(it.sourceId);
  }
  return [...items];
}

/** Target languages in canonical order (ZH before LS, then the others as listed). */
function targetLanguages(opts: Pick<JudgeLsOptions, 'languages'>): TargetLanguage[] {
  return canonicalTargets(opts.languages);
}

export function englishOf(item: Item): VariantText {
  const { instruction, output1, output2 } = pairwiseFields(item);
  return { instruction, output1, output2 };
}

function request(
  who: { provider: string; model: string; temperature?: number | null; maxOutputTokens?: number },
  prompt: RenderedPrompt,
  response: ResponseSchema,
  defaults: { temperature: number; maxOutputTokens: number },
): ChatRequestSpec {
  const temperature = who.temperature === undefined ? defaults.temperature : who.temperature;
  return {
    provider: who.provider,
    model: who.model,
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
    ...(temperature === null ? {} : { temperature }),
    maxOutputTokens: who.maxOutputTokens ?? defaults.maxOutputTokens,
    response,
  };
}

export function transformTaskKey(sourceId: string, language: TargetLanguage): string {
  return taskKey('transform', sourceId, language);
}

/** One transform per item and target language. */
export function planTransforms(
  items: readonly Item[],
  opts: PlanOptions,
  transformer: TransformerSpec,
  /** Tasks a run has recorded, left out unrendered (PlanContext). */
  planned: (key: string) => boolean = () => false,
  /** Source ids of items whose every transform the run has recorded (PlanContext.settled). */
  settled?: Set<string>,
): TransformTask[] {
  const defaults = { temperature: opts.transformTemperature, maxOutputTokens: opts.transformMaxOutputTokens };
  const targets = targetLanguages(opts);
  // Hashed once a transform is rendered: a run's later plans render none.
  const hashes = new Map<TargetLanguage, string>();
  const hashOf = (l: TargetLanguage) => {
    let h = hashes.get(l);
    if (h === undefined) hashes.set(l, (h = transformPromptHash(opts.templates, l)));
    return h;
  };
  const tasks: TransformTask[] = [];
  for (const item of selectItems(items)) {
    if (settled?.has(item.sourceId)) continue;
    let source: VariantText | undefined;
    for (const language of targets) {
      const key = transformTaskKey(item.sourceId, language);
      if (planned(key)) continue;
      source ??= englishOf(item);
      tasks.push({
        key,
        stage: 'transform',
        request: request(
          transformer,
          renderTransformPrompt(opts.templates, language, source),
          LANGUAGE_VARIANT_SCHEMA,
          defaults,
        ),
        meta: { itemId: item.id, sourceId: item.sourceId, language, promptHash: hashOf(language), source },
      });
    }
    // Found all recorded (not rendered now: a plan whose tasks fail to be recorded plans them again).
    if (!source) settled?.add(item.sourceId);
  }
  return tasks;
}

export function judgeTaskKey(
  judge: string,
  sourceId: string,
  kind: JudgeTaskMeta['kind'],
  language: Language | Comparison,
  order: QualityOrder | ProbeOrder,
): string {
  return taskKey('judge', judge, sourceId, kind, language, order);
}

/** The noise floor's second ask of an EN verdict (sample 1): its own slot. */
export function repeatTaskKey(judge: string, sourceId: string, order: QualityOrder): string {
  return taskKey('judge', judge, sourceId, 'quality', 'EN', order, 'sample', 1);
}

/**
 * The variants a plan reads, by item id and language. A run's plans while answers arrive read
 * only which variants exist (`has`) and the texts of those with a task still to render (`get`):
 * reading every variant's texts at each plan was ~2 of a 419 × 3 study's 28 CPU-s (issue 39).
 */
export interface VariantLookup {
  has(itemId: number, language: TargetLanguage): boolean;
  get(itemId: number, language: TargetLanguage): Variant | undefined;
}

function lookupOf(variants: readonly Variant[] | VariantLookup): VariantLookup {
  if (!Array.isArray(variants)) return variants as VariantLookup;
  const index = variantIndex(variants as readonly Variant[]);
  return {
    has: (itemId, language) => index.has(`${itemId}:${language}`),
    get: (itemId, language) => index.get(`${itemId}:${language}`),
  };
}

function variantIndex(variants: readonly Variant[]): Map<string, Variant> {
  const index = new Map<string, Variant>();
  for (const v of variants) {
    const k = `${v.itemId}:${v.language}`;
    if (index.has(k)) throw new Error(`Two ${v.language} variants for item id ${v.itemId}`);
    index.set(k, v);
  }
  return index;
}

/**
 * Per judge and item: EN, then each target language with a variant, each in orders orig
 * (A = output_1) and swap (A = output_2); then, when tie probes are on, per probed target with a
 * variant (ZH, then `zh`, `ar`, … as listed): the gold output in English against its translation,
 * in both orders (ZH: en_zh / zh_en; others: en_target / target_en), with the instruction in the target. A language without a variant (its transform failed) is not
 * planned; metrics then see it as missing, not as failed.
 */
export function planJudgments(
  items: readonly Item[],
  variants: readonly Variant[] | VariantLookup,
  judges: readonly JudgeSpec[],
  opts: PlanOptions,
  /** Tasks a run has recorded, left out unrendered (PlanContext). */
  planned: (key: string) => boolean = () => false,
  /**
   * Source ids of items whose every verdict the run has recorded, each translation stored
   * (PlanContext.settled): left out without computing their keys; items found so are added.
   */
  settled?: Set<string>,
): JudgeTask[] {
  const labels = new Set<string>();
  for (const j of judges) {
    if (labels.has(j.label)) throw new Error(`Two judges share the label "${j.label}"`);
    labels.add(j.label);
  }
  const byItem = lookupOf(variants);
  const selected = selectItems(items);
  const targets = targetLanguages(opts);
  const tasks: JudgeTask[] = [];
  // Measured once per variant, not per judge and order (only targets at a mixing ratio).
  const measured = new Map<string, MixingCount>();
  const mixingMeta = (item: Item, language: Language, t: VariantText): { mixing?: MixingCount } => {
    if (language === 'EN' || !mixingOf(language)) return {};
    const k = `${item.id}:${language}`;
    let m = measured.get(k);
    if (!m) {
      const en = englishOf(item);
      m = mixingCount(
        [t.instruction, t.output1, t.output2],
        [en.instruction, en.output1, en.output2],
        languageInfo(language)!,
      );
      measured.set(k, m);
    }
    return { mixing: m };
  };

  // Items with a verdict still to record or a translation not stored yet (settled: the others).
  const open = new Set<string>();
  for (const judge of judges) {
    const defaults = { temperature: opts.judgeTemperature, maxOutputTokens: opts.judgeMaxOutputTokens };
    for (const item of selected) {
      if (settled?.has(item.sourceId)) continue;
      const en = pairwiseFields(item);
      const base = {
        judge: judge.label,
        itemId: item.id,
        sourceId: item.sourceId,
        subset: item.subset,
        gold: en.label,
      };
      const languages: Language[] = ['EN'];
      for (const l of targets) {
        if (byItem.has(item.id, l)) languages.push(l);
        else open.add(item.sourceId);
      }
      for (const language of languages) {
        // The texts are read only when a task of theirs is rendered.
        let texts: VariantText | undefined;
        for (const order of QUALITY_ORDERS) {
          const key = judgeTaskKey(judge.label, item.sourceId, 'quality', language, order);
          const repeatKey =
            opts.noiseFloor && language === 'EN' ? repeatTaskKey(judge.label, item.sourceId, order) : null;
          // Recorded tasks are not rendered again (PlanContext).
          if (planned(key) && (repeatKey === null || planned(repeatKey))) continue;
          open.add(item.sourceId);
          const t = (texts ??= language === 'EN' ? englishOf(item) : byItem.get(item.id, language)!);
          const [outputA, outputB] = shownPair(order, t.output1, t.output2);
          const pair: PairwiseTexts = { instruction: t.instruction, outputA, outputB };
          const asked = request(
            judge,
            renderJudgePrompt(opts.templates, pair),
            PAIRWISE_VERDICT_SCHEMA,
            defaults,
          );
          if (!planned(key))
            tasks.push({
              key,
              stage: 'judge',
              request: asked,
              meta: { ...base, kind: 'quality', language, order, ...mixingMeta(item, language, t) },
            });
          // The placebo: the same EN question again (a repeat, its own ledger row).
          if (repeatKey !== null && !planned(repeatKey)) {
            tasks.push({
              key: repeatKey,
              stage: 'judge',
              request: { ...asked, sample: 1 },
              meta: { ...base, kind: 'quality', language, order, sample: 1 },
            });
          }
        }
      }
      if (!opts.tieProbes) continue;
      // ZH first, exactly as before issue 37; then each other probed target in the study's order.
      for (const target of probeTargets(targets)) {
        if (!byItem.has(item.id, target)) continue;
        const language = comparisonOf(target);
        const [enFirst] = probeOrdersOf(target);
        for (const order of probeOrdersOf(target)) {
          const key = judgeTaskKey(judge.label, item.sourceId, 'tie_probe', language, order);
          if (planned(key)) continue;
          open.add(item.sourceId);
          const v = byItem.get(item.id, target)!;
          const goldEn = en.label === 1 ? en.output1 : en.output2;
          const goldTarget = en.label === 1 ? v.output1 : v.output2;
          const pair: PairwiseTexts =
            order === enFirst
              ? { instruction: v.instruction, outputA: goldEn, outputB: goldTarget }
              : { instruction: v.instruction, outputA: goldTarget, outputB: goldEn };
          tasks.push({
            key,
            stage: 'judge',
            request: request(
              judge,
              renderTieProbePrompt(opts.templates, pair, target),
              PAIRWISE_VERDICT_SCHEMA,
              defaults,
            ),
            meta: { ...base, kind: 'tie_probe', language, order },
          });
        }
      }
    }
  }
  // Found all recorded, with every translation stored: later plans of the run skip them whole
  // (only found so, not when planned now: a plan whose tasks fail to be recorded plans them again).
  if (settled) for (const item of selected) if (!open.has(item.sourceId)) settled.add(item.sourceId);
  return tasks;
}

/** A variant's back-translation slot: a text edited by hand gets a new one (its hash is in the key). */
export function verifyTaskKey(sourceId: string, language: TargetLanguage, variant: VariantText): string {
  const hash = promptHash(JSON.stringify([variant.instruction, variant.output1, variant.output2])).slice(
    0,
    16,
  );
  return taskKey('verify', sourceId, language, hash);
}

/**
 * Verified translations (issue 37): one back-translation into English per stored variant of a
 * target language the options list, by the `verify` model. None without `verify`.
 */
export function planVerifications(
  items: readonly Item[],
  variants: readonly Variant[],
  opts: Pick<JudgeLsOptions, 'languages' | 'verify' | 'transformTemperature' | 'transformMaxOutputTokens'>,
  planned: (key: string) => boolean = () => false,
): VerifyTask[] {
  if (!opts.verify) return [];
  const byItem = variantIndex(variants);
  const defaults = { temperature: opts.transformTemperature, maxOutputTokens: opts.transformMaxOutputTokens };
  const tasks: VerifyTask[] = [];
  for (const item of selectItems(items)) {
    for (const language of targetLanguages(opts)) {
      const v = byItem.get(`${item.id}:${language}`);
      if (!v) continue;
      const key = verifyTaskKey(item.sourceId, language, v);
      const meta = { itemId: item.id, sourceId: item.sourceId, language, source: englishOf(item) };
      if (!planned(key))
        tasks.push({
          key,
          stage: 'verify',
          request: request(opts.verify, renderBackTranslationPrompt(v), BACK_TRANSLATION_SCHEMA, defaults),
          meta,
        });
      // The model's own verdict (source and translation side by side), when asked for.
      if (opts.verify.llmVerdict && !planned(`${key}:llm`))
        tasks.push({
          key: `${key}:llm`,
          stage: 'verify',
          request: request(
            opts.verify,
            renderEquivalencePrompt(meta.source, v),
            EQUIVALENCE_SCHEMA,
            defaults,
          ),
          meta: { ...meta, check: 'llm' as const },
        });
    }
  }
  return tasks;
}

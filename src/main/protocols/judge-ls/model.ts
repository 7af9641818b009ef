// Judge-LS values that flow between its stages (the metric row types live in
// src/shared/judge-ls.ts, because the exporters and the renderer read them too).
import type { Label } from '../../../shared/domain';
import type {
  Comparison,
  Language,
  ProbeOrder,
  QualityOrder,
  TargetLanguage,
} from '../../../shared/protocols/judge-ls/types';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ProtocolTask } from '../types';
import type { MixingCount } from '../../../shared/text/mixing';

/** The original targets (issue 37 adds language codes: shared/protocols/judge-ls/languages.ts). */
export const TARGET_LANGUAGES: readonly TargetLanguage[] = ['ZH', 'LS'];
export const LANGUAGES: readonly Language[] = ['EN', 'ZH', 'LS'];
export const QUALITY_ORDERS: readonly QualityOrder[] = ['orig', 'swap'];
/** ZH's probe orders (other targets: probeOrdersOf in shared/protocols/judge-ls/languages.ts). */
export const PROBE_ORDERS: readonly ProbeOrder[] = ['en_zh', 'zh_en'];

/** An item's three texts in one language. */
export interface VariantText {
  instruction: string;
  output1: string;
  output2: string;
}

/** A stored transformation of an item (`itemId` is `Item.id`). */
export interface Variant extends VariantText {
  itemId: number;
  language: TargetLanguage;
  /** True when a person edited the text by hand. */
  manual: boolean;
}

/** A parsed `pairwise_verdict` (the judging kit's contract). */
export type Verdict = PairwiseVerdict;

/** Who transforms: a provider name from the experiment config and a model. */
export interface TransformerSpec {
  provider: string;
  model: string;
  /** Overrides the protocol option; null sends no temperature (some models refuse one). */
  temperature?: number | null;
  maxOutputTokens?: number;
}

export interface JudgeSpec {
  /** Unique within an experiment: metrics and exports name the judge by it. */
  label: string;
  provider: string;
  model: string;
  /** Overrides the protocol option; null sends no temperature (some models refuse one). */
  temperature?: number | null;
  maxOutputTokens?: number;
}

export interface TransformTaskMeta {
  itemId: number;
  sourceId: string;
  language: TargetLanguage;
  /** Hash of the templates that made the prompt, stored with the variant. */
  promptHash: string;
  /** The English texts, so the parser can tell which fields must not come back empty. */
  source: VariantText;
}

export type TransformTask = ProtocolTask<'transform', TransformTaskMeta>;

/** A back-translation of a stored variant into English (verified translations, issue 37). */
export interface VerifyTaskMeta {
  itemId: number;
  sourceId: string;
  language: TargetLanguage;
  /** The English texts the back-translation is scored against (chrF). */
  source: VariantText;
  /** 'llm': the model's equivalence verdict on source and translation; absent: the back-translation. */
  check?: 'llm';
}

export type VerifyTask = ProtocolTask<'verify', VerifyTaskMeta>;

interface JudgeTaskMetaBase {
  judge: string;
  itemId: number;
  sourceId: string;
  subset: string | null;
  gold: Label;
  /** 1 on the noise floor's repeat of an EN verdict; absent on a first ask. */
  sample?: number;
  /**
   * A target at a mixing ratio (`LS:hi@25`, issue 37): the content words of the text judged, as
   * measured (shared/text/mixing.ts); absent on every other verdict.
   */
  mixing?: MixingCount;
}

/** Everything needed to store the verdict as a judgment row (and a `JudgmentRecord`). */
export type JudgeTaskMeta = JudgeTaskMetaBase &
  (
    | { kind: 'quality'; language: Language; order: QualityOrder }
    | { kind: 'tie_probe'; language: Comparison; order: ProbeOrder }
  );

export type JudgeTask = ProtocolTask<'judge', JudgeTaskMeta>;

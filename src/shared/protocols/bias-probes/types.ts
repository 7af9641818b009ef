// Bias-probes metrics (metrics.json; DESIGN.md section 5c). Pure types, shared by the main
// process (which computes them) and the dashboard (which draws them).
import type { UsageRow } from '../../report/usage';
import type { CI } from '../../report/format';
import type { PositionLeanColumns } from '../../stats/position';

export const BIAS_PROTOCOL_ID = 'bias-probes';
export const ALL = 'all';

export type Mode = 'pointwise' | 'pairwise';
/**
 * A probe's id (probe-types.ts `BiasProbe`; the built-in ones are `position`, `length` and
 * `format`, probes/index.ts): open, since a probe is added by registering its module.
 */
export type Probe = string;

/** Rewrites an LLM makes of a response (the `rewrite` stage): a condition's id (`longer`, `shorter`, `markdown`…). */
export type RewriteKind = string;

/**
 * The text a judge sees in one condition: the original, or a probe's condition (an LLM rewrite
 * such as `longer`, `plain`: the original with its Markdown stripped by a parser, no call).
 */
export type Condition = string;

/**
 * A paired comparison's spread, effect size and signed-rank test on the item means, with Holm
 * across the row's family (ProbeRow and ExcessRow say which).
 */
export interface PairedTest {
  sd: number | null;
  /** Cohen's d_z = mean / SD of the paired differences. */
  dz: number | null;
  /** Wilcoxon signed-rank, two-sided (SciPy's default method; see `p_method`). */
  p: number | null;
  p_method: 'exact' | 'approx' | null;
  p_holm: number | null;
  significant: boolean;
}

/**
 * One row per probe effect. `effect` names the paired comparison:
 * - pointwise: `longer` (longer − original), `shorter` (shorter − original), `markdown`
 *   (markdown − plain), `position` (score shown first − shown second, the pair in view);
 * - pairwise: `longer` / `markdown` (win score of the worse response, modified − unmodified:
 *   1 win, 0.5 tie, 0 loss), with `flip_rate` the share of (item, order) whose verdict moved to it.
 */
/** `p_holm`: Holm across the p-values of this judge × category (probes and the paired position test). */
export interface ProbeRow extends PairedTest {
  judge: string;
  category: string;
  probe: Probe;
  /** The effect's id as its probe declares it (`longer`, `shorter`, `markdown`, `position`…). */
  effect: string;
  n: number;
  /** Items the units belong to: the interval and tests take the item as the unit (DESIGN §1e). */
  items: number;
  mean: number;
  /** t 95% clipped to the differences' range; null when it does not exist (`mean_ci_undefined` says why). */
  mean_ci: CI | null;
  /** Present only when `mean_ci` is null: one difference only, or every difference equal. */
  mean_ci_undefined?: string;
  /** Pairwise only: share of pairs the modification turned to the worse response (Wilson CI). */
  flip_rate?: number | null;
  flip_rate_ci?: CI | null;
  flip_n?: number;
  /**
   * The robustness rate (CALM, arXiv 2410.02736): share of the paired units whose verdict did not
   * change between the two conditions (pairwise: the winner, tie included, per item × order;
   * pointwise: the score). Wilson 95% on the design-effect-adjusted n (stats/robustness.ts).
   * Paired changes only (a position row has none); null with the reason when there are no units.
   */
  robustness_rate?: number | null;
  robustness_rate_ci?: CI | null;
  robustness_rate_ci_undefined?: string;
}

/**
 * Pairwise mode, original texts in both orders. The lean is tested paired by item (issue 32
 * item 1, PositionLeanColumns: both-first against both-second items, exact McNemar); `p_holm`
 * adjusts that test with the probes of the same judge × category.
 */
export interface PositionRow extends PositionLeanColumns {
  judge: string;
  category: string;
  /** Valid verdicts that named A or B (ties left out of the rate). */
  n: number;
  /**
   * A among those verdicts, each counted alone (descriptive; with its Wilson CI): the rate to
   * test and to read an interval of is `first_rate`, paired by item.
   */
  position_a_rate: number;
  position_a_rate_ci: CI;
  p_holm: number | null;
  /** Items valid in both orders. */
  n_pairs: number;
  swap_consistency: number | null;
  swap_consistency_ci: CI | null;
}

/**
 * Length against score on the original texts. Pointwise: tokens of each response vs its score;
 * pairwise: tokens of output_1 − output_2 vs output_1's win score averaged over both orders.
 */
export interface LengthCorrelationRow {
  judge: string;
  category: string;
  n: number;
  pearson_r: number | null;
  pearson_p: number | null;
  spearman_r: number | null;
  spearman_p: number | null;
  /** Controlling for the item's human score (only where the dataset has one). */
  n_human: number;
  partial_spearman_r: number | null;
  partial_spearman_p: number | null;
}

export interface DebiasedRow {
  judge: string;
  category: string;
  n: number;
  raw_mean: number;
  debiased_mean: number;
}

/** One judged response: raw and debiased score (see itemScores in the main plug-in). */
export interface ItemScore {
  itemId: string;
  /** Which response of the item: `response` (pointwise data) or `output_1` / `output_2`. */
  response: string;
  judge: string;
  category: string;
  raw: number | null;
  debiased: number | null;
}

export interface FlaggedVariant {
  item_id: string;
  response: string;
  variant: RewriteKind;
  reasons: string[];
}

export interface AuditSummary {
  checks: {
    longer_band: [number, number];
    shorter_band: [number, number];
    markdown_tolerance: number;
    numbers_kept: true;
    not_empty: true;
    /** A registered probe's own rewrite band (`RewriteSpec.check`), before the two above. */
    [check: string]: unknown;
  };
  variants: { variant: RewriteKind; made: number; flagged: number; none: number }[];
  flagged: FlaggedVariant[];
}

/** A point of the length-vs-score scatter (pairwise: length difference and win score of output_1). */
export interface ScatterPoint {
  judge: string;
  item_id: string;
  response: string;
  tokens: number;
  score: number;
}

/** Paired differences per probe effect, for the histograms. */
export interface DiffSeries {
  judge: string;
  effect: ProbeRow['effect'];
  diffs: number[];
}

/** Usage per model role (metrics.json `usage`): the report kit's. */
export type { UsageRow };

export interface FailureRow {
  who: string;
  stage: 'rewrite' | 'judge';
  kind: string;
  reason: string;
  count: number;
}

/**
 * What a placebo asks again: each effect's unchanged side — the original (length effects), the
 * plain text (Markdown), the response shown second with the pair in view (pointwise position).
 */
export type PlaceboBase = string;

/**
 * The noise floor (config `noiseFloor`; DESIGN.md section 5c): each effect's unchanged side
 * scored a second time (sample 1, the same request). Per judge × category × repeated side, the
 * placebo paired difference repeat − first on the units the probes pair (pointwise: item ×
 * response; pairwise: item × order, the win score of the worse response).
 */
export interface PlaceboRow {
  judge: string;
  category: string;
  repeated: PlaceboBase;
  n: number;
  /** Items the units belong to: the interval and tests take the item as the unit (DESIGN §1e). */
  items: number;
  /** Units whose repeat differs from the first answer. */
  changed: number;
  mean: number;
  /** t 95%; null when every difference is equal (see `mean_ci_undefined`). */
  mean_ci: CI | null;
  mean_ci_undefined: string | null;
  sd: number | null;
  /** Wilcoxon signed-rank, two-sided, as the probes' `p`; 1 when every difference is 0. */
  p: number | null;
  p_method: 'exact' | 'approx' | null;
  /** Pairwise only: share of (item, order) whose repeat moved to the worse response (Wilson CI). */
  flip_rate?: number | null;
  flip_rate_ci?: CI | null;
  flip_n?: number;
  /**
   * The robustness rate of the repeat (CALM's consistency rate): the rerun-noise baseline of the
   * effects' robustness rates read against this placebo. As ProbeRow's.
   */
  robustness_rate: number | null;
  robustness_rate_ci: CI | null;
  robustness_rate_ci_undefined?: string;
}

/**
 * An effect against its own placebo (the repeat of the side it starts from) on the same units.
 * Three paired tests, each with Holm across the effects of the judge × category: the signed
 * excess (effect − placebo, a difference of differences; Wilcoxon signed-rank), whether the
 * probe changes a score more often than the repeat does (exact McNemar on changed vs unchanged),
 * and whether it changes it by more (Wilcoxon signed-rank on |probe change| − |repeat change|).
 */
export interface ExcessRow extends PairedTest {
  judge: string;
  category: string;
  effect: ProbeRow['effect'];
  /** The placebo this effect is read against. */
  repeated: PlaceboBase;
  /** Units with both the effect's pair and the placebo's. */
  n: number;
  /** Items the units belong to: the interval and tests take the item as the unit (DESIGN §1e). */
  items: number;
  effect_mean: number;
  placebo_mean: number;
  excess: number;
  excess_ci: CI | null;
  excess_ci_undefined: string | null;
  /** Units whose score the probe changed, and whose repeat changed. */
  changed_probe: number;
  changed_repeat: number;
  /** Discordant units: changed under the probe only, under the repeat only. */
  probe_only: number;
  repeat_only: number;
  /** Exact McNemar of probe_only against repeat_only, item-clustered (stats/clustered-mcnemar.ts); 1 without a discordant unit. */
  changed_p: number;
  changed_p_holm: number | null;
  /** Mean absolute change under the probe and under the repeat. */
  abs_probe_mean: number;
  abs_repeat_mean: number;
  /** Wilcoxon signed-rank of |probe change| − |repeat change|, two-sided; 1 when every difference is 0. */
  abs_p: number;
  abs_p_method: 'exact' | 'approx' | null;
  abs_p_holm: number | null;
}

export interface BiasNoiseFloor {
  placebo: PlaceboRow[];
  excess: ExcessRow[];
}

/**
 * Pairwise mode with gold labels: the share of (item, order) verdicts that chose the better
 * response, per judge × variant (condition) × category; a tie is not correct.
 */
export interface AccuracyRow {
  judge: string;
  category: string;
  variant: Condition;
  /** Valid verdicts on items with a gold label. */
  n: number;
  correct: number;
  ties: number;
  accuracy: number;
  /** Wilson 95%. */
  accuracy_ci: CI;
}

export interface BiasMetrics {
  mode: Mode;
  scale: number;
  probes: ProbeRow[];
  position: PositionRow[];
  length_correlation: LengthCorrelationRow[];
  debiased: DebiasedRow[];
  audit: AuditSummary;
  sensitivity: { excluded_item_ids: string[]; probes: ProbeRow[] };
  scatter: ScatterPoint[];
  differences: DiffSeries[];
  usage: UsageRow[];
  failures: FailureRow[];
  /** Pairwise mode with gold labels only. */
  accuracy?: AccuracyRow[];
  /** Only with `noiseFloor` on (metrics.json unchanged without it). */
  noise_floor?: BiasNoiseFloor;
  /** Only with a probe that paraphrases the judging instructions (the rubric probe). */
  instruction_paraphrases?: InstructionParaphrases[];
  /** Only with an `own-answers` probe (self-preference): per judge × category × effect. */
  own_answers?: OwnAnswersRow[];
  /** Texts judged as a person wrote them (hand edits of rewrites); absent without any. */
  hand_edits?: { rewrites: number; paraphrases: number };
}

/**
 * An estimate on the items where exactly one response is the judge's own: a mean with its t 95%
 * interval (clipped to what it can take), or null with why.
 */
export interface OwnEstimate {
  n: number;
  mean: number | null;
  ci: CI | null;
  /** Present when `ci` is null: no item, one item, or every value equal. */
  ci_undefined?: string;
}

/**
 * Self-preference (an `own-answers` effect) of one judge × category: among the items where exactly
 * one response was written by the judge's own model (the probe's model mapping), the judge's win
 * score of that response averaged over both orders (`self_win_rate`), the human label's
 * (`reference_win_rate`: 1 when the humans preferred it), and their paired per-item difference
 * (`excess`, the profile row's mean, Wilcoxon p, Holm with the profile's family). Length is
 * controlled by stratifying on which response is longer (tokens): `strata` gives the excess where
 * the own answer is the longer one and where it is not, `length_balanced` their equal-weight mean
 * with a stratified t interval and test (undefined, with why, unless each stratum has 2 items).
 */
export interface OwnAnswersRow {
  judge: string;
  category: string;
  effect: string;
  /** The judge's model and the answer models in the data counted as its own (the mapping applied). */
  judge_model: string;
  own_models: string[];
  /** Items with exactly one own response and a verdict in both orders. */
  n_pairs: number;
  /** Items skipped because both responses are the judge's own. */
  both_own: number;
  self_win_rate: OwnEstimate;
  reference_win_rate: OwnEstimate;
  excess: OwnEstimate & { p: number | null; p_method: string | null; p_holm: number | null };
  strata: { stratum: 'own_longer' | 'own_not_longer'; excess: OwnEstimate }[];
  length_balanced: OwnEstimate & { p: number | null; df: number | null };
  /** Set when no item has exactly one own response: what was looked for. Every value is then null. */
  undefined_reason?: string;
}

/**
 * The paraphrases of the judging instructions of one condition (the rubric probe): each beside
 * the original with its audit, and per judge × paraphrase how the verdicts under it moved against
 * the original instructions, so a reader sees whether one paraphrase drives the effect.
 */
export interface InstructionParaphrases {
  condition: string;
  original: string;
  /** The token ratio paraphrase / original the audit accepts. */
  band: [number, number];
  paraphrases: {
    paraphrase: number;
    /** null: the rewrite failed. */
    text: string | null;
    ratio: number | null;
    /** The audit's reasons (empty, a number missing, the ratio outside the band); empty = passed. */
    reasons: string[];
    /** Only on a paraphrase a person edited by hand: who, and when (ISO time). */
    edited_by?: string;
    edited_at?: string;
  }[];
  rows: InstructionParaphraseRow[];
}

/** One judge under one paraphrase against the original instructions (first asks, paired units). */
export interface InstructionParaphraseRow {
  judge: string;
  paraphrase: number;
  /** Paired units: responses (pointwise) or (item, order) (pairwise, items with a gold label). */
  n: number;
  /** Mean change: score (pointwise) or the worse response's win score (pairwise); null when n = 0. */
  mean: number | null;
  /** Units whose score (pointwise) or chosen response (pairwise) differs from the original's. */
  changed: number;
  changed_rate: number | null;
  /** Wilson 95%; null when n = 0 (no units: no rate). */
  changed_rate_ci: [number, number] | null;
  /** Pairwise: units whose original verdict did not choose the worse response (the flip's base). */
  flip_n?: number;
  /** Pairwise: share of those whose verdict under the paraphrase chose it; null when flip_n = 0. */
  flip_rate?: number | null;
  flip_rate_ci?: [number, number] | null;
}

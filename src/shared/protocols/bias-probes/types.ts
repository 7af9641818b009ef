// Bias-probes metrics (metrics.json; DESIGN.md section 5c). Pure types, shared by the main
// process (which computes them) and the dashboard (which draws them).
import type { UsageRow } from '../../report/usage';
import type { CI } from '../../report/format';

export const BIAS_PROTOCOL_ID = 'bias-probes';
export const ALL = 'all';

export type Mode = 'pointwise' | 'pairwise';
export type Probe = 'position' | 'length' | 'format';
export const PROBES: readonly Probe[] = ['position', 'length', 'format'];

/** Rewrites an LLM makes of a response (the `rewrite` stage). */
export type RewriteKind = 'longer' | 'shorter' | 'markdown';
export const REWRITE_KINDS: readonly RewriteKind[] = ['longer', 'shorter', 'markdown'];

/**
 * The text a judge sees in one condition: the original, an LLM rewrite, or `plain` (the
 * original with its Markdown stripped by a parser: no call).
 */
export type Condition = 'original' | 'plain' | RewriteKind;

/**
 * One row per probe effect. `effect` names the paired comparison:
 * - pointwise: `longer` (longer − original), `shorter` (shorter − original), `markdown`
 *   (markdown − plain), `position` (score shown first − shown second, the pair in view);
 * - pairwise: `longer` / `markdown` (win score of the worse response, modified − unmodified:
 *   1 win, 0.5 tie, 0 loss), with `flip_rate` the share of (item, order) whose verdict moved to it.
 */
export interface ProbeRow {
  judge: string;
  category: string;
  probe: Probe;
  effect: 'longer' | 'shorter' | 'markdown' | 'position';
  n: number;
  mean: number;
  /** t 95% clipped to the differences' range; null when it does not exist (`mean_ci_undefined` says why). */
  mean_ci: CI | null;
  /** Present only when `mean_ci` is null: one difference only, or every difference equal. */
  mean_ci_undefined?: string;
  sd: number | null;
  /** Cohen's d_z = mean / SD of the paired differences. */
  dz: number | null;
  /** Wilcoxon signed-rank, two-sided (SciPy's default method; see `p_method`). */
  p: number | null;
  p_method: 'exact' | 'approx' | null;
  /** Holm across the p-values of this judge × category (probes and the position-A test). */
  p_holm: number | null;
  significant: boolean;
  /** Pairwise only: share of pairs the modification turned to the worse response (Wilson CI). */
  flip_rate?: number | null;
  flip_rate_ci?: CI | null;
  flip_n?: number;
}

/** Pairwise mode, original texts in both orders. */
export interface PositionRow {
  judge: string;
  category: string;
  /** Valid verdicts that named A or B (ties left out of the rate). */
  n: number;
  position_a_rate: number;
  position_a_rate_ci: CI;
  /** Exact binomial test of A against 0.5. */
  binomial_p: number;
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
 * The noise floor (config `noiseFloor`; DESIGN.md section 5c): the unchanged response scored a
 * second time (sample 1, the same request). Per judge × category, the placebo paired difference
 * repeat − first on the units the probes pair (pointwise: item × response; pairwise: item × order,
 * the win score of the worse response).
 */
export interface PlaceboRow {
  judge: string;
  category: string;
  n: number;
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
}

/**
 * An effect's excess over the placebo on the same units: the paired difference of differences
 * (effect − placebo), its mean with t 95% CI, Wilcoxon signed-rank p and Holm across the excess
 * rows of the judge × category.
 */
export interface ExcessRow {
  judge: string;
  category: string;
  effect: ProbeRow['effect'];
  /** Units with both the effect's pair and the placebo's. */
  n: number;
  effect_mean: number;
  placebo_mean: number;
  excess: number;
  excess_ci: CI | null;
  excess_ci_undefined: string | null;
  sd: number | null;
  dz: number | null;
  p: number | null;
  p_method: 'exact' | 'approx' | null;
  p_holm: number | null;
  significant: boolean;
}

export interface BiasNoiseFloor {
  placebo: PlaceboRow[];
  excess: ExcessRow[];
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
  /** Only with `noiseFloor` on (metrics.json unchanged without it). */
  noise_floor?: BiasNoiseFloor;
}

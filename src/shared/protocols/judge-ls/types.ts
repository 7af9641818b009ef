// Judge-LS result types (DESIGN.md sections 5 and 8). Rates are fractions in [0, 1];
// a CI is [low, high]. Field names are the export contract: do not rename.

/**
 * EN, the original targets ZH and LS, or (issue 37) a language code from languages.ts (`ar`) or
 * a code-switched pair (`LS:ar`); `string & {}` keeps the literal names visible to the editor.
 */
export type Language = 'EN' | 'ZH' | 'LS' | (string & {});
export type TargetLanguage = Exclude<Language, 'EN'>;
export type Comparison = 'EN-ZH' | 'EN-LS' | `EN-${string}`;
export type QualityOrder = 'orig' | 'swap';
/**
 * Tie-probe orders: ZH's en_zh / zh_en (as before issue 37); any other target's en_target (English
 * shown as A) / target_en (the translation shown as A).
 */
export type ProbeOrder = 'en_zh' | 'zh_en' | 'en_target' | 'target_en';
export type Winner = 'A' | 'B' | 'tie';
export type { CI } from '../../report/format';
import type { CI } from '../../report/format';
import type { RepeatFloorExcess } from '../../report/paired-tables';
import type { PositionLeanColumns } from '../../stats/position';

/** Which ask a verdict answers and what it chose: what a record and the judgments view share. */
export interface JudgedAsk {
  judge: string;
  subset: string | null;
  gold: 1 | 2;
  kind: 'quality' | 'tie_probe';
  /** Quality: EN | ZH | LS | a target; tie probe: 'EN-ZH', or EN-<code> for another target (`EN-ar`). */
  language: Language | Comparison;
  order: QualityOrder | ProbeOrder;
  status: 'ok' | 'failed';
  winner: Winner | null;
}

/** One stored verdict as metrics see it (status failed: winner is null). */
export interface JudgmentRecord extends JudgedAsk {
  itemId: string;
  confidence?: number | null;
  reason?: string | null;
  failureReason?: string | null;
  attempts?: number;
  /** 1 on the noise floor's repeat of an EN quality verdict; absent on a first ask. */
  sample?: number;
}

export interface QualityRow {
  judge: string;
  language: Language;
  n: number;
  accuracy_strict: number;
  /** Wilson in metrics.json (never null); the tables' chosen interval, null when it does not exist. */
  accuracy_strict_ci: CI | null;
  /** Present only when the chosen `accuracy_strict_ci` is null: why. */
  accuracy_strict_ci_undefined_reason?: string;
  /**
   * Item-clustered percentile bootstrap (both orders of an item resampled together); null when it
   * does not exist (every resample the same value: 100% on every item), with the reason beside.
   */
  accuracy_strict_ci_boot: CI | null;
  accuracy_strict_ci_boot_undefined_reason?: string;
  accuracy_tie_half: number;
  accuracy_tie_half_ci: CI;
  position_a_rate: number;
  tie_rate: number;
}

export interface InvarianceRow {
  judge: string;
  comparison: Comparison;
  n: number;
  flip_rate: number;
  /** Wilson in metrics.json (never null); the tables' chosen interval, null when it does not exist. */
  flip_rate_ci: CI | null;
  flip_rate_ci_undefined_reason?: string;
  /** Item-clustered percentile bootstrap (an item's two order pairs resampled together); null with the reason when it does not exist. */
  flip_rate_ci_boot: CI | null;
  flip_rate_ci_boot_undefined_reason?: string;
  correctness_flip_rate: number;
  correctness_flip_rate_ci: CI | null;
  correctness_flip_rate_ci_undefined_reason?: string;
  correctness_flip_rate_ci_boot: CI | null;
  correctness_flip_rate_ci_boot_undefined_reason?: string;
  both_correct: number;
  en_only_correct: number;
  target_only_correct: number;
  both_wrong: number;
  mcnemar_p: number;
  /** Holm-adjusted across the comparisons of the table (all judges and language pairs). */
  mcnemar_p_holm: number;
  /** Strict accuracy in the target language minus in English, on these paired verdicts. */
  accuracy_change: number;
  /** Newcombe's paired 95% CI of accuracy_change (method 10). */
  accuracy_change_ci: CI;
}

/**
 * One judge and language: its items with a verdict in both orders. The paired test of a lean
 * (issue 32 item 1: both-first against both-second items, exact McNemar) is in the
 * PositionLeanColumns; `lean_p_holm` adjusts it across the table (every judge and language).
 */
export interface PositionRow extends PositionLeanColumns {
  judge: string;
  language: Language;
  n: number;
  inconsistency_rate: number;
  inconsistency_rate_ci: CI;
  lean_p_holm: number;
}

interface TieProbeCounts {
  judge: string;
  n: number;
  en_wins: number;
  ties: number;
  en_win_rate: number;
  en_win_rate_ci: CI;
  tie_rate: number;
  tie_rate_ci: CI;
  /** en_wins / (en_wins + target wins); null when there is no non-tie probe. */
  en_share_non_tie: number | null;
  /** Exact two-sided test of EN wins against target wins among non-tie probes at ½, item-clustered (an item's two orders summed). */
  binomial_p: number;
  /** Holm-adjusted across the table's rows (one test per judge and probed language). */
  binomial_p_holm: number;
}

/** A study whose only probed target is ZH: the row as before issue 37 (no `language`, `zh_*` fields). */
export interface ZhTieProbeRow extends TieProbeCounts {
  zh_wins: number;
  zh_win_rate: number;
  zh_win_rate_ci: CI;
}

/**
 * A study that probes any other target (issue 37): every row, ZH's too, names its `language` and
 * counts the translation's wins as `target_*`, so one file has one row shape.
 */
export interface TargetTieProbeRow extends TieProbeCounts {
  language: TargetLanguage;
  target_wins: number;
  target_win_rate: number;
  target_win_rate_ci: CI;
}

export type TieProbeRow = ZhTieProbeRow | TargetTieProbeRow;

/** Either shape of a tie-probe row read the same way: its target and the target's wins. */
export function tieProbeTarget(r: TieProbeRow): {
  language: TargetLanguage;
  wins: number;
  rate: number;
  ci: CI;
} {
  return 'language' in r
    ? { language: r.language, wins: r.target_wins, rate: r.target_win_rate, ci: r.target_win_rate_ci }
    : { language: 'ZH', wins: r.zh_wins, rate: r.zh_win_rate, ci: r.zh_win_rate_ci };
}

export interface SubsetQualityRow {
  judge: string;
  subset: string;
  language: Language;
  n: number;
  accuracy_tie_half: number;
  accuracy_tie_half_ci: CI;
}

export interface SubsetFlipRow {
  judge: string;
  subset: string;
  comparison: Comparison;
  n: number;
  flip_rate: number;
  flip_rate_ci: CI;
}

export interface AuditCheck {
  rule: string;
  description: string;
  threshold?: number;
}

export type { FlaggedItem } from '../../experiments';
import type { FlaggedItem } from '../../experiments';

// Usage per model role is the report kit's row (role: a judge label, or 'transformer'); Judge-LS
// keeps its own usage table (totals footer, cache columns) but not its own row type.
export type { UsageRow };
import type { UsageRow } from '../../report/usage';

export interface FailureRow {
  judge: string;
  kind: string;
  /** Quality: EN | ZH | LS | a target; tie probe: EN-ZH or EN-<code>; transform: the target language. */
  language: string;
  reason: string;
  count: number;
}

/** How intervals were made: which the tables show, and the bootstrap's settings. */
export interface MetricsStatistics {
  ci: 'wilson' | 'cluster-bootstrap';
  bootstrap_b: number;
  bootstrap_seed: number;
  resampling_unit: 'item';
}

/** A flip rate over n pairs with its two intervals. */
export interface FlipRate {
  n: number;
  flips: number;
  flip_rate: number;
  /** Wilson in metrics.json; the tables' chosen interval. */
  flip_rate_ci: CI;
  /**
   * Item-clustered percentile bootstrap (an item's two orders resampled together); null when it
   * does not exist (no flips on any item: every resample 0), with the reason beside.
   */
  flip_rate_ci_boot: CI | null;
  flip_rate_ci_boot_undefined_reason?: string;
}

/** The EN verdict against its own repeat (sample 1, same order): the noise floor; n counts (item, order) pairs with a valid verdict on both asks. */
export interface RepeatFlipRow extends FlipRate {
  judge: string;
}

/**
 * Language flips against repeat flips on the same (item, order) pairs (valid in EN, its repeat
 * and the target language): how much of a language's flip rate is more than the judge's noise.
 */
export interface ExcessFlipRow extends RepeatFloorExcess {
  judge: string;
  comparison: Comparison;
  /** Pairs only the language flipped (the McNemar's change-only count; sign-flip over items: stats/clustered-mcnemar.ts). */
  language_only: number;
  /** Holm-adjusted across the table's rows (every judge and comparison). */
  mcnemar_p_holm: number;
}

export interface NoiseFloorMetrics {
  repeat: RepeatFlipRow[];
  excess: ExcessFlipRow[];
}

export interface JudgeLsMetrics {
  quality: QualityRow[];
  language_invariance: InvarianceRow[];
  position: PositionRow[];
  tie_probe: TieProbeRow[];
  subset_quality: SubsetQualityRow[];
  subset_flip: SubsetFlipRow[];
  audit: { checks: AuditCheck[]; flagged: FlaggedItem[] };
  sensitivity: { excluded_item_ids: string[]; quality: QualityRow[]; language_invariance: InvarianceRow[] };
  usage: UsageRow[];
  failures: FailureRow[];
  statistics: MetricsStatistics;
  /** Only with `noiseFloor` on (undefined is left out of metrics.json, so it stays as it was). */
  noise_floor?: NoiseFloorMetrics;
  /** Only with `transform.verify` set (issue 37); absent otherwise, so metrics.json stays as it was. */
  verification?: VerificationMetrics;
  /** Only with targets at a mixing ratio (issue 37, dose–response); absent otherwise. */
  dose_response?: DoseResponseMetrics;
}

/**
 * One translation's back-translation check (issue 37): chrF (0–100, shared/text/chrf.ts) of each
 * English field against its back-translation; `chrf` is the lowest of the three (a single
 * unfaithful field is enough to make the item unverified), null with no back-translation.
 */
export interface VerificationRow {
  item_id: string;
  language: TargetLanguage;
  chrf: number | null;
  chrf_instruction: number | null;
  chrf_output_1: number | null;
  chrf_output_2: number | null;
  verified: boolean;
  /** Why not verified: "chrF 23.4 < 40", or "no back-translation (…)"; null when verified. */
  reason: string | null;
  /** With `verify.llmVerdict` only: the model's verdict (null: none stored) and its reason. */
  llm_equivalent?: boolean | null;
  llm_reason?: string | null;
}

/** Verified translations: the per-translation checks and the headline tables on verified items only. */
export interface VerificationMetrics {
  provider: string;
  model: string;
  /** What `chrf` is: chrF2, character n-grams 1..6, β = 2, lowest over the three fields. */
  metric: string;
  min_chrf: number;
  translations: VerificationRow[];
  /** Items with any translation not verified (source ids, item order). */
  excluded_item_ids: string[];
  quality: QualityRow[];
  language_invariance: InvarianceRow[];
}

/**
 * One judge at one mixing ratio (issue 37, dose–response): the (item, order) pairs valid in EN and
 * in the mixed target whose text has content words, and how often the choice flipped.
 */
export interface DoseLevelRow extends FlipRate {
  judge: string;
  /** The code-switched pair the levels belong to (`LS:hi`). */
  series: string;
  /** The target (`LS:hi@25`). */
  target: TargetLanguage;
  /** What the transform prompt asked for (0–1). */
  asked_ratio: number;
  /** Mean measured ratio over the pairs' texts (0–1), and its smallest and largest. */
  measured_ratio: number;
  measured_min: number;
  measured_max: number;
}

/**
 * The trend of one judge's flips over the measured ratio, across the series' levels: the slope of
 * a linear probability model (flip-rate change from ratio 0 to 1), its item-clustered (CR1) t
 * interval and test (G − 1 df; `slope_p_holm` across the table's rows), and the item-clustered
 * bootstrap interval of the same slope. Intervals are clipped to [−1, 1], a slope's range on [0, 1].
 */
export interface DoseTrendRow {
  judge: string;
  series: string;
  /** Pairs (item, order, level) in the fit, the items they come from, and the levels. */
  n: number;
  items: number;
  levels: number;
  intercept: number | null;
  slope: number | null;
  slope_undefined_reason?: string;
  slope_ci: CI | null;
  slope_ci_undefined_reason?: string;
  slope_p: number | null;
  slope_p_undefined_reason?: string;
  slope_p_holm: number | null;
  slope_ci_boot: CI | null;
  slope_ci_boot_undefined_reason?: string;
}

/** Only with a target at a mixing ratio (`LS:<code>@<0–100>`); absent otherwise. */
export interface DoseResponseMetrics {
  /** How the ratio is measured on the produced text. */
  measure: string;
  /** The trend model and its test. */
  method: string;
  levels: DoseLevelRow[];
  trend: DoseTrendRow[];
}

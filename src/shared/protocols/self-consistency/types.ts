// Self-consistency metrics (metrics.json; DESIGN.md section 5e). Pure types, shared by the main
// process (which computes them) and the dashboard (which draws them).
import type { CI } from '../../report/format';
import type { PositionLeanColumns } from '../../stats/position';
import type { UsageRow } from '../../report/usage';

export const SELF_CONSISTENCY_ID = 'self-consistency';
export const ALL = 'all';

export type Mode = 'pairwise' | 'pointwise';
export type Order = 'orig' | 'swap';
/** The pointwise "order": one response, no swap. */
export const NO_ORDER = '-';

/** One verdict a repeat gave: pairwise the normalized choice (1 | 2 | tie), pointwise the score. */
export type Verdict = 1 | 2 | 'tie' | number;

/**
 * Stability of one judge under one condition (temperature) in one category: a "question" is one
 * request (item × order) asked `repeats` times; items are the clusters of the bootstrap.
 */
export interface StabilityRow {
  judge: string;
  condition: string;
  /** The temperature asked; null = the provider's default (the judge sets none). */
  temperature: number | null;
  category: string;
  /** Questions with at least two valid repeats (the rates' denominators). */
  questions: number;
  items: number;
  /** Repeats asked, and of them failed (unusable after the retries, or not answered). */
  asked: number;
  failed: number;
  /** Questions whose valid repeats all gave the same verdict. */
  unanimous: number;
  unanimous_rate: number | null;
  unanimous_rate_ci: CI | null;
  /** Why an interval is null (no items; every resample the same value): present only then. */
  unanimous_rate_ci_undefined_reason?: string;
  /** P(two repeats of one question disagree): per question, the share of its pairs of valid repeats that differ; averaged over questions. */
  disagree_prob: number | null;
  disagree_prob_ci: CI | null;
  disagree_prob_ci_undefined_reason?: string;
  /** Fleiss' kappa with the repeats as raters, over complete questions (every repeat valid). */
  fleiss_kappa: number | null;
  /** Why κ is undefined (fewer than two complete questions, one verdict everywhere). */
  fleiss_kappa_undefined_reason?: string;
  complete: number;
  /** Pointwise: mean within-question SD of the scores (n − 1), and ICC(1) over complete questions. */
  within_sd?: number | null;
  icc1?: number | null;
  icc1_ci?: CI | null;
  icc1_undefined_reason?: string;
}

/** Accuracy of the majority (pairwise: plurality; pointwise: median) of the first k repeats against gold. */
export interface AccuracyRow {
  judge: string;
  condition: string;
  /** `all` first, then each category (only when the items have more than one). */
  category: string;
  k: number;
  /** Complete questions with a gold label (the same questions for every k). */
  n: number;
  correct: number;
  accuracy: number | null;
  accuracy_ci: CI | null;
  accuracy_ci_undefined_reason?: string;
  /** k = 1 only: accuracy of one repeat averaged over every repeat index (the best single-sample estimate). */
  single_mean?: number | null;
}

/**
 * Position consistency (orders both): same majority choice in both orders, with k repeats per
 * order. The lean of the k-vote majorities is tested paired by item (PositionLeanColumns: a tied
 * vote counts as a tie); `lean_p_holm` adjusts it across the table (every judge, condition and k).
 */
export interface PositionRow extends PositionLeanColumns {
  judge: string;
  condition: string;
  k: number;
  /** Items with every repeat of both orders valid. */
  n: number;
  consistent: number;
  consistency: number | null;
  consistency_ci: CI | null;
  lean_p_holm: number;
  single_mean?: number | null;
}

/** Per-question agreement: how many of the K repeats give the modal verdict (complete questions). */
export interface AgreementBin {
  judge: string;
  condition: string;
  /** Repeats agreeing with the most frequent verdict (1..K). */
  modal: number;
  questions: number;
}

export interface UnstableRow {
  judge: string;
  condition: string;
  item_id: string;
  category: string;
  order: string;
  /** The verdicts in sample order ("A A B A A", "4 4 3 4 4"; "×" = failed). */
  verdicts: string;
  distinct: number;
}

export interface FailureRow {
  judge: string;
  condition: string;
  reason: string;
  count: number;
}

export interface SelfConsistencyMetrics {
  mode: Mode;
  scale: number | null;
  repeats: number;
  orders: Order[];
  conditions: { id: string; temperature: number | null }[];
  stability: StabilityRow[];
  accuracy_by_k: AccuracyRow[];
  position_by_k: PositionRow[];
  agreement_histogram: AgreementBin[];
  unstable: UnstableRow[];
  statistics: { bootstrap_b: number; bootstrap_seed: number; resampling_unit: 'item' };
  usage: UsageRow[];
  failures: FailureRow[];
}

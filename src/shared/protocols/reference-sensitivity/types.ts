// Reference sensitivity (DESIGN.md section 5b): the metrics.json shape, shared by the core,
// the report content and the renderer. Types and constants only.

import type { UsageRow } from '../../report/usage';
import type { RepeatFloorExcess } from '../../report/paired-tables';
export type Setting = 'NR' | 'RV' | 'RC';
export const SETTINGS: readonly Setting[] = ['NR', 'RV', 'RC'];
export type Transition = 'NR-RV' | 'RV-RC' | 'NR-RC';
export const TRANSITIONS: readonly Transition[] = ['NR-RV', 'RV-RC', 'NR-RC'];
/** The two settings a transition compares, first and second. */
export const TRANSITION_SETTINGS: Record<Transition, readonly [Setting, Setting]> = {
  'NR-RV': ['NR', 'RV'],
  'RV-RC': ['RV', 'RC'],
  'NR-RC': ['NR', 'RC'],
};
export type Verdict = 'CORRECT' | 'INCORRECT';
/** The generator value that pools every generator. */
export const ALL = 'all';

export type CI = [number, number];

export interface CalibrationRow {
  judge: string;
  language: string;
  /** Questions with both C1 and C2 verdicts valid (the paired set the rates are taken on). */
  n: number;
  c1_accept: number | null;
  /** Null (with `ci_undefined_reason`) when n = 0: no interval rather than the whole [0, 1]. */
  c1_accept_ci: CI | null;
  c2_accept: number | null;
  c2_accept_ci: CI | null;
  cgp: number | null;
  /** Newcombe's hybrid score interval for a paired difference (method 10); null when n = 0. */
  cgp_ci: CI | null;
  /** Present only when n = 0: why the row's intervals do not exist. */
  ci_undefined_reason?: string;
}

export interface AcceptanceRow {
  judge: string;
  generator: string;
  language: string;
  setting: Setting;
  n: number;
  accept_rate: number | null;
  accept_rate_ci: CI;
}

export interface FlipRow {
  judge: string;
  generator: string;
  language: string;
  transition: Transition;
  n: number;
  flip_rate: number | null;
  flip_rate_ci: CI;
  correct_to_incorrect: number;
  incorrect_to_correct: number;
  mcnemar_p: number;
  extraction_change_rate: number | null;
}

export interface StringBaselineRow {
  generator: string;
  language: string;
  n: number;
  exact_match: number | null;
  token_f1: number | null;
}

export interface EmAgreementRow {
  judge: string;
  generator: string;
  language: string;
  setting: Setting;
  n: number;
  em_agreement: number | null;
}

export interface HumanRow {
  judge: string;
  setting: Setting;
  n: number;
  accuracy: number | null;
  accuracy_ci: CI;
  kappa: number | null;
  kappa_ci: CI | null;
  /** Present when κ has a value but no interval (one side constant, or its variance is 0). */
  kappa_ci_undefined_reason?: 'one side constant' | 'variance 0';
}

export interface HumanFlipRow {
  judge: string;
  /** NR→RV flips on answers with a human label. */
  flips: number;
  toward_human: number;
  toward_human_rate: number | null;
}

/** Usage per model role (metrics.json `usage`): the report kit's. */
export type { UsageRow };

export interface FailureRow {
  /** The judge's or generator's label. */
  who: string;
  stage: 'generate' | 'calibrate' | 'judge';
  /** C1 | C2 | NR | RV | RC | answer. */
  kind: string;
  reason: string;
  count: number;
}

/** NR against its own repeat (sample 1): the noise floor, per judge × generator (and "all") × language. */
export interface NoiseFloorRepeatRow {
  judge: string;
  generator: string;
  language: string;
  n: number;
  flips: number;
  flip_rate: number;
  flip_rate_ci: CI;
}

/** NR→RV or NR→RC flips beside NR→NR repeat flips on the same answers (valid in all three verdicts). */
export interface NoiseFloorExcessRow extends RepeatFloorExcess {
  judge: string;
  generator: string;
  language: string;
  transition: 'NR-RV' | 'NR-RC';
  /** Answers only the reference flipped (the McNemar's change-only count). */
  change_only: number;
  /** Holm across the per-generator excess rows; null on the pooled "all" rows (not in the family). */
  mcnemar_p_holm: number | null;
}

export interface RefSensMetrics {
  calibration: CalibrationRow[];
  acceptance: AcceptanceRow[];
  flips: FlipRow[];
  string_baseline: { answers: StringBaselineRow[]; em_agreement: EmAgreementRow[] };
  human: { settings: HumanRow[]; nr_rv_flips: HumanFlipRow[] };
  usage: UsageRow[];
  failures: FailureRow[];
  /** Only with `noiseFloor` on. */
  noise_floor?: { repeat: NoiseFloorRepeatRow[]; excess: NoiseFloorExcessRow[] };
}

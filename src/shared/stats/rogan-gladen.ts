// The Rogan–Gladen correction of a binary verdict's rate (Rogan & Gladen, Am. J. Epidemiol. 1978,
// "Estimating prevalence from the results of a screening test"): with the judge's positive rate p̂
// on the test items and its specificity q̂0 = P(judge 0 | person 0) and sensitivity
// q̂1 = P(judge 1 | person 1) from the human-labelled (calibration) items,
//     θ̂ = (p̂ + q̂0 − 1) / (q̂0 + q̂1 − 1).
// The interval is the delta method over the three independent binomial estimates, so it carries
// both the test set and the calibration set (Lee, Zeng, Jeong, Sohn, Lee 2025, "How to Correctly
// Report LLM-as-a-Judge Evaluations", arXiv:2511.21140):
//     Var θ̂ = [p̂(1−p̂)/N + (1−θ̂)² q̂0(1−q̂0)/m0 + θ̂² q̂1(1−q̂1)/m1] / (q̂0 + q̂1 − 1)².
// The variance is taken at the unclipped θ̂; θ̂ and the interval are then cut back to [0, 1], and
// `clipped` says so.
import { Z_95 } from './intervals';
import { clipInterval, RANGE } from './interval-rule';
import type { Estimate } from './ppi';

export type RoganGladenUndefinedReason =
  | 'no test items'
  | 'no human-positive items'
  | 'no human-negative items'
  | 'judge no better than chance (sensitivity + specificity ≤ 1)'
  | 'items chosen as the judge’s least sure, not drawn at random';

export interface RoganGladenResult extends Omit<Estimate, 'undefined_reason'> {
  method: 'rogan-gladen';
  sensitivity: number | null;
  specificity: number | null;
  /** The judge's positive rate on the test items. */
  p_hat: number | null;
  undefined_reason?: RoganGladenUndefinedReason | 'zero variance';
}

export interface RoganGladenInput {
  /** Judge positives and items on the test set. */
  testPositives: number;
  testN: number;
  /** Calibration counts: judge 1 among person-1 items (m1 of them), judge 0 among person-0 items (m0). */
  truePositives: number;
  m1: number;
  trueNegatives: number;
  m0: number;
  /** Var(Y) on the calibration set, for n_eff (human-only variance per label). */
  humanVariance?: number;
}

export function roganGladen(input: RoganGladenInput, z: number = Z_95): RoganGladenResult {
  const none = (
    reason: RoganGladenUndefinedReason,
    extra: Partial<RoganGladenResult> = {},
  ): RoganGladenResult => ({
    method: 'rogan-gladen',
    estimate: null,
    se: null,
    ci: null,
    clipped: false,
    n_eff: null,
    sensitivity: null,
    specificity: null,
    p_hat: null,
    undefined_reason: reason,
    ...extra,
  });
  if (input.testN === 0) return none('no test items');
  if (input.m1 === 0) return none('no human-positive items');
  if (input.m0 === 0) return none('no human-negative items');
  const p = input.testPositives / input.testN;
  const q1 = input.truePositives / input.m1;
  const q0 = input.trueNegatives / input.m0;
  const j = q0 + q1 - 1;
  if (!(j > 0))
    return none('judge no better than chance (sensitivity + specificity ≤ 1)', {
      sensitivity: q1,
      specificity: q0,
      p_hat: p,
    });
  const raw = (p + q0 - 1) / j;
  const theta = Math.min(1, Math.max(0, raw));
  const variance =
    ((p * (1 - p)) / input.testN +
      ((1 - raw) ** 2 * q0 * (1 - q0)) / input.m0 +
      (raw ** 2 * q1 * (1 - q1)) / input.m1) /
    (j * j);
  const se = Math.sqrt(variance);
  const base = { method: 'rogan-gladen' as const, sensitivity: q1, specificity: q0, p_hat: p };
  const nEff = input.humanVariance && variance > 0 ? input.humanVariance / variance : null;
  if (!(se > 0))
    return {
      ...base,
      estimate: theta,
      se: 0,
      ci: null,
      clipped: raw !== theta,
      n_eff: nEff,
      undefined_reason: 'zero variance',
    };
  const lo = raw - z * se;
  const hi = raw + z * se;
  const ci = clipInterval([lo, hi], RANGE.proportion);
  return { ...base, estimate: theta, se, ci, clipped: raw !== theta || lo < 0 || hi > 1, n_eff: nEff };
}

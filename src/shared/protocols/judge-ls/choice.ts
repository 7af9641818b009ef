// The one definition of Judge-LS's normalized choice (DESIGN.md section 5), used by metrics,
// judgments.csv, the flip browser and the verdict grid alike.
import type { Comparison, Language, ProbeOrder, QualityOrder, TargetLanguage, Winner } from './types';

export const LANGUAGES: readonly Language[] = ['EN', 'ZH', 'LS'];
export const TARGET_LANGUAGES: readonly TargetLanguage[] = ['ZH', 'LS'];
export const COMPARISONS: readonly Comparison[] = ['EN-ZH', 'EN-LS'];
export const TARGET_OF: Record<Comparison, TargetLanguage> = { 'EN-ZH': 'ZH', 'EN-LS': 'LS' };
/** The noise floor's row of EN against its own repeat, named as its comparison. */
export const REPEAT_COMPARISON = 'EN-EN (repeat)';

/** A normalized choice: the output number for quality verdicts, the language for tie probes. */
export type QualityChoice = 1 | 2 | 'tie';
/** A tie probe's choice: EN, ZH (ZH's probes), `target` (any other target's translation), or tie. */
export type ProbeChoice = 'EN' | 'ZH' | 'target' | 'tie';

/**
 * The normalized choice of a verdict. Quality: orig shows output_1 as A, swap shows
 * output_2 as A. Tie probes: en_zh shows English as A, zh_en shows Chinese as A;
 * another target's en_target shows English as A, target_en its translation.
 */
export function normalizeChoice(order: QualityOrder, winner: Winner): QualityChoice;
export function normalizeChoice(order: ProbeOrder, winner: Winner): ProbeChoice;
export function normalizeChoice(
  order: QualityOrder | ProbeOrder,
  winner: Winner,
): QualityChoice | ProbeChoice;
export function normalizeChoice(
  order: QualityOrder | ProbeOrder,
  winner: Winner,
): QualityChoice | ProbeChoice {
  if (winner === 'tie') return 'tie';
  const a = winner === 'A';
  switch (order) {
    case 'orig':
      return a ? 1 : 2;
    case 'swap':
      return a ? 2 : 1;
    case 'en_zh':
      return a ? 'EN' : 'ZH';
    case 'zh_en':
      return a ? 'ZH' : 'EN';
    case 'en_target':
      return a ? 'EN' : 'target';
    case 'target_en':
      return a ? 'target' : 'EN';
  }
}

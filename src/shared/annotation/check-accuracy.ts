// How well an automatic check finds what people find (issue 37: the back-translation check against
// people who marked "equivalent?"): for a label scale with a `positive` label (what the check is
// meant to find, e.g. "no": not equivalent), each check's sensitivity (of the items people gave the
// positive label, the share it gave it too) and specificity (of the rest, the share it did not),
// with Wilson 95% intervals; κ with its interval is the judge-vs-human row of the same report.
// Read against the human reference per item (majority or adjudicated). On a set sampled
// proportionally within strata of the check's own pass/fail, both are estimates for the whole
// experiment; a set that over-sampled failures would bias them.
import { wilsonInterval, type CI } from '../stats/intervals';
import type { JudgeRating, RatingScale, RatingValue } from './types';

export interface CheckAccuracyRow {
  judge: string;
  /** The label the check is meant to find. */
  positive: string;
  /** Items with a human reference and a rating of this check. */
  n: number;
  /** People positive and the check positive / negative; people negative and the check negative / positive. */
  true_positive: number;
  false_negative: number;
  true_negative: number;
  false_positive: number;
  /** null with the reason when no item's reference is positive. */
  sensitivity: number | null;
  sensitivity_ci: CI | null;
  sensitivity_undefined_reason?: string;
  specificity: number | null;
  specificity_ci: CI | null;
  specificity_undefined_reason?: string;
}

/** A Wilson share, or undefined with the reason (no item to take the share of). */
function share(k: number, n: number, none: string) {
  return n === 0
    ? { value: null, ci: null, reason: none }
    : { value: k / n, ci: wilsonInterval(k, n), reason: undefined };
}

export function checkAccuracy(
  scale: RatingScale,
  reference: ReadonlyMap<string, { category: RatingValue }>,
  judges: readonly JudgeRating[],
): CheckAccuracyRow[] {
  if (scale.kind !== 'label' || scale.positive === undefined) return [];
  const positive = scale.positive;
  const names = [...new Set(judges.map((j) => j.judge))].sort();
  return names.map((judge) => {
    let tp = 0;
    let fn = 0;
    let tn = 0;
    let fp = 0;
    for (const r of judges) {
      if (r.judge !== judge) continue;
      const h = reference.get(r.itemKey);
      if (!h || !scale.labels.includes(String(r.value))) continue;
      const people = String(h.category) === positive;
      const check = String(r.value) === positive;
      if (people && check) tp++;
      else if (people) fn++;
      else if (check) fp++;
      else tn++;
    }
    // The words of Rogan–Gladen's undefined sensitivity and specificity (judge-people.ts).
    const sens = share(tp, tp + fn, 'no human-positive items');
    const spec = share(tn, tn + fp, 'no human-negative items');
    return {
      judge,
      positive,
      n: tp + fn + tn + fp,
      true_positive: tp,
      false_negative: fn,
      true_negative: tn,
      false_positive: fp,
      sensitivity: sens.value,
      sensitivity_ci: sens.ci,
      ...(sens.reason ? { sensitivity_undefined_reason: sens.reason } : {}),
      specificity: spec.value,
      specificity_ci: spec.ci,
      ...(spec.reason ? { specificity_undefined_reason: spec.reason } : {}),
    };
  });
}

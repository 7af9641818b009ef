// An automatic check against people (issue 37): sensitivity and specificity for the scale's
// positive label, against the human reference, with Wilson intervals; undefined with the reason
// when no item falls in a denominator. Numbers worked by hand (Wilson score, z = 1.959964).
import { describe, expect, it } from 'vitest';
import { computeAgreement } from '../../src/shared/annotation/agreement';
import { checkAccuracy } from '../../src/shared/annotation/check-accuracy';
import type { RatingScale } from '../../src/shared/annotation/types';

const scale: RatingScale = {
  kind: 'label',
  labels: ['yes', 'no'],
  task: 'translation_equivalence',
  positive: 'no',
};
// People: u0–u3 not equivalent, u4–u9 equivalent. The check flags u0–u2 (misses u3) and u4 (a false alarm).
const people = ['no', 'no', 'no', 'no', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes'];
const check = ['no', 'no', 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'yes', 'yes'];
const items = people.map((_, i) => ({ itemKey: `u${i}`, category: 'ar' }));
const judges = check.map((value, i) => ({
  itemKey: `u${i}`,
  itemId: i + 1,
  judge: 'chrF ≥ 40',
  kind: 'label' as const,
  value,
}));

describe('checkAccuracy', () => {
  it('counts the 2×2 against people and gives Wilson intervals', () => {
    const report = computeAgreement({
      scale,
      items,
      human: people.map((value, i) => ({ itemKey: `u${i}`, annotator: 'p1', value })),
      judges,
      seed: 's',
    });
    const [row] = report.check_accuracy!;
    expect(row).toMatchObject({
      judge: 'chrF ≥ 40',
      positive: 'no',
      n: 10,
      true_positive: 3,
      false_negative: 1,
      true_negative: 5,
      false_positive: 1,
    });
    expect(row.sensitivity).toBe(0.75);
    expect(row.specificity).toBeCloseTo(5 / 6, 15);
    // Wilson (3 of 4): centre (3 + z²/2)/(4 + z²), half-width z/(4 + z²)·√(3·1/4 + z²/4).
    expect(row.sensitivity_ci![0]).toBeCloseTo(0.30064, 4);
    expect(row.sensitivity_ci![1]).toBeCloseTo(0.95441, 4);
    expect(row.specificity_ci![0]).toBeCloseTo(0.4365, 4);
    expect(row.specificity_ci![1]).toBeCloseTo(0.96994, 4);
    // κ of the same check with people sits in the judge-vs-human rows: p_o = 0.8, p_e = 0.4·0.4 + 0.6·0.6.
    expect(report.judge_human[0].kappa).toBeCloseTo((0.8 - 0.52) / 0.48, 12);
  });

  it('is undefined, with the reason, where no item is in the denominator', () => {
    const reference = new Map(items.map((i) => [i.itemKey, { category: 'yes' }]));
    const [row] = checkAccuracy(scale, reference, judges);
    expect(row.sensitivity).toBeNull();
    expect(row.sensitivity_ci).toBeNull();
    expect(row.sensitivity_undefined_reason).toBe('no human-positive items');
    expect(row.specificity).toBe(0.6);
  });

  it('is absent on a scale without a positive label (other sets keep their report as before)', () => {
    const plain: RatingScale = { kind: 'label', labels: ['CORRECT', 'INCORRECT'] };
    const report = computeAgreement({ scale: plain, items, human: [], judges: [], seed: 's' });
    expect('check_accuracy' in report).toBe(false);
  });
});

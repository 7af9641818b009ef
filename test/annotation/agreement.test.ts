// The agreement report's own rules (src/shared/annotation/agreement.ts), on small hand-made
// inputs: the human reference, debiased scores beside raw ones, bands, the decision at the
// threshold and its "rate about N more" estimate.
import { describe, expect, it } from 'vitest';
import { computeAgreement, decide, humanReference } from '../../src/shared/annotation/agreement';
import { spearmanInterval as spearman } from '../../src/shared/stats';
import type { JudgeRating } from '../../src/shared/annotation/types';

const scale = { kind: 'score' as const, min: 1, max: 5 };

describe('the human reference of an item', () => {
  it('is the median of scores, rounded half up to a scale point for kappa', () => {
    expect(humanReference(scale, [2, 3])).toEqual({ numeric: 2.5, category: 3 });
    expect(humanReference(scale, [1, 4, 5])).toEqual({ numeric: 4, category: 4 });
  });
  it('is the most frequent label, and none when two labels tie for most', () => {
    const labels = { kind: 'label' as const, labels: ['CORRECT', 'INCORRECT'] };
    expect(humanReference(labels, ['CORRECT', 'INCORRECT', 'CORRECT'])).toEqual({
      numeric: 1,
      category: 'CORRECT',
    });
    expect(humanReference(labels, ['CORRECT', 'INCORRECT'])).toBeNull();
    expect(humanReference({ kind: 'preference' }, ['2', '2', 'tie'])).toEqual({ numeric: -1, category: '2' });
  });
});

describe('the decision at the threshold, applied with the interval', () => {
  it('replaces when the whole CI clears it, mixes when it lies below, and estimates the items still needed', () => {
    expect(decide(0.9, [0.82, 0.95], 100, 0.8)).toEqual({ decision: 'replace', more_items: null });
    expect(decide(0.5, [0.3, 0.7], 100, 0.8)).toEqual({ decision: 'mix', more_items: null });
    // The interval's half-width on the z scale (the jackknife's t · SE) shrinks as 1/√(n − 3): at
    // n + more items it falls below the distance to the threshold, one item fewer it does not.
    const z = Math.atanh(0.85);
    const gap = z - Math.atanh(0.8);
    const at = (half: number): [number, number] => [Math.tanh(z - half), Math.tanh(z + half)];
    const u = decide(0.85, at(0.4), 40, 0.8);
    expect(u.decision).toBe('undecided');
    const n = 40 + u.more_items!;
    expect(0.4 * Math.sqrt(37 / (n - 3))).toBeLessThanOrEqual(gap);
    expect(0.4 * Math.sqrt(37 / (n - 4))).toBeGreaterThan(gap);
    // Ratings whose rho varies twice as much (variance ×2) need about twice the items: the count
    // follows the spread the interval measured, not Bonett–Wright's fixed 1 + rho²/2.
    const wide = decide(0.85, at(0.4 * Math.SQRT2), 40, 0.8);
    expect((40 + wide.more_items! - 3) / (n - 3)).toBeCloseTo(2, 1);
    expect(decide(0.8, [0.6, 0.9], 40, 0.8)).toEqual({ decision: 'undecided', more_items: null });
  });
});

describe('computeAgreement', () => {
  const items = Array.from({ length: 12 }, (_, i) => ({
    itemKey: `i${i}`,
    category: i < 6 ? 'math' : 'chat',
  }));
  const truth = [1, 2, 3, 4, 5, 3, 2, 4, 5, 1, 3, 4];
  const human = items.flatMap((it, i) => [
    { itemKey: it.itemKey, annotator: 'a', value: truth[i] },
    { itemKey: it.itemKey, annotator: 'b', value: Math.min(5, truth[i] + (i % 2)) },
  ]);
  const judges: JudgeRating[] = items.map((it, i) => ({
    itemKey: it.itemKey,
    itemId: i + 1,
    judge: 'J',
    category: it.category,
    kind: 'score',
    value: Math.max(1, truth[i] - 1 + (i % 3 === 0 ? 1 : 0)),
    debiased: truth[i] + 0.1 * (i % 2),
  }));
  const report = computeAgreement({ scale, items, human, judges, seed: 'set-1' });

  it('reports raw and debiased judge scores side by side against the human median', () => {
    expect(report.judge_human.map((r) => r.variant)).toEqual(['raw', 'debiased']);
    const medians = items.map((_, i) => (truth[i] + Math.min(5, truth[i] + (i % 2))) / 2);
    const debiased = report.judge_human[1];
    expect(debiased.spearman_rho).toBeCloseTo(
      spearman(
        judges.map((j) => j.debiased!),
        medians,
      ).rho!,
      12,
    );
    expect(report.judge_human[0].spearman_rho).toBeCloseTo(
      spearman(
        judges.map((j) => j.value as number),
        medians,
      ).rho!,
      12,
    );
  });

  it('splits by human tercile and category, and maps per category only with enough items', () => {
    expect(report.bands.map((b) => b.band)).toEqual(['low', 'mid', 'high']);
    expect(report.bands.reduce((s, b) => s + b.n, 0)).toBe(12);
    expect(report.categories.map((c) => [c.category, c.n])).toEqual([
      ['chat', 6],
      ['math', 6],
    ]);
    expect(report.calibration_mapping.map((m) => m.category)).toEqual(['all']);
    const knots = report.calibration_mapping[0].knots;
    for (let i = 1; i < knots.length; i++) expect(knots[i].y).toBeGreaterThanOrEqual(knots[i - 1].y);
  });

  it('warns when people agree poorly, and counts items without a human reference', () => {
    const noisy = computeAgreement({
      scale,
      items,
      human: items.flatMap((it, i) => [
        { itemKey: it.itemKey, annotator: 'a', value: truth[i] },
        { itemKey: it.itemKey, annotator: 'b', value: 6 - truth[i] },
      ]),
      judges: [],
      seed: 's',
    });
    expect(noisy.inter_annotator.primary).toBe('icc21');
    expect(noisy.inter_annotator.warning).toBe(true);
    const labels = computeAgreement({
      scale: { kind: 'label', labels: ['CORRECT', 'INCORRECT'] },
      items: items.slice(0, 2),
      human: [
        { itemKey: 'i0', annotator: 'a', value: 'CORRECT' },
        { itemKey: 'i0', annotator: 'b', value: 'INCORRECT' },
      ],
      judges: [],
      seed: 's',
    });
    expect(labels.unresolved_items).toBe(2);
    expect(labels.inter_annotator.primary).toBe('fleiss_kappa');
  });
});

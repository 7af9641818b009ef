// The metrics on hand-built results, where every number can be worked out by hand: pairwise
// choices undo the swap, ties count ½ and are left out of the A rate, flips count only pairs the
// original verdict did not give to the worse response, Holm runs per judge × category, and
// itemScores gives raw and debiased scores.
import { describe, expect, it } from 'vitest';
import { resolveBiasOptions, type BiasConfig } from './config';
import type { BiasItem } from './item';
import { choiceOf, itemScoresOf } from './metrics';
import { bothOrders, metricsOfJ } from './metrics-test-kit';

const item = (id: string, category: string, label: 1 | 2): BiasItem => ({
  id: 0,
  sourceId: id,
  instruction: 'Q',
  category,
  responses: [
    { slot: 'output_1', text: 'one two three' },
    { slot: 'output_2', text: 'four five' },
  ],
  label,
  reference: null,
  humanScore: null,
});

const opts = resolveBiasOptions({ mode: 'pairwise', probes: ['position', 'length'] } as BiasConfig);

describe('bias-probes metrics (pairwise)', () => {
  it('undoes the swap: A in swap order is output_2', () => {
    expect(choiceOf({ winner: 'A', confidence: null, reason: '' }, 'swap')).toBe(2);
    expect(choiceOf({ winner: 'B', confidence: null, reason: '' }, 'orig')).toBe(2);
    expect(choiceOf({ winner: 'tie', confidence: null, reason: '' }, 'swap')).toBe('tie');
  });

  it('computes the A rate without ties, swap consistency, flips and win-score differences by hand', () => {
    // i1 (gold 1, worse = output_2): orig A (=1), swap A (=2) → inconsistent; longer: orig B (=2, worse) flips, swap A (=2).
    // i2 (gold 2, worse = output_1): orig tie, swap B (=1, worse); longer: orig A (=1, worse), swap B (=1).
    const results = [
      ...bothOrders('i1', 'original', ['A', 'A']),
      ...bothOrders('i1', 'longer', ['B', 'A']),
      ...bothOrders('i2', 'original', ['tie', 'B']),
      ...bothOrders('i2', 'longer', ['A', 'B']),
    ];
    const m = metricsOfJ(opts, [item('i1', 'c1', 1), item('i2', 'c2', 2)], results);
    const pos = m.position.find((r) => r.category === 'all')!;
    // Decided verdicts: A, A, B → 2 of 3.
    expect(pos.n).toBe(3);
    expect(pos.position_a_rate).toBeCloseTo(2 / 3, 12);
    // Both items valid in both orders; i1: 1 vs 2, i2: tie vs 1 → none consistent.
    expect(pos.n_pairs).toBe(2);
    expect(pos.swap_consistency).toBe(0);
    const longer = m.probes.find((r) => r.category === 'all' && r.effect === 'longer')!;
    // Win score of the worse response, longer − original, per (item, order):
    // i1 orig 1−0, i1 swap 1−1, i2 orig 1−½, i2 swap 1−1.
    expect(longer.n).toBe(4);
    expect(longer.mean).toBeCloseTo((1 + 0 + 0.5 + 0) / 4, 12);
    // Flippable: original not on the worse response: i1 orig and i2 orig (tie); both flipped.
    expect(longer.flip_n).toBe(2);
    expect(longer.flip_rate).toBe(1);
    // Categories get their own rows; Holm within judge × category over the probe and position tests.
    expect(m.probes.filter((r) => r.effect === 'longer').map((r) => r.category)).toEqual(['all', 'c1', 'c2']);
    const family = [longer.p!, pos.lean_p];
    const sorted = [...family].sort((a, b) => a - b);
    expect(Math.max(longer.p_holm!, pos.p_holm!)).toBeCloseTo(
      Math.max(Math.min(1, 2 * sorted[0]), Math.min(1, sorted[1])),
      12,
    );
  });

  it('gives raw (orig order) and debiased (both orders) win scores of output_1', () => {
    const rows = itemScoresOf({
      opts,
      judges: ['J'],
      items: [item('i1', 'c1', 1)],
      results: bothOrders('i1', 'original', ['A', 'A']),
    });
    expect(rows).toEqual([
      { itemId: 'i1', response: 'output_1', judge: 'J', category: 'c1', raw: 1, debiased: 0.5 },
    ]);
  });
});

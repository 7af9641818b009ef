// Self-consistency's power plan on hand-built experiments (issue 32 item 8): questions per item
// follow the mode and orders, a pilot counts only when it asked as many repeats, its rates become
// the effects (said to be the pilot's), and each comparison reads its own result rows.
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../shared/domain';
import type { SelfConsistencyMetrics, StabilityRow } from '../../../shared/protocols/self-consistency/types';
import { exactBinomialSampleSize } from '../../../shared/stats/power';
import { selfConsistencyPower } from './power';

const at = { alpha: 0.05, power: 0.8 };
const pairItem = (i: number): Item => ({
  id: i,
  datasetId: 1,
  sourceId: `p${i}`,
  position: i,
  subset: null,
  instruction: 'Q',
  output1: 'a',
  output2: 'b',
  label: 1,
});
const scoreItem = (i: number): Item => ({
  ...pairItem(i),
  output1: null,
  output2: null,
  label: null,
  extra: { response: 'r' },
});
const options = (repeats: number, orders: string[], ids = ['own']) => ({
  repeats,
  orders,
  conditions: ids.map((id) => ({ id, temperature: null })),
});

const stability = (judge: string, condition: string, questions: number, unanimous: number) =>
  ({ judge, condition, category: 'all', questions, unanimous }) as StabilityRow;

describe('self-consistency power plan', () => {
  it('counts two questions per pair in both orders, one per single response, and plans position only for pairs', () => {
    const pairs = selfConsistencyPower.comparisons(
      { items: [1, 2, 3].map(pairItem), options: options(5, ['orig', 'swap'], ['T=0', 'T=1']) },
      null,
      {},
      at,
    );
    expect(pairs.map((c) => `${c.id} ${c.n} ${c.unitsPerItem} ${c.effectSource}`)).toEqual([
      'disagreement:T=0 6 2 default',
      'position_inconsistency:T=0:k=1 3 1 default',
      'position_inconsistency:T=0:k=3 3 1 default',
      'position_inconsistency:T=0:k=5 3 1 default',
      'disagreement:T=1 6 2 default',
      'position_inconsistency:T=1:k=1 3 1 default',
      'position_inconsistency:T=1:k=3 3 1 default',
      'position_inconsistency:T=1:k=5 3 1 default',
    ]);
    const scores = selfConsistencyPower.comparisons(
      { items: [1, 2].map(scoreItem), options: options(3, ['orig', 'swap']) },
      null,
      {},
      at,
    );
    expect(scores.map((c) => `${c.id} ${c.n}`)).toEqual(['disagreement:own 2']);
  });

  it('takes the pilot’s disagreement only when it asked as many repeats, pooled over judges', () => {
    const pilot = {
      mode: 'pairwise',
      repeats: 3,
      conditions: [{ id: 'own', temperature: null }],
      stability: [stability('A', 'own', 40, 36), stability('B', 'own', 40, 20)],
      position_by_k: [],
    } as unknown as SelfConsistencyMetrics;
    const exp = { items: [1, 2].map(pairItem), options: options(3, ['orig']) };
    const [row] = selfConsistencyPower.comparisons(exp, pilot, {}, at);
    // (4 + 20) / 80 = 0.3 disagree; the effect is its rise over p0 = 0.05.
    expect(row.effect).toBeCloseTo(0.25, 12);
    expect(row.effectSource).toBe('pilot');
    expect(row.itemsNeeded).toBe(Math.ceil(exactBinomialSampleSize(0.05, 0.3)!));
    const other = selfConsistencyPower.comparisons(
      { ...exp, options: options(5, ['orig']) },
      pilot,
      {},
      at,
    )[0];
    expect([other.effect, other.effectSource]).toEqual([0.05, 'default']);
    const typed = selfConsistencyPower.comparisons(exp, pilot, { 'disagreement:own': 0.1 }, at)[0];
    expect([typed.effect, typed.effectSource, typed.effectTyped]).toEqual([0.1, 'user', true]);
  });

  it('reads a condition’s stability rows and position at k', () => {
    const m = { conditions: [{ id: 'T=0.7', temperature: 0.7 }] } as SelfConsistencyMetrics;
    expect(selfConsistencyPower.reads('disagreement:T=0.7', m)).toEqual([
      { table: 'stability', where: { condition_id: 'T=0.7' } },
    ]);
    expect(selfConsistencyPower.reads('position_inconsistency:T=0.7:k=3', m)).toEqual([
      { table: 'position_by_k', where: { condition_id: 'T=0.7', k: '3' } },
    ]);
    expect(selfConsistencyPower.reads('disagreement:own', m)).toEqual([]);
  });
});

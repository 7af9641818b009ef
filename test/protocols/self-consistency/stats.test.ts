// The statistics of repeats checked against independent libraries and a published example, run
// through the protocol's metrics (hand-made stored results, one question per row, samples as
// columns):
// - Fleiss' κ against statsmodels 0.14 (`/usr/bin/python3`):
//     from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters
//     fleiss_kappa(aggregate_raters(PAIRWISE)[0], method='fleiss')  # 0.512768817204301
// - ICC(1) and its 95% interval against R psych 2.x:
//     psych::ICC(matrix(SCORES, ncol = 5, byrow = TRUE), lmer = FALSE)$results[1, ]
//     # ICC1 0.884588684484554, lower 0.729495020070034, upper 0.971432006455616
// - ICC(1,1) of Shrout & Fleiss (1979) Table 2 (six targets, four judges): 0.17 (their Table 4).
import { describe, expect, it } from 'vitest';
import type { SelfConsistencyOptions } from '../../../src/main/protocols/self-consistency/config';
import type { ScItem } from '../../../src/main/protocols/self-consistency/item';
import { computeSelfConsistencyMetrics } from '../../../src/main/protocols/self-consistency/metrics';
import type { RepeatMeta } from '../../../src/main/protocols/self-consistency/plan';
import type { TaskResult } from '../../../src/main/protocols/plugin';
import { accuracyCurveFigure } from '../../../src/shared/protocols/self-consistency/report/figures';
import { buildSelfConsistencyTables } from '../../../src/shared/protocols/self-consistency/report/tables';
import {
  icc1,
  oddMedian,
  pairDisagreement,
  plurality,
} from '../../../src/shared/protocols/self-consistency/stats';

// Choices 1, 2 and 3 = tie, as statsmodels saw them.
const PAIRWISE = [
  [1, 1, 1, 1, 1],
  [1, 1, 2, 1, 1],
  [2, 2, 2, 2, 2],
  [2, 1, 2, 2, 3],
  [1, 1, 1, 1, 1],
  [3, 3, 1, 3, 3],
  [2, 2, 2, 2, 1],
  [1, 2, 1, 2, 1],
  [2, 2, 2, 2, 2],
  [1, 1, 1, 3, 1],
];
const SCORES = [
  [4, 4, 3, 4, 4],
  [2, 2, 2, 1, 2],
  [5, 5, 5, 5, 4],
  [3, 4, 3, 3, 3],
  [1, 1, 2, 1, 1],
  [4, 3, 4, 4, 5],
  [2, 3, 2, 2, 2],
  [5, 4, 5, 5, 5],
];

const opts = (repeats: number): SelfConsistencyOptions => ({
  repeats,
  conditions: [{ id: 'own', temperature: null }],
  orders: ['orig'],
  scale: 5,
  rubric: null,
});

function run(
  mode: 'pairwise' | 'pointwise',
  matrix: number[][],
  gold: (i: number) => number | null,
  category: (i: number) => string = () => 'c',
) {
  const items: ScItem[] = matrix.map((_, i) => ({
    id: i + 1,
    sourceId: `q${i}`,
    instruction: 'I',
    category: category(i),
    texts: mode === 'pairwise' ? ['x', 'y'] : ['x'],
    gold: gold(i),
  }));
  const results: TaskResult[] = matrix.flatMap((row, i) =>
    row.map((v, sample) => {
      const meta: RepeatMeta = {
        judge: 'J',
        condition: 'own',
        temperature: null,
        itemId: i + 1,
        sourceId: `q${i}`,
        category: category(i),
        mode,
        order: mode === 'pairwise' ? 'orig' : '-',
        sample,
        scale: 5,
      };
      const value =
        mode === 'pairwise'
          ? { winner: v === 1 ? 'A' : v === 2 ? 'B' : 'tie', confidence: null, reason: '' }
          : { score: v, reason: '' };
      return {
        key: `${i}:${sample}`,
        stage: 'judge',
        meta,
        requestId: i * 10 + sample,
        status: 'ok',
        value,
        reason: null,
        attempts: 1,
      };
    }),
  );
  return computeSelfConsistencyMetrics({
    opts: opts(matrix[0].length),
    mode,
    judges: ['J'],
    items,
    results,
    usage: [],
    bootstrap: { B: 500, seed: 7 },
  });
}

describe('statistics of repeated asks', () => {
  it('gives the accuracy of a vote of k repeats for all items and for each category', () => {
    // Gold 1 everywhere. Correct at every k (counted by hand from the rows above): rows 0, 1, 4,
    // 7, 9; even rows 0 and 4 (2 of 5), odd rows 1, 7 and 9 (3 of 5). One repeat's accuracy by
    // sample index: even 2, 2, 2, 2, 3 (row 6 says 1 last); odd 3, 3, 3, 1, 3.
    const m = run(
      'pairwise',
      PAIRWISE,
      () => 1,
      (i) => (i % 2 ? 'odd' : 'even'),
    );
    expect(m.accuracy_by_k.map((r) => [r.category, r.k, r.n, r.correct])).toEqual([
      ['all', 1, 10, 5],
      ['all', 3, 10, 5],
      ['all', 5, 10, 5],
      ['even', 1, 5, 2],
      ['even', 3, 5, 2],
      ['even', 5, 5, 2],
      ['odd', 1, 5, 3],
      ['odd', 3, 5, 3],
      ['odd', 5, 5, 3],
    ]);
    const single = (c: string) => m.accuracy_by_k.find((r) => r.category === c && r.k === 1)!.single_mean;
    expect(single('even')).toBeCloseTo(11 / 25, 12);
    expect(single('odd')).toBeCloseTo(13 / 25, 12);
    expect(single('all')).toBeCloseTo(24 / 50, 12);
    // The table has a row each; the curve pools the categories (one point per k and judge).
    const table = buildSelfConsistencyTables(m).find((t) => t.id === 'accuracy_by_k')!;
    expect(table.rows.map((r) => r.category)).toEqual(m.accuracy_by_k.map((r) => r.category));
    const curve = accuracyCurveFigure(m)!;
    const series = curve.option.series as { data: unknown[] }[];
    expect(series.flatMap((x) => x.data)).toHaveLength(3);
    // One category: no rows of its own (they would repeat "all").
    expect(run('pairwise', PAIRWISE, () => 1).accuracy_by_k.map((r) => r.category)).toEqual([
      'all',
      'all',
      'all',
    ]);
  });

  it("Fleiss' κ with the repeats as raters equals statsmodels' fleiss_kappa", () => {
    const m = run('pairwise', PAIRWISE, () => 1);
    const row = m.stability[0];
    expect(row.fleiss_kappa).toBeCloseTo(0.512768817204301, 12);
    expect(row.unanimous).toBe(4);
    expect(row.disagree_prob).toBeCloseTo(
      PAIRWISE.map((r) => pairDisagreement(r)!).reduce((a, b) => a + b, 0) / PAIRWISE.length,
      12,
    );
    // Row 4: counts 1, 3, 1 → 1 − (0 + 6 + 0)/20 of its pairs differ.
    expect(pairDisagreement([2, 1, 2, 2, 3])).toBeCloseTo(0.7, 12);
    // Gold 1 (A in the orig order): the plurality of the first k; row 8 (1, 2, 1) at k = 3 is 1.
    const acc = Object.fromEntries(m.accuracy_by_k.map((r) => [r.k, r.correct]));
    expect(acc).toEqual({ 1: 5, 3: 5, 5: 5 });
    expect(m.agreement_histogram.map((b) => [b.modal, b.questions])).toEqual([
      [1, 0],
      [2, 0],
      [3, 2],
      [4, 4],
      [5, 4],
    ]);
  });

  it('ICC(1) and its interval equal R psych::ICC; within-question SD is the mean sample SD', () => {
    const m = run('pointwise', SCORES, (i) => SCORES[i][0]);
    const row = m.stability[0];
    expect(row.icc1).toBeCloseTo(0.884588684484554, 12);
    expect(row.icc1_ci![0]).toBeCloseTo(0.729495020070034, 8);
    expect(row.icc1_ci![1]).toBeCloseTo(0.971432006455616, 8);
    const sd = (xs: number[]) => {
      const mu = xs.reduce((a, b) => a + b, 0) / xs.length;
      return Math.sqrt(xs.reduce((s, x) => s + (x - mu) ** 2, 0) / (xs.length - 1));
    };
    expect(row.within_sd).toBeCloseTo(SCORES.map(sd).reduce((a, b) => a + b, 0) / SCORES.length, 12);
  });

  it('ICC(1,1) of Shrout & Fleiss (1979) Table 2 is 0.17', () => {
    const table2 = [
      [9, 2, 5, 8],
      [6, 1, 3, 2],
      [8, 4, 6, 8],
      [7, 1, 2, 6],
      [10, 5, 6, 9],
      [6, 2, 4, 7],
    ];
    expect(icc1(table2).icc).toBeCloseTo(0.17, 2);
  });

  it('undefined values say why; a vote that ties names no winner', () => {
    const all = run(
      'pairwise',
      [
        [1, 1, 1],
        [1, 1, 1],
      ],
      () => 1,
    );
    expect(all.stability[0].fleiss_kappa).toBeNull();
    expect(all.stability[0].fleiss_kappa_undefined_reason).toBe('one verdict everywhere');
    // Every question unanimous: every resample gives 0, which is no interval.
    expect(all.stability[0].disagree_prob_ci).toBeNull();
    expect(all.stability[0].disagree_prob_ci_undefined_reason).toBe('every resample gives the same value');
    expect(icc1([[3, 3, 3]]).undefinedReason).toBe('fewer than 2 complete questions');
    expect(
      icc1([
        [3, 3],
        [4, 4],
      ]).ci,
    ).toBeNull();
    expect(plurality([1, 2, 'tie'])).toBeNull();
    expect(plurality([1, 2, 2])).toBe(2);
    expect(oddMedian([5, 1, 3])).toBe(3);
    expect(oddMedian([1, 3])).toBeNull();
  });
});

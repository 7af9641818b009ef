// The position test's power plan (issue 32 item 1): a pairwise bias-probes plan plans the paired
// test the run reports (exact McNemar on items) and reads ψ and the lean from a pilot's position
// rows; pointwise keeps the paired score difference, which is what that run computes.
import { describe, expect, it } from 'vitest';
import { biasPower } from '../../src/main/protocols/bias-probes/power';
import type { Item } from '../../src/shared/domain';
import type { BiasMetrics, PositionRow } from '../../src/shared/protocols/bias-probes/types';
import { mcnemarExactMde, mcnemarExactSampleSize } from '../../src/shared/stats';

const AT = { alpha: 0.05, power: 0.8 };
const items: Item[] = Array.from({ length: 200 }, (_, i) => ({
  id: i + 1,
  datasetId: 1,
  sourceId: `i${i}`,
  position: i,
  subset: null,
  instruction: 'q',
  output1: 'a',
  output2: 'b',
  label: 1,
}));
const plan = (mode: 'pairwise' | 'pointwise') => ({
  items,
  options: { probes: ['position' as const], shorter: false, mode },
});

/** A position row with the counts the plan reads; the rest as the metrics would leave them. */
const row = (judge: string, category: string, bf: number, bs: number, tied: number, pairs: number) =>
  ({ judge, category, n_pairs: pairs, both_first: bf, both_second: bs, tied }) as PositionRow;

describe('the position power plan', () => {
  it('pairwise: exact McNemar on items, with default rates before a pilot', () => {
    const [c] = biasPower.comparisons(plan('pairwise'), null, {}, AT);
    expect(c).toMatchObject({
      id: 'position_lean',
      model: 'mcnemar-exact',
      unit: 'items',
      unitsPerItem: 1,
      n: 200,
    });
    expect(c.assumptions).toEqual([
      { key: 'psi', name: 'discordant share ψ', value: 0.1, source: 'default' },
    ]);
    expect(c.mde).toBeCloseTo(mcnemarExactMde(200, 0.1)!, 12);
    expect(c.effect).toBe(0.05);
    expect(c.itemsNeeded).toBe(mcnemarExactSampleSize(0.1, 0.05));
    expect(biasPower.reads('position_lean', {} as BiasMetrics)).toEqual([{ table: 'position' }]);
  });

  it("pairwise: ψ and the lean from the pilot's rows of every category, averaged over judges", () => {
    const pilot = {
      position: [
        // Judge A: 400 items, 10 tied: 390 decided, 20 + 4 discordant, lean 16.
        row('A', 'all', 20, 4, 10, 400),
        row('A', 'Natural', 9, 1, 2, 100),
        // Judge B: 400 items, none tied: 6 + 6 discordant, no lean.
        row('B', 'all', 6, 6, 0, 400),
      ],
      probes: [],
    } as unknown as BiasMetrics;
    const [c] = biasPower.comparisons(plan('pairwise'), pilot, {}, AT);
    const psi = (24 / 390 + 12 / 400) / 2;
    expect(c.assumptions).toEqual([{ key: 'psi', name: 'discordant share ψ', value: psi, source: 'pilot' }]);
    expect(c.effect).toBeCloseTo((16 / 390 + 0) / 2, 15);
    expect(c.mde).toBeCloseTo(mcnemarExactMde(200, psi)!, 12);
  });

  it('pointwise: the paired score difference of the first-shown response, as the run computes it', () => {
    const ids = biasPower.comparisons(plan('pointwise'), null, {}, AT).map((c) => `${c.id} ${c.model}`);
    expect(ids).toEqual([
      'paired_difference:position paired-t',
      'paired_difference:position:wilcoxon wilcoxon-are',
    ]);
  });

  it("pointwise: every response is the test's unit (two per item of a pair), as the run counts differences", () => {
    // issue 33: the end-to-end length cell detected a planted effect far above a plan counting items.
    const rows = biasPower.comparisons(
      { items, options: { probes: ['position', 'length'], shorter: false, mode: 'pointwise' } },
      null,
      { 'paired_difference:longer': 0.3 },
      AT,
    );
    for (const c of rows) expect(c).toMatchObject({ unit: 'responses', unitsPerItem: 2, n: 400 });
    const longer = rows.find((c) => c.id === 'paired_difference:longer')!;
    // 90 differences for d_z 0.3 at 80 % (paired t): 45 items of two responses.
    expect(longer.itemsNeeded).toBe(45);
    // Pairwise, an item's two orders judge one pair: still one unit per item.
    const pw = biasPower.comparisons(
      { items, options: { probes: ['length'], shorter: false, mode: 'pairwise' } },
      null,
      {},
      AT,
    );
    for (const c of pw) expect(c).toMatchObject({ unit: 'items', unitsPerItem: 1, n: 200 });
  });
});

// An adjudicated label is the item's human reference where present (issue 26 item 5): the median
// of the annotators' scores elsewhere. Spearman's ρ of the judge against each reference was
// computed with scipy 1.x (`/usr/bin/python3`, scipy.stats.spearmanr):
//   judge = [1,3,4,4,5,1,2,5]; medians = [1,2,4,4,5,2,2,4.5] → ρ = 0.9500742274486423
//   with items 3 → 5 and 7 → 1 adjudicated: [1,2,5,4,5,2,1,4.5] → ρ = 0.839506172839506
import { describe, expect, it } from 'vitest';
import { computeAgreement } from '../../src/shared/annotation/agreement';
import type { JudgeRating } from '../../src/shared/annotation/types';

const scale = { kind: 'score' as const, min: 1, max: 5 };
const a = [1, 2, 3, 4, 5, 2, 3, 4];
const b = [1, 2, 5, 4, 5, 2, 1, 5];
const judge = [1, 3, 4, 4, 5, 1, 2, 5];
const items = a.map((_, i) => ({ itemKey: `u${i + 1}`, category: null }));
const human = items.flatMap((it, i) => [
  { itemKey: it.itemKey, annotator: 'ann', value: a[i] },
  { itemKey: it.itemKey, annotator: 'bo', value: b[i] },
]);
const judges: JudgeRating[] = items.map((it, i) => ({
  itemKey: it.itemKey,
  itemId: i + 1,
  judge: 'J',
  kind: 'score',
  value: judge[i],
}));

const raw = (r: ReturnType<typeof computeAgreement>) =>
  r.judge_human.find((x) => x.judge === 'J' && x.variant === 'raw')!;

describe('the human reference with adjudicated labels', () => {
  it('is the median where no one adjudicated', () => {
    const r = computeAgreement({ scale, items, human, judges, seed: 's' });
    expect(raw(r).spearman_rho).toBeCloseTo(0.9500742274486423, 12);
    expect(r.adjudicated_items).toBe(0);
  });

  it('is the adjudicated label where there is one, and the people-among-themselves figures do not change', () => {
    const plain = computeAgreement({ scale, items, human, judges, seed: 's' });
    const r = computeAgreement({
      scale,
      items,
      human,
      judges,
      seed: 's',
      adjudicated: [
        { itemKey: 'u3', value: 5 },
        { itemKey: 'u7', value: 1 },
      ],
    });
    expect(raw(r).spearman_rho).toBeCloseTo(0.839506172839506, 12);
    expect(r.adjudicated_items).toBe(2);
    expect(r.points.find((p) => p.itemKey === 'u3' && p.variant === 'raw')!.human).toBe(5);
    expect(r.points.find((p) => p.itemKey === 'u8' && p.variant === 'raw')!.human).toBe(4.5);
    expect(r.inter_annotator).toEqual(plain.inter_annotator);
  });

  it('settles a tied majority that had no reference', () => {
    const pref = { kind: 'preference' as const };
    const its = [{ itemKey: 'p1', category: null }];
    const tie = [
      { itemKey: 'p1', annotator: 'ann', value: '1' },
      { itemKey: 'p1', annotator: 'bo', value: '2' },
    ];
    expect(
      computeAgreement({ scale: pref, items: its, human: tie, judges: [], seed: 's' }).unresolved_items,
    ).toBe(1);
    const settled = computeAgreement({
      scale: pref,
      items: its,
      human: tie,
      judges: [],
      seed: 's',
      adjudicated: [{ itemKey: 'p1', value: '2' }],
    });
    expect(settled.unresolved_items).toBe(0);
    expect(settled.adjudicated_items).toBe(1);
  });
});

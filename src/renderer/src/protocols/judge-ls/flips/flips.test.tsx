import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../../../i18n';
import { VerdictGrid } from './VerdictGrid';
import { judgment, verdictsOf } from '../results/test-fixtures';
import { choiceOf, classifyFlip, computeFlips, filterFlips } from './flips';
import { filterFromQuery, selectionFromQuery, withFilter, withSelection } from './query';

describe('normalized choice', () => {
  it('maps A/B of a quality verdict to outputs by order, keeps ties, and has none for failed verdicts', () => {
    const q = (winner: 'A' | 'B' | 'tie', order: 'orig' | 'swap') =>
      choiceOf(judgment({ itemId: 1, language: 'EN', order, winner }));
    expect(q('A', 'orig')).toBe(1);
    expect(q('B', 'orig')).toBe(2);
    expect(q('A', 'swap')).toBe(2);
    expect(q('B', 'swap')).toBe(1);
    expect(q('tie', 'swap')).toBe('tie');
    expect(
      choiceOf(judgment({ itemId: 1, language: 'EN', order: 'orig', status: 'failed', winner: null })),
    ).toBe(null);
    expect(choiceOf(judgment({ itemId: 1, language: 'EN-ZH', order: 'en_zh' }))).toBe(null);
  });
});

describe('flip types', () => {
  it('classifies every kind of change against the gold label', () => {
    expect(classifyFlip(1, 2, 1)).toBe('correct_to_wrong');
    expect(classifyFlip(2, 1, 1)).toBe('wrong_to_correct');
    expect(classifyFlip(1, 'tie', 1)).toBe('to_tie');
    expect(classifyFlip('tie', 2, 1)).toBe('from_tie');
  });
});

describe('computeFlips', () => {
  it('compares EN with other target languages too (issue 37), after ZH and LS', () => {
    const judgments = [
      judgment({ itemId: 1, language: 'EN', order: 'orig', winner: 'A' }),
      judgment({ itemId: 1, language: 'ar', order: 'orig', winner: 'B' }),
      judgment({ itemId: 1, language: 'LS:hi', order: 'orig', winner: 'tie' }),
      judgment({ itemId: 1, language: 'ZH', order: 'orig', winner: 'B' }),
      judgment({ itemId: 1, language: 'ar', order: 'swap', winner: 'B' }),
      judgment({ itemId: 1, language: 'EN', order: 'swap', winner: 'B' }),
    ];
    const flips = computeFlips(judgments);
    expect(flips.map((f) => [f.comparison, f.target, f.order, f.type])).toEqual([
      ['EN-ZH', 'ZH', 'orig', 'correct_to_wrong'],
      ['EN-ar', 'ar', 'orig', 'correct_to_wrong'],
      ['EN-LS:hi', 'LS:hi', 'orig', 'to_tie'],
    ]);
    // The filter and a link keep such a comparison.
    expect(filterFromQuery({ comparison: 'EN-LS:hi' }).comparison).toBe('EN-LS:hi');
    expect(filterFromQuery({ comparison: 'EN-xx' }).comparison).toBeUndefined();
  });

  it('finds choices that differ between EN and each target, per judge, item and order', () => {
    const judgments = [
      // Item 1, orig: EN A (=1, gold) vs ZH B (=2) → correct→wrong; LS A → no flip.
      ...verdictsOf({ itemId: 1, order: 'orig' }, { EN: 'A', ZH: 'B', LS: 'A' }),
      // Item 1, swap: EN B (=1) vs ZH A (=2); in swap, A is output 2.
      ...verdictsOf({ itemId: 1, order: 'swap' }, { EN: 'B', ZH: 'A', LS: 'tie' }),
      // Item 2 (gold 2), orig: EN tie vs ZH B (=2) → from tie.
      ...verdictsOf({ itemId: 2, gold: 2, order: 'orig' }, { EN: 'tie', ZH: 'B' }),
      // A failed target verdict is not a valid pair, so it is never a flip.
      judgment({ itemId: 2, gold: 2, language: 'LS', order: 'orig', status: 'failed', winner: null }),
      // Tie probes are not quality verdicts.
      judgment({ itemId: 2, gold: 2, language: 'EN-ZH', order: 'en_zh', winner: 'B' }),
      // Another judge, EN wrong (B=2, gold 1) → ZH right.
      ...verdictsOf({ judge: 'J2', itemId: 1, order: 'orig' }, { EN: 'B', ZH: 'A' }),
      // A failed EN verdict has no pair at all.
      judgment({ judge: 'J2', itemId: 2, language: 'EN', order: 'orig', status: 'failed', winner: null }),
      judgment({ judge: 'J2', itemId: 2, language: 'ZH', order: 'orig', winner: 'A' }),
    ];
    const flips = computeFlips(judgments);
    expect(
      flips.map((f) => [
        f.judge,
        f.itemId,
        f.comparison,
        f.order,
        f.enChoice,
        f.targetChoice,
        f.type,
        f.correctnessChanged,
      ]),
    ).toEqual([
      ['J1', 1, 'EN-ZH', 'orig', 1, 2, 'correct_to_wrong', true],
      ['J1', 1, 'EN-ZH', 'swap', 1, 2, 'correct_to_wrong', true],
      ['J1', 1, 'EN-LS', 'swap', 1, 'tie', 'to_tie', true],
      ['J1', 2, 'EN-ZH', 'orig', 'tie', 2, 'from_tie', true],
      ['J2', 1, 'EN-ZH', 'orig', 2, 1, 'wrong_to_correct', true],
    ]);
    expect(flips[0].en.language).toBe('EN');
    expect(flips[0].other.language).toBe('ZH');
    expect(new Set(flips.map((f) => f.key)).size).toBe(flips.length);
  });

  it('counts a wrong verdict becoming a tie as a flip whose correctness did not change', () => {
    const flips = computeFlips(verdictsOf({ itemId: 1, order: 'orig' }, { EN: 'B', LS: 'tie' }));
    expect(flips).toHaveLength(1);
    expect(flips[0].type).toBe('to_tie');
    expect(flips[0].correctnessChanged).toBe(false);
  });
});

describe('filterFlips', () => {
  const flips = computeFlips([
    judgment({
      itemId: 1,
      subset: 'Natural',
      language: 'EN',
      order: 'orig',
      winner: 'A',
      reason: 'Clear and correct',
    }),
    judgment({ itemId: 1, subset: 'Natural', language: 'ZH', order: 'orig', winner: 'B', reason: '更简洁' }),
    ...verdictsOf({ itemId: 2, subset: null, order: 'orig' }, { EN: 'A', LS: 'tie' }),
    ...verdictsOf({ judge: 'J2', itemId: 3, order: 'swap' }, { EN: 'A', ZH: 'B' }),
  ]);
  const ctx = { flagged: new Set(['X-002']) };
  const ids = (f: Parameters<typeof filterFlips>[1], c = ctx) =>
    filterFlips(flips, f, c).map((x) => x.itemId);

  it('filters by judge, comparison, subset (including none), type and flag', () => {
    expect(ids({})).toEqual([1, 2, 3]);
    expect(ids({ judge: 'J2' })).toEqual([3]);
    expect(ids({ comparison: 'EN-LS' })).toEqual([2]);
    expect(ids({ subset: '' })).toEqual([2]);
    expect(ids({ subset: 'Natural' })).toEqual([1, 3]);
    expect(ids({ type: 'to_tie' })).toEqual([2]);
    expect(ids({ type: 'wrong_to_correct' })).toEqual([3]);
    expect(ids({ type: 'correctness' })).toEqual([1, 2, 3]);
    expect(ids({ flagged: 'yes' })).toEqual([2]);
    expect(ids({ flagged: 'no' })).toEqual([1, 3]);
  });

  it('searches ids and reasons without case, and items the text search found', () => {
    expect(ids({ q: 'x-003' })).toEqual([3]);
    expect(ids({ q: 'CLEAR' })).toEqual([1]);
    expect(ids({ q: '简洁' })).toEqual([1]);
    expect(ids({ q: 'pelican' })).toEqual([]);
    expect(ids({ q: 'pelican' }, { ...ctx, textMatches: new Set([2]) } as never)).toEqual([2]);
  });
});

describe('flip query', () => {
  it('reads filters and the opened row, ignoring invalid values', () => {
    expect(
      filterFromQuery({ judge: 'J', comparison: 'EN-XX', subset: '', type: 'bogus', flagged: 'no', q: 'a' }),
    ).toEqual({
      judge: 'J',
      subset: '',
      flagged: 'no',
      q: 'a',
    });
    expect(selectionFromQuery({ item: '12', order: 'swap', rowJudge: 'J' })).toEqual({
      itemId: 12,
      order: 'swap',
      judge: 'J',
    });
    expect(selectionFromQuery({ item: 'abc' })).toBeNull();
  });

  it('changing a filter closes the opened row; opening names judge and comparison when unfiltered', () => {
    const q = { judge: 'J2', item: '3', order: 'swap' };
    expect(withFilter(q, { comparison: 'EN-ZH' })).toEqual({ judge: 'J2', comparison: 'EN-ZH' });
    expect(withFilter(q, { judge: undefined })).toEqual({});
    const f = computeFlips([
      judgment({ judge: 'J2', itemId: 3, language: 'EN', order: 'swap', winner: 'A' }),
      judgment({ judge: 'J2', itemId: 3, language: 'ZH', order: 'swap', winner: 'B' }),
    ])[0];
    expect(withSelection({ judge: 'J2' }, f, { judge: 'J2' })).toEqual({
      judge: 'J2',
      item: '3',
      order: 'swap',
      rowComparison: 'EN-ZH',
    });
  });
});

describe('flipped on repeat as well (the noise floor)', () => {
  it('marks a flip whose EN repeat chose otherwise too, and never counts the repeat as EN', () => {
    const judgments = [
      judgment({ itemId: 1, language: 'EN', order: 'orig', winner: 'A' }),
      judgment({ itemId: 1, language: 'ZH', order: 'orig', winner: 'B' }),
      { ...judgment({ itemId: 1, language: 'EN', order: 'orig', winner: 'B' }), sample: 1 },
      judgment({ itemId: 1, language: 'EN', order: 'swap', winner: 'B' }),
      judgment({ itemId: 1, language: 'ZH', order: 'swap', winner: 'A' }),
      { ...judgment({ itemId: 1, language: 'EN', order: 'swap', winner: 'B' }), sample: 1 },
      judgment({ itemId: 2, language: 'EN', order: 'orig', winner: 'A' }),
      judgment({ itemId: 2, language: 'ZH', order: 'orig', winner: 'B' }),
    ];
    const flips = computeFlips(judgments);
    expect(flips.map((f) => [f.itemId, f.order, f.enChoice, f.repeatFlipped])).toEqual([
      [1, 'orig', 1, true],
      [1, 'swap', 1, false],
      // No repeat stored: unknown, not "no".
      [2, 'orig', 1, null],
    ]);
  });
});

describe('verdict grid with other target languages (issue 37)', () => {
  it('has a column pair for each target the item was judged in, after EN, ZH and LS', () => {
    const judgments = [
      judgment({ itemId: 1, language: 'EN', order: 'orig', winner: 'A' }),
      judgment({ itemId: 1, language: 'ar', order: 'orig', winner: 'B' }),
    ];
    const [flip] = computeFlips(judgments);
    render(<VerdictGrid judgments={judgments} flip={flip} />);
    const headers = [...screen.getByTestId('verdict-grid').querySelectorAll('thead th')].map(
      (h) => h.textContent ?? '',
    );
    expect(headers.filter((h) => /^(EN|ZH|LS|ar) /.test(h)).map((h) => h.split(' ')[0])).toEqual([
      'EN',
      'EN',
      'ZH',
      'ZH',
      'LS',
      'LS',
      'ar',
      'ar',
    ]);
    const current = screen.getByTestId('verdict-grid').querySelectorAll('.verdict-cell--current');
    expect([...current].map((c) => c.textContent)).toEqual(['1', '2']);
    cleanup();
  });
  it("shows another target's tie probes beside ZH's, the translation's win named by its code", () => {
    const judgments = [
      judgment({ itemId: 1, language: 'EN', order: 'orig', winner: 'A' }),
      judgment({ itemId: 1, language: 'ar', order: 'orig', winner: 'B' }),
      judgment({ itemId: 1, kind: 'tie_probe', language: 'EN-ar', order: 'en_target', winner: 'B' }),
      judgment({ itemId: 1, kind: 'tie_probe', language: 'EN-ar', order: 'target_en', winner: 'B' }),
    ];
    const [flip] = computeFlips(judgments);
    render(<VerdictGrid judgments={judgments} flip={flip} />);
    const grid = screen.getByTestId('verdict-grid');
    const headers = [...grid.querySelectorAll('thead th')].map((h) => h.textContent ?? '');
    expect(headers.slice(-2)).toEqual(['Probe EN|ar', 'Probe ar|EN']);
    const cells = [...grid.querySelectorAll('tbody tr')[0].querySelectorAll('td')].map((c) => c.textContent);
    expect(cells.slice(-2)).toEqual(['ar', 'EN']);
    cleanup();
  });
});

import { describe, expect, it } from 'vitest';
import { NO_UNITS, robustnessRate } from './robustness';
import { wilsonInterval } from './intervals';

describe('robustnessRate (CALM RR, item-clustered Wilson)', () => {
  it('is undefined with its reason when there are no units', () => {
    expect(robustnessRate([], [])).toMatchObject({
      n: 0,
      rate: null,
      ci: null,
      ci_undefined_reason: NO_UNITS,
    });
  });

  it('keeps a width inside [0, 1] when every unit is unchanged, counting each item once', () => {
    const r = robustnessRate([true, true, true, true, true, true], ['a', 'a', 'b', 'b', 'c', 'c']);
    expect(r.rate).toBe(1);
    expect(r.deff).toBe(2);
    expect(r.ci).toEqual(wilsonInterval(3, 3));
    expect(r.ci![0]).toBeGreaterThan(0);
    expect(r.ci![0]).toBeLessThan(1);
    expect(r.ci![1]).toBe(1);
  });

  it('widens the interval when an item’s units move together, not when they are independent', () => {
    // Both units of an item alike: the clustered variance is the item-level one (deff = 2).
    const together = robustnessRate(
      [true, true, false, false, true, true, false, false, true, true],
      ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd', 'e', 'e'],
    );
    expect(together.rate).toBeCloseTo(0.6, 12);
    expect(together.deff).toBeCloseTo(2, 12);
    // Each item split: nothing clusters; the clamp keeps deff at 1 (plain Wilson on n).
    const split = robustnessRate(
      [true, false, true, false, true, false, true, false, true, true],
      ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd', 'e', 'e'],
    );
    expect(split.deff).toBe(1);
    expect(split.ci).toEqual(wilsonInterval(6, 10));
    const width = (c: [number, number] | null) => c![1] - c![0];
    expect(width(together.ci)).toBeGreaterThan(width(split.ci));
  });
});

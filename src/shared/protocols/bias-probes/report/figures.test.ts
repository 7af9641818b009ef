// Issue 20 item 8: the bias profile's axis ran from −0.5 to 0.5 at ECharts' own 0.2 step (ticks
// −0.5, −0.4, …, 0.4, 0.5) and its zero line printed a second "0". The axis is now symmetric on a
// step that divides its bounds, and the zero line carries no label.
import type { EChartsOption } from 'echarts';
import { describe, expect, it } from 'vitest';
import { symmetricAxisBounds } from '../../../report/chart-kit';
import type { BiasMetrics, ProbeRow } from '../types';
import { biasProfileFigure } from './figures';

const row = (
  effect: ProbeRow['effect'],
  mean: number,
  ci: [number, number],
  significant: boolean,
): ProbeRow => ({
  judge: 'J',
  category: 'all',
  probe: effect as ProbeRow['probe'],
  effect,
  n: 20,
  items: 20,
  mean,
  mean_ci: ci,
  sd: 1,
  dz: mean,
  p: significant ? 0.001 : 0.5,
  p_method: 'exact',
  p_holm: significant ? 0.003 : 0.5,
  significant,
});

const metrics = (probes: ProbeRow[]) =>
  ({ mode: 'pointwise', scale: 5, probes, scatter: [] }) as unknown as BiasMetrics;

describe('bias profile axis', () => {
  it('has nice symmetric bounds that the step divides', () => {
    expect(symmetricAxisBounds(0.2)).toEqual({ min: -0.5, max: 0.5, interval: 0.25 });
    expect(symmetricAxisBounds(0.5)).toEqual({ min: -0.5, max: 0.5, interval: 0.25 });
    expect(symmetricAxisBounds(0.7)).toEqual({ min: -1, max: 1, interval: 0.5 });
    expect(symmetricAxisBounds(1.3)).toEqual({ min: -2, max: 2, interval: 1 });
    expect(symmetricAxisBounds(3.2)).toEqual({ min: -4, max: 4, interval: 2 });
    expect(symmetricAxisBounds(Number.NaN)).toEqual({ min: -0.5, max: 0.5, interval: 0.25 });
    for (const reach of [0.05, 0.31, 0.9, 2.2, 7, 13]) {
      const a = symmetricAxisBounds(reach);
      expect(a.max).toBeGreaterThanOrEqual(reach);
      const ticks = a.max / a.interval;
      expect(Math.abs(ticks - Math.round(ticks))).toBeLessThan(1e-9);
      expect(Math.round(ticks)).toBeGreaterThanOrEqual(2);
      expect(Math.round(ticks)).toBeLessThanOrEqual(4);
    }
  });

  it('reaches every interval of the issue’s profile, with one zero label', () => {
    const f = biasProfileFigure(
      metrics([
        row('longer', 0.7, [0.45, 0.95], true),
        row('markdown', 0.4, [0.1, 0.7], true),
        row('position', 0.05, [-0.2, 0.3], false),
      ]),
    );
    const x = f.option.xAxis as { min: number; max: number; interval: number };
    expect(x).toMatchObject({ min: -1, max: 1, interval: 0.5 });
    const series = f.option.series as NonNullable<EChartsOption['series']> &
      { markLine?: { label?: { show?: boolean } } }[];
    const zero = series.find((s) => s.markLine)!;
    expect(zero.markLine!.label).toEqual({ show: false });
  });

  it('draws the noise floor’s placebo on the same axis, after the judge’s effects', () => {
    const m = {
      ...metrics([row('longer', 0.7, [0.45, 0.95], true), row('markdown', 0.1, [-0.1, 0.3], false)]),
      noise_floor: {
        placebo: [
          {
            judge: 'J',
            category: 'all',
            repeated: 'original',
            n: 20,
            changed: 6,
            mean: -0.2,
            mean_ci: [-1.3, 0.9],
          },
          { judge: 'J', category: 'c', repeated: 'original', n: 5, changed: 1, mean: 0, mean_ci: null },
        ],
        excess: [],
      },
    } as unknown as BiasMetrics;
    const f = biasProfileFigure(m, 'P', 'J', (r) => r.effect);
    expect((f.option.yAxis as { data: string[] }).data).toEqual([
      'longer',
      'markdown',
      'Repeat − first (placebo)',
    ]);
    // The placebo's interval widens the shared axis.
    expect(f.option.xAxis).toMatchObject({ min: -2, max: 2 });
    const series = f.option.series as { name: string; data: number[][] }[];
    expect(series.find((s) => s.name === 'Placebo (repeat)')!.data).toEqual([[-0.2, 2]]);
    expect(series.find((s) => s.name === '95% CI')!.data[2]).toEqual([2, -1.3, 0.9]);
    // Without the option the series are as before.
    expect(
      (biasProfileFigure(metrics([row('longer', 0.7, [0.45, 0.95], true)])).option.series as unknown[])
        .length,
    ).toBe(3);
  });
});

// The length scatter's fit line is drawn only where it lies within the score axis, so the figure
// needs no clip-path (resvg draws a clipped element on a canvas of its own: issue 39's export peak).
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../../../src/main/report/figures';
import { lengthScatterFigure, segmentWithin } from '../../../src/shared/protocols/bias-probes/report/figures';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';

describe('segmentWithin', () => {
  it('keeps a line that stays inside the range whole', () => {
    expect(segmentWithin({ a: 0.5, b: 0.001 }, [-100, 100], [0, 1])).toEqual([
      [-100, 0.4],
      [100, 0.6],
    ]);
  });

  it('cuts a steep line where it leaves the range, on either side and for either sign of slope', () => {
    // y = 0.5 + 0.01x reaches 0 at x = -50 and 1 at x = 50.
    expect(segmentWithin({ a: 0.5, b: 0.01 }, [-200, 200], [0, 1])).toEqual([
      [-50, 0],
      [50, 1],
    ]);
    expect(segmentWithin({ a: 0.5, b: -0.01 }, [-200, 200], [0, 1])).toEqual([
      [-50, 1],
      [50, 0],
    ]);
    // Cut on one side only.
    expect(segmentWithin({ a: 0.5, b: 0.01 }, [0, 200], [0, 1])).toEqual([
      [0, 0.5],
      [50, 1],
    ]);
  });

  it('draws nothing of a line wholly outside the range', () => {
    expect(segmentWithin({ a: 2, b: 0 }, [0, 10], [0, 1])).toBeNull();
    expect(segmentWithin({ a: 5, b: 0.1 }, [0, 10], [1, 5])).toEqual([
      [0, 5],
      [0, 5],
    ]);
    expect(segmentWithin({ a: 6, b: 0.1 }, [0, 10], [1, 5])).toBeNull();
    expect(segmentWithin({ a: -1, b: -0.1 }, [0, 10], [0, 1])).toBeNull();
  });

  it('keeps a flat line inside the range whole', () => {
    expect(segmentWithin({ a: 3, b: 0 }, [0, 10], [1, 5])).toEqual([
      [0, 3],
      [10, 3],
    ]);
  });
});

describe('lengthScatterFigure', () => {
  const metrics = (mode: 'pairwise' | 'pointwise', points: [number, number][]) =>
    ({
      mode,
      scale: 10,
      scatter: points.map(([tokens, score]) => ({ judge: 'j', item_id: 'i', tokens, score })),
    }) as unknown as BiasMetrics;
  // The fit line is the scatter's mark line, as its two ends.
  const line = (m: BiasMetrics) => {
    const series = lengthScatterFigure(m)?.option.series as {
      type: string;
      markLine?: { data: [{ coord: number[] }, { coord: number[] }][] };
    }[];
    expect(series.map((s) => s.type)).toEqual(['scatter']);
    const [[from, to]] = series[0].markLine?.data ?? [[]];
    return from && to ? { data: [from.coord, to.coord] } : undefined;
  };

  // Win scores jump from 0 to 1 around a length difference of 0: the least-squares line is steep.
  const steep = () =>
    metrics('pairwise', [
      [-300, 0],
      [-10, 0],
      [10, 1],
      [300, 1],
    ]);

  it('draws a pairwise fit line that would leave [0, 1] only inside it, unclipped', () => {
    const l = line(steep());
    for (const [, y] of l?.data ?? []) expect(y >= 0 && y <= 1).toBe(true);
    expect(l?.data[0][1]).toBe(0);
    expect(l?.data[1][1]).toBe(1);
  });

  it('keeps a pointwise fit line inside [1, scale]', () => {
    const l = line(
      metrics('pointwise', [
        [100, 2],
        [400, 5],
        [800, 9],
      ]),
    );
    for (const [, y] of l?.data ?? []) expect(y >= 1 && y <= 10).toBe(true);
    expect(l?.data[0][0]).toBe(0);
  });

  it('is drawn with its fit line and without a clip-path', () => {
    const svg = renderSvg(lengthScatterFigure(steep())!);
    // The line: one straight segment, 2 px wide, in the judge's colour.
    expect(svg).toMatch(
      /<path d="M[\d.]+ [\d.]+L[\d.]+ [\d.]+" fill="none"[^>]*stroke="#[0-9A-Fa-f]{6}" stroke-width="2"/,
    );
    expect(svg).not.toContain('clip-path');
  });
});

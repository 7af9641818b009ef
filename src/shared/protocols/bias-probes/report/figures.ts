// Bias-probes figures: the bias profile (a forest plot on one axis for every judge and probe),
// histograms of paired differences, and length against score with a least-squares trend.
import type { CustomSeriesOption, CustomSeriesRenderItem, EChartsOption, ScatterSeriesOption } from 'echarts';
import {
  axisText,
  baseOption,
  FONT_FAMILY,
  labelWidth,
  wrappedLines,
  OKABE_ITO,
  SERIES_COLORS,
  symmetricAxisBounds,
  TEXT,
  valueAxis,
  whisker,
  type FigureSpec,
} from '../../../report/chart-kit';
import { ALL, type BiasMetrics, type ProbeRow } from '../types';
import { effectLabel, placeboLabel } from './tables';
import { allEffects } from '../probe-registry';

/** A whisker as a legend icon: a thin bar with end caps (ECharts fills the path). */
const WHISKER_ICON = 'path://M0,0h2v10h-2zM2,4h20v2h-20zM22,0h2v10h-2z';

/** Line height of a wrapped row label, px (12 px text). */
const LABEL_LINE = 15;

const PALETTE = SERIES_COLORS;

export const judgesOf = (m: BiasMetrics) => [
  ...new Set([...m.probes.map((r) => r.judge), ...m.scatter.map((p) => p.judge)]),
];

/** The rows of the profile: category "all", one per judge × effect. */
export function profileRows(m: BiasMetrics): ProbeRow[] {
  return m.probes.filter((r) => r.category === ALL);
}

/**
 * A forest plot of the probes' effects. With `judge`, only that judge's rows, on the axis all
 * judges share (so profiles side by side compare at a glance).
 */
export function biasProfileFigure(
  m: BiasMetrics,
  title = 'Bias profile: effect of each probe (95% CI)',
  judge?: string,
  label: (r: ProbeRow) => string = (r) => `${r.judge} · ${effectLabel(r.effect, m.mode)}`,
): FigureSpec {
  // With the noise floor, each judge's placebo (its repeat − first) on the same axis, after its
  // effects, so a reader sees at once whether an effect clears it.
  const placebo = (m.noise_floor?.placebo ?? []).filter((z) => z.category === ALL);
  const entry = (r: ProbeRow) => ({
    label: label(r),
    mean: r.mean,
    lo: r.mean_ci?.[0] ?? r.mean,
    hi: r.mean_ci?.[1] ?? r.mean,
    kind: r.significant ? ('sig' as const) : ('ns' as const),
  });
  const entries = (js: readonly string[]) =>
    js.flatMap((j) => [
      ...profileRows(m)
        .filter((r) => r.judge === j)
        .map(entry),
      ...placebo
        .filter((z) => z.judge === j)
        .map((z) => ({
          label: judge === undefined ? `${z.judge} · ${placeboLabel(z.repeated)}` : placeboLabel(z.repeated),
          mean: z.mean,
          lo: z.mean_ci?.[0] ?? z.mean,
          hi: z.mean_ci?.[1] ?? z.mean,
          kind: 'placebo' as const,
        })),
    ]);
  const judges = [...new Set([...profileRows(m).map((r) => r.judge), ...placebo.map((z) => z.judge)])];
  const every = entries(judges);
  const rows = judge === undefined ? every : entries([judge]);
  const labels = rows.map((r) => r.label);
  const lows = rows.map((r) => r.lo);
  const highs = rows.map((r) => r.hi);
  // One axis for every judge's profile, so profiles side by side compare at a glance.
  const reach = Math.max(0, ...every.map((r) => Math.abs(r.lo)), ...every.map((r) => Math.abs(r.hi)));
  const axis = symmetricAxisBounds(reach);
  // Room for the longest row label and no more: the plot gets the rest of a narrow card. A longer
  // label wraps (cut with "…", "Worse response as Markdown" lost what tells its rows apart), and
  // every row is as tall as the longest label's lines.
  const left = Math.min(250, 24 + labelWidth(labels));
  const lines = Math.max(1, ...labels.map((l) => wrappedLines(l, left - 20)));
  const rowHeight = Math.max(34, lines * LABEL_LINE + 10);
  const renderItem: CustomSeriesRenderItem = (_params, api) => {
    const lo = api.coord([api.value(1) as number, api.value(0) as number]);
    const hi = api.coord([api.value(2) as number, api.value(0) as number]);
    return whisker(lo, hi, 'x', 5, { stroke: TEXT, lineWidth: 1.4 });
  };
  const series: (CustomSeriesOption | ScatterSeriesOption)[] = [
    {
      name: '95% CI',
      type: 'custom',
      // The whiskers' own colour, and a thin bar as its legend icon: the palette's default made
      // the legend show a blue box for black whiskers.
      itemStyle: { color: TEXT },
      renderItem,
      encode: { x: [1, 2], y: 0 },
      data: rows.map((_r, i) => [i, lows[i], highs[i]]),
      silent: true,
      z: 5,
    },
    {
      name: 'Holm p < 0.05',
      type: 'scatter',
      symbolSize: 12,
      itemStyle: { color: OKABE_ITO.vermillion },
      data: rows.flatMap((r, i) => (r.kind === 'sig' ? [[r.mean, i]] : [])),
      z: 10,
      markLine: {
        silent: true,
        symbol: 'none',
        // The axis already labels 0; the line's own label printed a second "0" on it.
        label: { show: false },
        lineStyle: { color: '#888', type: 'dashed' },
        data: [{ xAxis: 0 }],
      },
    },
    {
      name: 'Not significant',
      type: 'scatter',
      symbolSize: 11,
      itemStyle: { color: '#ffffff', borderColor: OKABE_ITO.blue, borderWidth: 2 },
      data: rows.flatMap((r, i) => (r.kind === 'ns' ? [[r.mean, i]] : [])),
      z: 10,
    },
    ...(placebo.length
      ? [
          {
            name: 'Placebo (repeat)',
            type: 'scatter' as const,
            symbol: 'diamond',
            symbolSize: 12,
            itemStyle: { color: '#8a8a8a' },
            data: rows.flatMap((r, i) => (r.kind === 'placebo' ? [[r.mean, i]] : [])),
            z: 10,
          },
        ]
      : []),
  ];
  const base = baseOption(title);
  const option: EChartsOption = {
    ...base,
    tooltip: { trigger: 'item' },
    // The CI's entry drawn as a whisker (a custom series has no legend symbol of its own).
    legend: {
      ...(base.legend as object),
      data: series.map((x) =>
        x.type === 'custom' ? { name: String(x.name), icon: WHISKER_ICON } : String(x.name),
      ),
    },
    grid: { left, right: 40, top: 56, bottom: 80 },
    yAxis: {
      type: 'category',
      data: labels,
      inverse: true,
      axisLabel: { ...axisText, width: left - 20, overflow: 'break', lineHeight: LABEL_LINE },
    },
    xAxis: {
      ...valueAxis(
        m.mode === 'pairwise'
          ? 'Change in win score of the worse response'
          : `Score difference (1–${m.scale} scale)`,
        axis.min,
        axis.max,
      ),
      interval: axis.interval,
      nameGap: 30,
    },
    series,
  };
  return {
    id: 'bias_profile',
    title,
    width: 820,
    height: Math.max(260, 120 + rows.length * rowHeight),
    option,
  };
}

/** Counts of each paired difference, one bar series per judge. */
export function differenceFigure(
  m: BiasMetrics,
  effect: ProbeRow['effect'],
  title = `Paired differences: ${effectLabel(effect, m.mode)}`,
): FigureSpec | null {
  const series = m.differences.filter((d) => d.effect === effect);
  if (!series.length) return null;
  const values = [...new Set(series.flatMap((s) => s.diffs))].sort((a, b) => a - b);
  return {
    id: `differences_${effect}`,
    title,
    width: Math.max(560, 160 + values.length * 60),
    height: 380,
    option: {
      ...baseOption(title),
      grid: { left: 72, right: 24, top: 56, bottom: 96 },
      xAxis: {
        type: 'category',
        data: values.map((v) => (Number.isInteger(v) ? String(v) : v.toFixed(2))),
        name: 'Difference',
        nameLocation: 'middle',
        nameGap: 30,
        nameTextStyle: { ...axisText, fontWeight: 'bold' },
        axisLabel: axisText,
      },
      yAxis: valueAxis('Pairs'),
      series: series.map((s, i) => ({
        name: s.judge,
        type: 'bar',
        itemStyle: { color: PALETTE[i % PALETTE.length] },
        data: values.map((v) => s.diffs.filter((d) => d === v).length),
      })),
    },
  };
}

/** Least-squares line y = a + b·x, or null without spread in x. */
export function trend(points: readonly { x: number; y: number }[]): { a: number; b: number } | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  if (sxx === 0) return null;
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

/**
 * The part of the line y = a + b·x over [x0, x1] that lies within [yLo, yHi], as its two ends, or
 * null if none of it does. The fit line is drawn only there, as the scatter's mark line, which
 * ECharts draws without a clip-path: a line series writes one even with `clip: false`, and resvg
 * draws a clipped group on a figure-sized layer with a figure-sized mask beside it (2 × 13 MiB
 * for a moment at 300 dpi, the position study's export peak; issue 39).
 */
export function segmentWithin(
  t: { a: number; b: number },
  [x0, x1]: readonly [number, number],
  [yLo, yHi]: readonly [number, number],
): [[number, number], [number, number]] | null {
  const end = (x: number): [number, number] => [x, t.a + t.b * x];
  if (t.b === 0) return t.a < yLo || t.a > yHi ? null : [end(x0), end(x1)];
  // Where the line meets each bound; an end cut there lies on it exactly (no rounding past an axis).
  const cuts: [number, number][] = [
    [(yLo - t.a) / t.b, yLo],
    [(yHi - t.a) / t.b, yHi],
  ];
  cuts.sort((p, q) => p[0] - q[0]);
  const [first, last] = cuts;
  const from: [number, number] = first[0] > x0 ? first : end(x0);
  const to: [number, number] = last[0] < x1 ? last : end(x1);
  return from[0] <= to[0] ? [from, to] : null;
}

export function lengthScatterFigure(
  m: BiasMetrics,
  title = 'Length and score of the original responses',
): FigureSpec | null {
  if (!m.scatter.length) return null;
  const judges = [...new Set(m.scatter.map((p) => p.judge))];
  const maxX = Math.max(...m.scatter.map((p) => p.tokens));
  const pairwise = m.mode === 'pairwise';
  const minX = pairwise ? Math.min(...m.scatter.map((p) => p.tokens)) : 0;
  const yRange: [number, number] = pairwise ? [0, 1] : [1, m.scale];
  return {
    id: 'length_scatter',
    title,
    width: 760,
    height: 460,
    option: {
      ...baseOption(title),
      tooltip: { trigger: 'item' },
      textStyle: { fontFamily: FONT_FAMILY, color: TEXT },
      grid: { left: 72, right: 32, top: 56, bottom: 96 },
      xAxis: {
        ...(pairwise
          ? valueAxis('Length difference, output_1 − output_2 (tokens)')
          : valueAxis('Length (tokens)', 0)),
        nameGap: 30,
      },
      yAxis: valueAxis(pairwise ? 'Win score of output_1' : 'Score', ...yRange),
      series: judges.flatMap((judge, i) => {
        const pts = m.scatter.filter((p) => p.judge === judge);
        const t = trend(pts.map((p) => ({ x: p.tokens, y: p.score })));
        const line = t && segmentWithin(t, [minX, maxX], yRange);
        const color = PALETTE[i % PALETTE.length];
        return [
          {
            name: judge,
            type: 'scatter' as const,
            symbolSize: 6,
            itemStyle: { color, opacity: 0.6 },
            data: pts.map((p) => [p.tokens, p.score]),
            ...(line
              ? {
                  markLine: {
                    silent: true,
                    symbol: 'none',
                    label: { show: false },
                    lineStyle: { color, width: 2, type: 'solid' as const, opacity: 1 },
                    data: [[{ coord: line[0] }, { coord: line[1] }]],
                  },
                }
              : {}),
          },
        ];
      }),
    },
  };
}

export function buildBiasFigures(m: BiasMetrics): FigureSpec[] {
  const figures: FigureSpec[] = [];
  if (profileRows(m).length) figures.push(biasProfileFigure(m));
  for (const effect of allEffects().map((e) => e.effect.id)) {
    const f = differenceFigure(m, effect);
    if (f) figures.push(f);
  }
  const scatter = lengthScatterFigure(m);
  if (scatter) figures.push(scatter);
  return figures;
}

// A chart kit on ECharts options: the house style (colour-blind-safe palette, fonts, axes, bars
// with 95% CI whiskers). No Node or DOM imports: the dashboard draws these options in the app and
// src/main/report/figures.ts renders the same ones to SVG/PNG. Protocols build figures with it.
import type { BarSeriesOption, CustomSeriesOption, CustomSeriesRenderItem, EChartsOption } from 'echarts';
import type { CI } from './format';

export interface FigureSpec {
  /** File stem: figures/<id>.svg and figures/<id>.png. */
  id: string;
  title: string;
  width: number;
  height: number;
  option: EChartsOption;
  /** Why part of the figure is empty, drawn under the title; absent when nothing is missing. */
  note?: string;
}

// Okabe–Ito: distinguishable with the common colour-vision deficiencies and in greyscale print.
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  black: '#000000',
  grey: '#BBBBBB',
} as const;

/** Arial-metric faces first (ECharts lays out text with Arial-like widths), then CJK faces for Chinese labels. */
export const FONT_FAMILY =
  'Arial, Liberation Sans, Helvetica, Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif';

/** Share of a category band that a group of bars fills; error bars use the same geometry. */
export const GROUP_WIDTH = 0.72;
export const TEXT = '#222222';

/** Colours of series in order (a judge, a temperature, a pair): the Okabe–Ito hues that stay apart for colour-blind readers. */
export const SERIES_COLORS: readonly string[] = [
  OKABE_ITO.blue,
  OKABE_ITO.vermillion,
  OKABE_ITO.green,
  OKABE_ITO.orange,
  OKABE_ITO.purple,
  OKABE_ITO.skyBlue,
];

/**
 * An interval drawn in pixels: the line from `low` to `high` and a cap of ±`cap` across each end
 * (an interval along y has horizontal caps, one along x vertical caps).
 */
export function whisker(
  low: number[],
  high: number[],
  along: 'x' | 'y',
  cap: number,
  ink: { stroke: string; lineWidth: number },
): ReturnType<CustomSeriesRenderItem> {
  const style = { ...ink, fill: 'none' };
  const across = (p: number[]) =>
    along === 'y'
      ? { x1: p[0] - cap, y1: p[1], x2: p[0] + cap, y2: p[1] }
      : { x1: p[0], y1: p[1] - cap, x2: p[0], y2: p[1] + cap };
  return {
    type: 'group',
    children: [
      { type: 'line', shape: { x1: low[0], y1: low[1], x2: high[0], y2: high[1] }, style },
      { type: 'line', shape: across(low), style },
      { type: 'line', shape: across(high), style },
    ],
  };
}

/**
 * A series of vertical 95% CI whiskers (data: [x, low, high]), quiet (no tooltip, no hover) and
 * drawn above the marks it belongs to; named like them so the legend toggles both.
 */
export function whiskerSeries(
  name: string,
  renderItem: CustomSeriesRenderItem,
  data: (number | null)[][],
): CustomSeriesOption {
  return {
    name,
    type: 'custom',
    renderItem,
    encode: { x: 0, y: [1, 2] },
    silent: true,
    z: 10,
    tooltip: { show: false },
    data,
  };
}

export const pct = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 1000) / 10 : null;

/** What every figure is drawn on: a still, white canvas in the figures' font and ink. */
export function figureCanvas(): Pick<EChartsOption, 'animation' | 'backgroundColor' | 'textStyle'> {
  return {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: FONT_FAMILY, color: TEXT },
  };
}

/** A figure's title, centred above the plot. */
export function figureTitle(text: string) {
  return {
    text,
    left: 'center',
    top: 8,
    textStyle: { fontSize: 15, fontWeight: 'bold', color: TEXT },
  } as const;
}

/** A bar or line figure's option: the canvas, its title, an axis tooltip and a legend below. */
export function baseOption(title: string): EChartsOption {
  return {
    ...figureCanvas(),
    title: figureTitle(title),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { bottom: 8, textStyle: { fontSize: 12, color: TEXT } },
  };
}

export const axisText = { color: TEXT, fontSize: 12 };

/** A heatmap's colour scale over 0–100 %, laid flat under the plot; a figure adds its colours. */
export const percentScale = {
  type: 'continuous' as const,
  min: 0,
  max: 100,
  orient: 'horizontal' as const,
  left: 'center',
  bottom: 8,
};

export function categoryAxis(judges: string[], name = 'Judge', labelWidth?: number) {
  return {
    type: 'category' as const,
    data: judges,
    name,
    nameLocation: 'middle' as const,
    nameGap: 32,
    nameTextStyle: { ...axisText, fontWeight: 'bold' as const },
    axisLabel: {
      ...axisText,
      interval: 0,
      width: labelWidth,
      overflow: labelWidth ? ('break' as const) : undefined,
    },
    axisTick: { alignWithLabel: true },
  };
}

export function valueAxis(name: string, min?: number, max?: number) {
  return {
    type: 'value' as const,
    name,
    nameLocation: 'middle' as const,
    nameGap: 44,
    nameTextStyle: { ...axisText, fontWeight: 'bold' as const },
    axisLabel: axisText,
    min,
    max,
    splitLine: { lineStyle: { color: '#e5e5e5' } },
  };
}

/** One bar series of a group of `groupSize` bars per category. */
export function groupedBar(
  name: string,
  color: string,
  values: (number | null)[],
  groupSize: number,
): BarSeriesOption {
  return {
    name,
    type: 'bar',
    data: values,
    itemStyle: { color },
    barWidth: `${((GROUP_WIDTH / groupSize) * 100).toFixed(2)}%`,
    barGap: '0%',
    // A 0 value still shows as a sliver, so it never looks like missing data (no bar).
    barMinHeight: 2,
  };
}

/**
 * 95% CI whiskers drawn over bar `index` of a group of `groupSize` (data: [category, low, high]
 * in percent). Named like its bar series so the legend toggles both together.
 */
export function errorBarSeries(
  name: string,
  index: number,
  groupSize: number,
  cis: ({ category: number; ci: CI } | null)[],
): CustomSeriesOption {
  const renderItem: CustomSeriesRenderItem = (_params, api) => {
    const category = api.value(0) as number;
    const band = api.size?.([1, 0]);
    const bandWidth = Array.isArray(band) ? band[0] : (band ?? 0);
    const slot = (GROUP_WIDTH / groupSize) * bandWidth;
    const offset = -(GROUP_WIDTH * bandWidth) / 2 + (index + 0.5) * slot;
    const low = api.coord([category, api.value(1) as number]);
    const high = api.coord([category, api.value(2) as number]);
    const x = low[0] + offset;
    const cap = Math.max(2, Math.min(7, slot * 0.25));
    return whisker([x, low[1]], [x, high[1]], 'y', cap, { stroke: TEXT, lineWidth: 1.2 });
  };
  return whiskerSeries(
    name,
    renderItem,
    cis
      .filter(
        (c): c is { category: number; ci: CI } =>
          c !== null && pct(c.ci[0]) !== null && pct(c.ci[1]) !== null,
      )
      .map((c) => [c.category, pct(c.ci[0]), pct(c.ci[1])]),
  );
}

export interface BarGroup {
  name: string;
  color: string;
  value: (judge: string) => number | null | undefined;
  ci?: (judge: string) => CI | null | undefined;
}

export function barsWithErrors(
  judges: string[],
  groups: BarGroup[],
): (BarSeriesOption | CustomSeriesOption)[] {
  const bars = groups.map((g) =>
    groupedBar(
      g.name,
      g.color,
      judges.map((j) => pct(g.value(j))),
      groups.length,
    ),
  );
  const whiskers = groups.flatMap((g, i) =>
    g.ci
      ? [
          errorBarSeries(
            g.name,
            i,
            groups.length,
            judges.map((j, category) => {
              const ci = g.ci!(j);
              return ci && pct(g.value(j)) !== null ? { category, ci } : null;
            }),
          ),
        ]
      : [],
  );
  return [...bars, ...whiskers];
}

export const barGrid = { left: 72, right: 24, top: 56, bottom: 96 };
export const barWidth = (judges: number, perJudge: number) => Math.max(560, 120 + judges * perJudge);

/**
 * Bars with 95% whiskers, one group of bars per category (a judge, a judge and language) along the
 * x axis, in the house layout: most studies' bar figures are this with their own axis names.
 */
export function errorBarFigure(f: {
  id: string;
  title: string;
  categories: string[];
  width: number;
  /** The x axis's name, and the width its labels wrap at (none: they do not wrap). */
  xName: string;
  xLabelWidth?: number;
  yAxis: ReturnType<typeof valueAxis>;
  groups: BarGroup[];
}): FigureSpec {
  return {
    id: f.id,
    title: f.title,
    width: f.width,
    height: 420,
    option: {
      ...baseOption(f.title),
      grid: barGrid,
      xAxis: categoryAxis(f.categories, f.xName, f.xLabelWidth),
      yAxis: f.yAxis,
      series: barsWithErrors(f.categories, f.groups),
    },
  };
}

/**
 * A value axis centred on 0 that reaches at least `reach` (and at least `least`) with 2–3 ticks a
 * side on a 1–2–2.5–5 step. Bounds are whole multiples of the step, so ECharts adds no tick of
 * its own at the ends (an axis from −0.5 with a 0.2 step printed −0.5 and −0.4 side by side).
 */
export function symmetricAxisBounds(
  reach: number,
  least = 0.5,
): { min: number; max: number; interval: number } {
  const r = Math.max(least, Number.isFinite(reach) ? Math.abs(reach) : 0);
  const raw = r / 2;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * magnitude).find((s) => s >= raw - 1e-12)!;
  // Rounded to the step's own precision, so 0.1 × 3 is 0.3 and not 0.30000000000000004.
  const digits = Math.max(0, 2 - Math.floor(Math.log10(step)));
  const max = Number((Math.ceil(r / step - 1e-9) * step).toFixed(digits));
  return { min: -max, max, interval: Number(step.toFixed(digits)) };
}

const WIDE = /[\u2e80-\u9fff\uff00-\uffef]/;
const textWidth = (text: string, fontSize: number) => {
  let w = 0;
  for (const ch of text) w += WIDE.test(ch) ? fontSize : fontSize * 0.6;
  return w;
};

/** Pixels a category label needs at `axisText`'s size (CJK characters about twice a Latin one). */
export function labelWidth(labels: readonly string[], fontSize = axisText.fontSize): number {
  return Math.ceil(Math.max(0, ...labels.map((l) => textWidth(l, fontSize))));
}

/**
 * Lines a label takes wrapped into `width` pixels as ECharts' `overflow: 'break'` wraps it: at
 * spaces, and between CJK characters; a word wider than the line is cut where it overflows.
 */
export function wrappedLines(label: string, width: number, fontSize = axisText.fontSize): number {
  // Words with their following space; each CJK character is a word of its own.
  const words = label.match(/[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*|\s+/g) ?? [];
  let lines = 1;
  let used = 0;
  for (const word of words) {
    const w = textWidth(word.trimEnd(), fontSize);
    if (used > 0 && used + w > width) {
      lines++;
      used = 0;
    }
    used += textWidth(word, fontSize);
    while (used > width) {
      lines++;
      used -= width;
    }
  }
  return lines;
}

// The Judge-LS figures of DESIGN.md section 8, built with the shared chart kit. No Node imports:
// the dashboard draws the very same options, and src/main/report/figures.ts renders them.
import type { BarSeriesOption, HeatmapSeriesOption, TitleComponentOption } from 'echarts';
import type { Comparison, JudgeLsMetrics, Language } from '../types';
import { withFigureNote } from './figure-notes';
import { doseResponseFigure } from './dose-response';
import { toFixedText } from '../../../report/format';
import { judgeOrder, tieProbeLanguages } from './tables';
import { tieProbeTarget } from '../types';
import {
  axisText,
  barGrid,
  barsWithErrors,
  barWidth,
  baseOption,
  errorBarFigure,
  errorBarSeries,
  categoryAxis,
  figureCanvas,
  groupedBar,
  OKABE_ITO,
  pct,
  TEXT,
  valueAxis,
  type BarGroup,
  type FigureSpec,
} from '../../../report/chart-kit';

export type { FigureSpec };

export type FigureBuilder = (metrics: JudgeLsMetrics) => FigureSpec;

export const LANGUAGE_COLORS: Record<Language, string> = {
  EN: OKABE_ITO.blue,
  ZH: OKABE_ITO.orange,
  LS: OKABE_ITO.green,
};

const LANGUAGES: Language[] = ['EN', 'ZH', 'LS'];
// Other targets (issue 37) take the rest of the Okabe-Ito palette, in the order they appear.
const MORE_COLORS = [
  OKABE_ITO.vermillion,
  OKABE_ITO.skyBlue,
  OKABE_ITO.purple,
  OKABE_ITO.yellow,
  OKABE_ITO.black,
];

/** EN, ZH, LS, then the other targets the quality rows hold; a study of ZH and LS draws as before. */
function languagesIn(metrics: JudgeLsMetrics): Language[] {
  const more = [...new Set(metrics.quality.map((r) => r.language))].filter((l) => !LANGUAGES.includes(l));
  return [...LANGUAGES, ...more];
}

function colorOf(metrics: JudgeLsMetrics, l: Language): string {
  const known = (LANGUAGE_COLORS as Record<string, string | undefined>)[l];
  if (known) return known;
  const i = languagesIn(metrics).indexOf(l) - LANGUAGES.length;
  return MORE_COLORS[i % MORE_COLORS.length];
}
const COMPARISONS: Comparison[] = ['EN-ZH', 'EN-LS'];

/** ZH, LS, then the other targets (issue 37): a study of ZH and LS draws as before. */
function targetsIn(metrics: JudgeLsMetrics): Language[] {
  return languagesIn(metrics).filter((l) => l !== 'EN');
}

/** EN-ZH, EN-LS, then the study's other comparisons in its rows' order. */
function comparisonsIn(metrics: JudgeLsMetrics): Comparison[] {
  const more = [...new Set(metrics.language_invariance.map((r) => r.comparison))].filter(
    (c) => !COMPARISONS.includes(c),
  );
  return [...COMPARISONS, ...more];
}

/** A lighter tint of a #rrggbb colour (the correctness flip beside its language's flip). */
function tint(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, 0.55)`;
}

export type AccuracyMetric = 'accuracy_strict' | 'accuracy_tie_half';

export function accuracyByLanguageFigure(
  metrics: JudgeLsMetrics,
  metric: AccuracyMetric = 'accuracy_strict',
): FigureSpec {
  const judges = judgeOrder(metrics);
  const row = (j: string, l: Language) => metrics.quality.find((r) => r.judge === j && r.language === l);
  const label = metric === 'accuracy_strict' ? 'strict' : 'tie-half';
  const title = `Judge accuracy by language (${label}, 95% CI)`;
  return errorBarFigure({
    id: metric === 'accuracy_strict' ? 'accuracy_by_language' : 'accuracy_by_language_tie_half',
    title,
    categories: judges,
    width: barWidth(judges.length, 210),
    xName: 'Judge',
    xLabelWidth: 190,
    yAxis: valueAxis('Accuracy (%)', 0, 100),
    groups: languagesIn(metrics).map((l) => ({
      name: l,
      color: colorOf(metrics, l),
      value: (j) => row(j, l)?.[metric],
      ci: (j) => row(j, l)?.[`${metric}_ci`],
    })),
  });
}

export function accuracyDropFigure(metrics: JudgeLsMetrics): FigureSpec {
  const judges = judgeOrder(metrics);
  // The change on the paired verdicts (same items and orders in both languages), with
  // Newcombe's paired 95% CI: the whisker says whether the drop is more than noise.
  const change = (j: string, l: Language) =>
    metrics.language_invariance.find((r) => r.judge === j && r.comparison === `EN-${l}`);
  const title = 'Accuracy change vs English (strict, points, 95% CI)';
  const targets = targetsIn(metrics);
  const bars: BarSeriesOption[] = targets.map((l) => ({
    ...groupedBar(
      `${l} − EN`,
      colorOf(metrics, l),
      judges.map(() => null),
      targets.length,
    ),
    data: judges.map((j) => {
      const value = pct(change(j, l)?.accuracy_change);
      if (value === null) return null;
      return { value, label: { position: value < 0 ? 'bottom' : 'top' } };
    }),
    label: { show: true, color: TEXT, fontSize: 11, formatter: (p) => toFixedText(Number(p.value), 1) },
  }));
  const whiskers = targets.map((l, i) =>
    errorBarSeries(
      `${l} − EN`,
      i,
      targets.length,
      judges.map((j, category) => {
        const r = change(j, l);
        return r?.accuracy_change_ci ? { category, ci: r.accuracy_change_ci } : null;
      }),
    ),
  );
  return {
    id: 'accuracy_drop',
    title,
    width: barWidth(judges.length, 160),
    height: 400,
    option: {
      ...baseOption(title),
      grid: barGrid,
      xAxis: { ...categoryAxis(judges, 'Judge', 150), axisLine: { onZero: false } },
      yAxis: {
        ...valueAxis('Accuracy − EN accuracy (points)'),
        // Room beyond the longest bar for its value label, and zero always in view.
        min: (v: { min: number }) => Math.floor(Math.min(0, v.min) - 1),
        max: (v: { max: number }) => Math.ceil(Math.max(0, v.max) + 1),
      },
      series: [
        ...bars.map((s, i): BarSeriesOption =>
          i === 0
            ? {
                ...s,
                markLine: {
                  silent: true,
                  symbol: 'none',
                  label: { show: false },
                  lineStyle: { color: TEXT, type: 'solid' as const, width: 1 },
                  data: [{ yAxis: 0 }],
                },
              }
            : s,
        ),
        ...whiskers,
      ],
    },
  };
}

export function flipRatesFigure(metrics: JudgeLsMetrics): FigureSpec {
  const judges = judgeOrder(metrics);
  const row = (j: string, c: Comparison) =>
    metrics.language_invariance.find((r) => r.judge === j && r.comparison === c);
  const colors: Record<Comparison, [string, string]> = {
    'EN-ZH': [OKABE_ITO.orange, OKABE_ITO.vermillion],
    'EN-LS': [OKABE_ITO.skyBlue, OKABE_ITO.blue],
  };
  // Other targets: their language's colour for flips, a tint of it for correctness flips.
  const colorsOf = (c: Comparison): [string, string] => {
    if (colors[c]) return colors[c];
    const base = colorOf(metrics, c.slice(3));
    return [base, tint(base)];
  };
  const comparisons = comparisonsIn(metrics);
  const groups: BarGroup[] = comparisons.flatMap((c) => [
    {
      name: `Flip ${c}`,
      color: colorsOf(c)[0],
      value: (j: string) => row(j, c)?.flip_rate,
      ci: (j: string) => row(j, c)?.flip_rate_ci,
    },
    {
      name: `Correctness flip ${c}`,
      color: colorsOf(c)[1],
      value: (j: string) => row(j, c)?.correctness_flip_rate,
      ci: (j: string) => row(j, c)?.correctness_flip_rate_ci,
    },
  ]);
  // With the noise floor on, EN against its own repeat on the same axis: the bar a language's
  // flips must clear to be more than the judge's run-to-run noise.
  const repeat = (j: string) => metrics.noise_floor?.repeat.find((r) => r.judge === j);
  if (metrics.noise_floor)
    groups.push({
      name: 'Repeat flip EN-EN (noise floor)',
      color: OKABE_ITO.grey,
      value: (j: string) => repeat(j)?.flip_rate,
      ci: (j: string) => repeat(j)?.flip_rate_ci,
    });
  const title = 'Verdict flips between languages (95% CI)';
  return {
    id: 'flip_rates',
    title,
    // Wider per judge for each comparison beyond EN-ZH and EN-LS (same size for those two).
    width: barWidth(judges.length, (metrics.noise_floor ? 290 : 240) + 100 * (comparisons.length - 2)),
    height: 420,
    option: {
      ...baseOption(title),
      grid: barGrid,
      xAxis: categoryAxis(
        judges,
        'Judge',
        (metrics.noise_floor ? 270 : 220) + 100 * (comparisons.length - 2),
      ),
      yAxis: valueAxis('Pairs (%)', 0),
      series: barsWithErrors(judges, groups),
    },
  };
}

export function positionInconsistencyFigure(metrics: JudgeLsMetrics): FigureSpec {
  const judges = judgeOrder(metrics);
  const row = (j: string, l: Language) => metrics.position.find((r) => r.judge === j && r.language === l);
  return errorBarFigure({
    id: 'position_inconsistency',
    title: 'Position inconsistency by language (95% CI)',
    categories: judges,
    width: barWidth(judges.length, 210),
    xName: 'Judge',
    xLabelWidth: 190,
    yAxis: valueAxis('Items with order-dependent choice (%)', 0),
    groups: languagesIn(metrics).map((l) => ({
      name: l,
      color: colorOf(metrics, l),
      value: (j) => row(j, l)?.inconsistency_rate,
      ci: (j) => row(j, l)?.inconsistency_rate_ci,
    })),
  });
}

/**
 * One bar per judge (ZH only, as before issue 37), or per judge and probed language ("Judge · ar")
 * when the study probes other targets; each bar EN wins, ties and the translation's wins.
 */
export function tieProbePreferenceFigure(metrics: JudgeLsMetrics): FigureSpec {
  const { languages, perLanguage } = tieProbeLanguages(metrics);
  const bars = judgeOrder(metrics).flatMap((j) =>
    perLanguage
      ? languages.flatMap((l) => {
          const r = metrics.tie_probe.find((x) => x.judge === j && tieProbeTarget(x).language === l);
          return r ? [{ label: `${j} · ${l}`, row: r }] : [];
        })
      : metrics.tie_probe.filter((x) => x.judge === j).map((row) => ({ label: j, row })),
  );
  const judges = bars.map((b) => b.label);
  const parts = [
    { name: 'EN wins', color: LANGUAGE_COLORS.EN, value: (i: number) => bars[i].row.en_win_rate },
    { name: 'Tie', color: OKABE_ITO.grey, value: (i: number) => bars[i].row.tie_rate },
    {
      name: perLanguage ? 'Translation wins' : 'ZH wins',
      color: LANGUAGE_COLORS.ZH,
      value: (i: number) => tieProbeTarget(bars[i].row).rate,
    },
  ];
  const title = perLanguage
    ? `Tie probe: gold answer in English vs its translation (${languages.join(', ')})`
    : 'Tie probe: gold answer in English vs Chinese';
  // SSR has no font metrics, so the label column is sized from the longest label.
  const labelWidth = Math.min(260, 24 + 7.5 * Math.max(4, ...judges.map((j) => j.length)));
  const series: BarSeriesOption[] = parts.map((p) => ({
    name: p.name,
    type: 'bar',
    stack: 'probe',
    barWidth: '55%',
    itemStyle: { color: p.color, borderColor: '#ffffff', borderWidth: 1 },
    label: {
      show: true,
      color: TEXT,
      fontSize: 11,
      formatter: (v) => (Number(v.value) >= 6 ? Number(v.value).toFixed(1) : ''),
    },
    data: judges.map((_, i) => pct(p.value(i))),
  }));
  return {
    id: 'tie_probe_preference',
    title,
    width: 760,
    height: Math.max(280, 170 + judges.length * 56),
    option: {
      ...baseOption(title),
      grid: { left: labelWidth + 16, right: 32, top: 56, bottom: 100 },
      xAxis: { ...valueAxis('Probes (%)', 0, 100), nameGap: 30 },
      yAxis: {
        ...categoryAxis(judges, ''),
        inverse: true,
        nameGap: 0,
        axisLabel: { ...axisText, width: labelWidth, overflow: 'truncate' },
      },
      series,
    },
  };
}

// Sequential, perceptually uniform and colour-blind safe (viridis; a single-hue ramp for flips).
const VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];
const ORANGES = ['#fff5eb', '#fdd0a2', '#fd8d3c', '#d94801', '#7f2704'];

interface HeatmapInput {
  id: string;
  title: string;
  columns: string[];
  colors: string[];
  legend: string;
  max: number;
  cells: { judge: string; subset: string; column: string; value: number | null; n: number }[];
}

type HeatmapCell = HeatmapInput['cells'][number];

/** A heatmap cell per subset row; a row with no observations has no value (an empty cell). */
function subsetCells<R extends Pick<HeatmapCell, 'judge' | 'subset' | 'n'>>(
  rows: readonly R[],
  column: (r: R) => string,
  value: (r: R) => number | null,
): HeatmapCell[] {
  return rows.map((r) => ({
    judge: r.judge,
    subset: r.subset,
    column: column(r),
    value: r.n > 0 ? value(r) : null,
    n: r.n,
  }));
}

/** Relative luminance of a #rrggbb colour (WCAG), to pick a label colour that reads on it. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** White text on the dark end of a colour scale, dark text elsewhere. */
function labelColourOn(colors: string[], value: number, max: number): string {
  const i = Math.round((Math.min(max, Math.max(0, value)) / max) * (colors.length - 1));
  return luminance(colors[i]) < 0.2 ? '#ffffff' : TEXT;
}

/** One heatmap panel per judge, side by side, with one shared colour scale. */
function heatmapPanels(metrics: JudgeLsMetrics, input: HeatmapInput): FigureSpec {
  const judges = judgeOrder(metrics).filter((j) => input.cells.some((c) => c.judge === j));
  const subsets = [...new Set(input.cells.map((c) => c.subset))].sort();
  const labelWidth = 150;
  const cellWidth = 72;
  const panelWidth = input.columns.length * cellWidth;
  const panelStride = labelWidth + panelWidth + 24;
  // Room for a judge's title of up to three lines above its panel.
  const top = 100;
  // Two lines per cell: the value and its n.
  const cellHeight = 40;
  const gridHeight = Math.max(1, subsets.length) * cellHeight;
  const width = Math.max(420, 24 + judges.length * panelStride);
  const height = top + gridHeight + 120;
  const left = (i: number) => 24 + labelWidth + i * panelStride;
  const titles: TitleComponentOption[] = [
    {
      text: input.title,
      left: 'center',
      top: 8,
      textStyle: { fontSize: 15, fontWeight: 'bold', color: TEXT, width: width - 32, overflow: 'break' },
    },
    // A judge's title over its panel and row labels, broken into lines within them: a long label
    // (or one marked "Simulated — ") ran past the figure's edge and was cut (issue 38 item 6).
    ...judges.map((j, i): TitleComponentOption => ({
      text: j,
      left: left(i) - labelWidth / 2 + panelWidth / 2,
      top: 44,
      textAlign: 'center',
      textStyle: {
        fontSize: 13,
        fontWeight: 'bold',
        color: TEXT,
        width: labelWidth + panelWidth - 8,
        overflow: 'break',
        lineHeight: 16,
      },
    })),
  ];
  const series: HeatmapSeriesOption[] = judges.map((j, i) => ({
    name: j,
    type: 'heatmap',
    xAxisIndex: i,
    yAxisIndex: i,
    // The value, and under it how many items it rests on; the text colour follows the cell's,
    // so numbers stay readable on the dark end of the scale.
    label: {
      show: true,
      fontSize: 12,
      lineHeight: 14,
      formatter: (p) => {
        const [, , v, n] = p.value as (number | null)[];
        return v === null ? '–' : `${toFixedText(Number(v), 1)}\nn = ${n}`;
      },
    },
    itemStyle: { borderColor: '#ffffff', borderWidth: 1 },
    data: input.cells
      .filter((c) => c.judge === j && c.value !== null)
      .map((c) => ({
        value: [input.columns.indexOf(c.column), subsets.indexOf(c.subset), c.value, c.n],
        label: { color: labelColourOn(input.colors, c.value!, input.max) },
      })),
  }));
  return {
    id: input.id,
    title: input.title,
    width,
    height,
    option: {
      ...figureCanvas(),
      title: titles,
      tooltip: { position: 'top' },
      grid: judges.map((_, i) => ({ left: left(i), top, width: panelWidth, height: gridHeight })),
      xAxis: judges.map((_, i) => ({
        type: 'category',
        gridIndex: i,
        data: input.columns,
        axisLabel: axisText,
        splitArea: { show: false },
      })),
      yAxis: judges.map((_, i) => ({
        type: 'category',
        gridIndex: i,
        data: subsets,
        inverse: true,
        axisLabel: { ...axisText, width: labelWidth - 12, overflow: 'truncate' },
      })),
      visualMap: {
        type: 'continuous',
        min: 0,
        max: input.max,
        calculable: false,
        orient: 'horizontal',
        left: 'center',
        bottom: 12,
        itemWidth: 14,
        itemHeight: 200,
        text: [`${input.max}`, '0'],
        textStyle: axisText,
        inRange: { color: input.colors },
        // Colour by the value (the 3rd dimension), not by n (the last, ECharts' default).
        dimension: 2,
        seriesIndex: series.map((_, i) => i),
        // A template, not a function: the figure dictionaries translate strings, and a closure
        // would keep the English legend on the hover label in 中文.
        formatter: `${input.legend}: {value}`,
        precision: 0,
      },
      series,
    },
  };
}

export function subsetQualityHeatmapFigure(metrics: JudgeLsMetrics): FigureSpec {
  return heatmapPanels(metrics, {
    id: 'subset_quality_heatmap',
    title: 'Tie-half accuracy (%) by subset and language',
    columns: languagesIn(metrics),
    colors: VIRIDIS,
    legend: 'Accuracy (%)',
    max: 100,
    cells: subsetCells(
      metrics.subset_quality,
      (r) => r.language,
      (r) => pct(r.accuracy_tie_half),
    ),
  });
}

export function subsetFlipHeatmapFigure(metrics: JudgeLsMetrics): FigureSpec {
  const values = metrics.subset_flip.filter((r) => r.n > 0).map((r) => pct(r.flip_rate) ?? 0);
  // Flip rates are usually small: scale to the data (rounded up to 10) so differences stay visible.
  const max = Math.min(100, Math.max(10, Math.ceil(Math.max(0, ...values) / 10) * 10));
  return heatmapPanels(metrics, {
    id: 'subset_flip_heatmap',
    title: 'Flip rate (%) by subset and comparison',
    columns: comparisonsIn(metrics),
    colors: ORANGES,
    legend: 'Flip (%)',
    max,
    cells: subsetCells(
      metrics.subset_flip,
      (r) => r.comparison,
      (r) => pct(r.flip_rate),
    ),
  });
}

/** The figures of DESIGN.md section 8, in export order, each saying why it has gaps. */
const RAW_BUILDERS: readonly FigureBuilder[] = [
  (m) => accuracyByLanguageFigure(m, 'accuracy_strict'),
  (m) => accuracyByLanguageFigure(m, 'accuracy_tie_half'),
  accuracyDropFigure,
  flipRatesFigure,
  positionInconsistencyFigure,
  tieProbePreferenceFigure,
  subsetQualityHeatmapFigure,
  subsetFlipHeatmapFigure,
];

export const FIGURE_BUILDERS: readonly FigureBuilder[] = RAW_BUILDERS.map(
  (build) => (m: JudgeLsMetrics) => withFigureNote(build(m), m),
);

export function buildFigureSpecs(metrics: JudgeLsMetrics): FigureSpec[] {
  // The dose–response figure only with targets at a mixing ratio (issue 37).
  const dose = doseResponseFigure(metrics);
  return [...FIGURE_BUILDERS.map((build) => build(metrics)), ...(dose ? [dose] : [])];
}

// The dose–response tables and figure (issue 37): flips against English at each mixing ratio of a
// code-switched pair, and the trend over the measured ratio, per judge. Only with targets at a
// mixing ratio (`LS:<code>@<0–100>`); nothing otherwise.
import type {
  CustomSeriesOption,
  CustomSeriesRenderItem,
  LineSeriesOption,
  ScatterSeriesOption,
} from 'echarts';
import type { DoseTrendRow, JudgeLsMetrics } from '../types';
import { col, inJudgeOrder, intervalCell, type Table } from '../../../report/table';
import { countColumns, keyColumns, N_COLUMN, rateColumns } from '../../../report/columns';
import { formatP, undefinedText } from '../../../report/format';
import {
  baseOption,
  OKABE_ITO,
  pct,
  SERIES_COLORS,
  TEXT,
  valueAxis,
  whisker,
  whiskerSeries,
  type FigureSpec,
} from '../../../report/chart-kit';
import type { FigureDictionary } from '../../../report/figure-i18n';

const boot = (m: JudgeLsMetrics) => m.statistics.ci === 'cluster-bootstrap';

/** A p cell: the value, or why there is none. */
const pText = (p: number | null, reason: string | undefined) =>
  p === null ? undefinedText(reason ?? 'no test') : formatP(p);

export function doseResponseTables(metrics: JudgeLsMetrics, judges: string[]): Table[] {
  const d = metrics.dose_response;
  if (!d) return [];
  const b = boot(metrics);
  const interval = b ? 'item-clustered bootstrap' : 'Wilson';
  const levels: Table = {
    id: 'dose_response',
    title: 'Flips against English by mixing ratio',
    caption:
      `Each code-switched level against English on the same items and orders: the ratio asked for, the ` +
      `ratio measured on the texts judged (${d.measure}; mean, lowest and highest over the pairs), and the ` +
      `flip rate (%, ${interval} 95% CIs).`,
    columns: [
      ...keyColumns('judge'),
      col('target', 'Level', 'text'),
      col('asked', 'Asked', 'pct'),
      col('measured', 'Measured', 'pct'),
      col('measured_range', 'Measured range', 'ci'),
      N_COLUMN,
      col('flips', 'Flips', 'int'),
      ...rateColumns('flip_rate', 'Flip rate'),
    ],
    rows: inJudgeOrder(d.levels, judges).map((r) => ({
      judge: r.judge,
      target: r.target,
      asked: r.asked_ratio,
      measured: r.measured_ratio,
      measured_range: [r.measured_min, r.measured_max],
      n: r.n,
      flips: r.flips,
      flip_rate: r.flip_rate,
      flip_rate_ci: b
        ? intervalCell(r.flip_rate_ci_boot, r.flip_rate_ci_boot_undefined_reason)
        : r.flip_rate_ci,
    })),
  };
  const trend: Table = {
    id: 'dose_trend',
    title: 'Trend of flips over the measured mixing ratio',
    caption:
      `Per judge and code-switched pair, flips regressed on the measured ratio over every level: ` +
      `intercept = flip rate at ratio 0, slope = change in flip rate from ratio 0 to 1 (points). ` +
      `${b ? 'Item-clustered percentile bootstrap' : 'Cluster-robust (CR1, items) t'} 95% CI, clipped to ` +
      `[−100, 100]; p from the cluster-robust t test on items − 1 df (every item is judged at every ` +
      `ratio, so its pairs are one cluster), Holm across the table's rows (judge × pair).`,
    columns: [
      ...keyColumns('judge'),
      col('series', 'Pair', 'text'),
      ...countColumns({ levels: 'Levels', items: 'Items' }),
      N_COLUMN,
      col('intercept', 'Intercept', 'pct'),
      ...rateColumns('slope', 'Slope'),
      col('slope_p', 'p', 'text'),
      col('slope_p_holm', 'Holm p', 'text'),
    ],
    rows: inJudgeOrder(d.trend, judges).map((r: DoseTrendRow) => ({
      judge: r.judge,
      series: r.series,
      levels: r.levels,
      items: r.items,
      n: r.n,
      intercept: r.intercept,
      slope: r.slope === null ? undefinedText(r.slope_undefined_reason ?? 'no slope') : r.slope,
      slope_ci: b
        ? intervalCell(r.slope_ci_boot, r.slope_ci_boot_undefined_reason)
        : intervalCell(r.slope_ci, r.slope_ci_undefined_reason),
      slope_p: pText(r.slope_p, r.slope_p_undefined_reason),
      slope_p_holm: pText(r.slope_p_holm, r.slope_p_undefined_reason),
    })),
  };
  // A slope that does not exist is text in a 'pct' column: the column turns to text for it.
  if (trend.rows.some((r) => typeof r.slope === 'string'))
    trend.columns = trend.columns.map((c) => (c.key === 'slope' ? { ...c, kind: 'text' } : c));
  if (trend.rows.some((r) => typeof r.slope === 'string'))
    trend.rows = trend.rows.map((r) => ({
      ...r,
      slope: typeof r.slope === 'number' ? (r.slope * 100).toFixed(1) : r.slope,
    }));
  return [levels, trend];
}

const COLORS = [...SERIES_COLORS, OKABE_ITO.black];

/** Vertical 95% CI whiskers at a value x (data: [x, low, high] in percent). */
function whiskers(name: string, color: string, data: [number, number, number][]): CustomSeriesOption {
  const renderItem: CustomSeriesRenderItem = (_params, api) => {
    const low = api.coord([api.value(0) as number, api.value(1) as number]);
    const high = api.coord([api.value(0) as number, api.value(2) as number]);
    return whisker(low, high, 'y', 4, { stroke: color, lineWidth: 1.2 });
  };
  return whiskerSeries(name, renderItem, data);
}

/**
 * Flip rate against the measured mixing ratio: a point per level at its mean measured ratio with the
 * tables' 95% interval, and the fitted trend line, one colour per judge (and pair). Null without a
 * dose–response.
 */
export function doseResponseFigure(metrics: JudgeLsMetrics): FigureSpec | null {
  const d = metrics.dose_response;
  if (!d || d.levels.length === 0) return null;
  const b = boot(metrics);
  const groups = [...new Set(d.levels.map((l) => `${l.judge}\u0000${l.series}`))];
  const multiSeries = new Set(d.levels.map((l) => l.series)).size > 1;
  const series: (ScatterSeriesOption | LineSeriesOption | CustomSeriesOption)[] = [];
  groups.forEach((g, i) => {
    const [judge, pair] = g.split('\u0000');
    const name = multiSeries ? `${judge} (${pair})` : judge;
    const color = COLORS[i % COLORS.length];
    const levels = d.levels.filter((l) => l.judge === judge && l.series === pair);
    series.push({
      name,
      type: 'scatter',
      symbolSize: 9,
      itemStyle: { color },
      data: levels.map((l) => [pct(l.measured_ratio), pct(l.flip_rate), l.n]),
    });
    const cis = levels.flatMap((l): [number, number, number][] => {
      const ci = b ? l.flip_rate_ci_boot : l.flip_rate_ci;
      return ci ? [[pct(l.measured_ratio)!, pct(ci[0])!, pct(ci[1])!]] : [];
    });
    series.push(whiskers(name, color, cis));
    const t = d.trend.find((r) => r.judge === judge && r.series === pair);
    if (t && t.slope !== null && t.intercept !== null) {
      const xs = levels.map((l) => l.measured_ratio);
      const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
      series.push({
        name,
        type: 'line',
        showSymbol: false,
        silent: true,
        lineStyle: { color, width: 1.5, type: 'dashed' },
        itemStyle: { color },
        tooltip: { show: false },
        data: [lo, hi].map((x) => [pct(x), pct(t.intercept! + t.slope! * x)]),
      });
    }
  });
  const title = 'Flip rate against the measured mixing ratio (95% CI, dashed: linear trend)';
  const option = {
    ...baseOption(title),
    tooltip: { trigger: 'item' as const },
    grid: { left: 72, right: 32, top: 56, bottom: 96 },
    xAxis: {
      ...valueAxis('Measured mixing ratio (% content words in the second language)', 0, 100),
      nameGap: 30,
    },
    yAxis: valueAxis('Flips vs English (%)', 0),
    legend: { bottom: 8, textStyle: { fontSize: 12, color: TEXT } },
    series,
  };
  return { id: 'dose_response', title, width: 720, height: 460, option };
}

/** The figure's words in Chinese (merged into Judge-LS's figure dictionary). */
export const DOSE_RESPONSE_FIGURES_ZH: FigureDictionary = {
  exact: {
    'Flip rate against the measured mixing ratio (95% CI, dashed: linear trend)':
      '判断翻转率与实测混合比例（95% 置信区间，虚线：线性趋势）',
    'Measured mixing ratio (% content words in the second language)': '实测混合比例（第二语言实词占比，%）',
    'Flips vs English (%)': '相对英文的翻转（%）',
  },
  patterns: [],
};

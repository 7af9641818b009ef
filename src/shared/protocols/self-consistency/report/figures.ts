// Self-consistency figures: stability by judge and temperature (P(two repeats disagree) with its
// bootstrap CI), accuracy against the number of repeats voted, position consistency against k,
// and the histogram of per-question agreement.
import type { EChartsOption } from 'echarts';
import {
  axisText,
  barGrid,
  barsWithErrors,
  barWidth,
  baseOption,
  categoryAxis,
  pct,
  SERIES_COLORS,
  valueAxis,
  type FigureSpec,
} from '../../../report/chart-kit';
import { ALL, type SelfConsistencyMetrics } from '../types';
import { conditionLabel } from './tables';

const PALETTE = SERIES_COLORS;

const judgesOf = (m: SelfConsistencyMetrics) => [...new Set(m.stability.map((r) => r.judge))];
const seriesName = (m: SelfConsistencyMetrics, judge: string, condition: string) =>
  m.conditions.length > 1 ? `${judge} · ${conditionLabel(condition)}` : judge;

export function stabilityFigure(m: SelfConsistencyMetrics): FigureSpec | null {
  const rows = m.stability.filter((r) => r.category === ALL);
  if (!rows.length) return null;
  const judges = judgesOf(m);
  const title = 'Stability: P(two repeats disagree), 95% CI';
  const groups = m.conditions.map((c, i) => {
    const row = (j: string) => rows.find((r) => r.judge === j && r.condition === c.id);
    return {
      name: `Temperature: ${conditionLabel(c.id)}`,
      color: PALETTE[i % PALETTE.length],
      value: (j: string) => row(j)?.disagree_prob,
      ci: (j: string) => row(j)?.disagree_prob_ci,
    };
  });
  const missing = judges.filter((j) => !rows.some((r) => r.judge === j && r.disagree_prob !== null));
  const option: EChartsOption = {
    ...baseOption(title),
    grid: barGrid,
    xAxis: categoryAxis(judges),
    yAxis: valueAxis('P(disagree) (%)', 0),
    series: barsWithErrors(judges, groups),
  };
  return {
    id: 'stability',
    title,
    width: barWidth(judges.length, 70 * Math.max(1, groups.length)),
    height: 420,
    option,
    ...(missing.length
      ? { note: `No bar for ${missing.join(', ')}: fewer than two valid repeats of any question.` }
      : {}),
  };
}

function curveFigure(
  id: string,
  title: string,
  yName: string,
  rows: { judge: string; condition: string; k: number; value: number | null }[],
  m: SelfConsistencyMetrics,
): FigureSpec | null {
  if (!rows.length) return null;
  const ks = [...new Set(rows.map((r) => r.k))].sort((a, b) => a - b);
  const lines = [...new Set(rows.map((r) => `${r.judge}\u0000${r.condition}`))];
  const option: EChartsOption = {
    ...baseOption(title),
    grid: { left: 72, right: 32, top: 56, bottom: 110 },
    xAxis: {
      type: 'category',
      data: ks.map(String),
      name: 'Repeats voted (k)',
      nameLocation: 'middle',
      nameGap: 30,
      nameTextStyle: { ...axisText, fontWeight: 'bold' },
      axisLabel: axisText,
    },
    yAxis: { ...valueAxis(yName), scale: true },
    series: lines.map((line, i) => {
      const [judge, condition] = line.split('\u0000');
      return {
        name: seriesName(m, judge, condition),
        type: 'line' as const,
        symbolSize: 8,
        itemStyle: { color: PALETTE[i % PALETTE.length] },
        lineStyle: { color: PALETTE[i % PALETTE.length], width: 2 },
        data: ks.map((k) =>
          pct(rows.find((r) => r.judge === judge && r.condition === condition && r.k === k)?.value),
        ),
      };
    }),
  };
  return { id, title, width: 720, height: 440, option };
}

export function accuracyCurveFigure(m: SelfConsistencyMetrics): FigureSpec | null {
  return curveFigure(
    'accuracy_vs_k',
    'Accuracy of the majority of k repeats',
    'Accuracy (%)',
    // The curve pools the categories; their own rows are in the table.
    m.accuracy_by_k.filter((r) => r.category === ALL).map((r) => ({ ...r, value: r.accuracy })),
    m,
  );
}

export function positionCurveFigure(m: SelfConsistencyMetrics): FigureSpec | null {
  return curveFigure(
    'position_vs_k',
    'Position consistency with k repeats per order',
    'Consistent in both orders (%)',
    m.position_by_k.map((r) => ({ ...r, value: r.consistency })),
    m,
  );
}

export function agreementHistogramFigure(m: SelfConsistencyMetrics): FigureSpec | null {
  const bins = m.agreement_histogram;
  if (!bins.length) return null;
  const title = 'Per-question agreement among the repeats';
  const modals = Array.from({ length: m.repeats }, (_, i) => i + 1).filter((v) =>
    bins.some((b) => b.modal === v),
  );
  const lines = [...new Set(bins.map((b) => `${b.judge}\u0000${b.condition}`))];
  const option: EChartsOption = {
    ...baseOption(title),
    grid: { left: 72, right: 24, top: 56, bottom: 110 },
    xAxis: {
      type: 'category',
      data: modals.map((v) => `${v}/${m.repeats}`),
      name: 'Repeats giving the most frequent verdict',
      nameLocation: 'middle',
      nameGap: 30,
      nameTextStyle: { ...axisText, fontWeight: 'bold' },
      axisLabel: axisText,
    },
    yAxis: valueAxis('Questions', 0),
    series: lines.map((line, i) => {
      const [judge, condition] = line.split('\u0000');
      return {
        name: seriesName(m, judge, condition),
        type: 'bar' as const,
        barMinHeight: 2,
        itemStyle: { color: PALETTE[i % PALETTE.length] },
        data: modals.map(
          (v) =>
            bins.find((b) => b.judge === judge && b.condition === condition && b.modal === v)?.questions ?? 0,
        ),
      };
    }),
  };
  return {
    id: 'agreement_histogram',
    title,
    width: Math.max(560, 160 + modals.length * 90),
    height: 420,
    option,
  };
}

export function buildSelfConsistencyFigures(m: SelfConsistencyMetrics): FigureSpec[] {
  return [
    stabilityFigure(m),
    accuracyCurveFigure(m),
    positionCurveFigure(m),
    agreementHistogramFigure(m),
  ].filter((f): f is FigureSpec => f !== null);
}

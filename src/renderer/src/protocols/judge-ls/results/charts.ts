// Judge-LS's dashboard figures: the export's own ECharts options (src/shared/protocols/judge-ls/report/
// figures.ts), so the app shows exactly the exported figures, plus what only the app needs:
// tooltips with n and the 95% CI, and clicks that open the flips behind a bar or a cell.
import type { EChartsOption } from 'echarts';
import type {
  CI,
  Comparison,
  JudgeLsMetrics,
  Language,
} from '../../../../../shared/protocols/judge-ls/types';
import { buildFigureSpecs, type FigureSpec } from '../../../../../shared/protocols/judge-ls/report/figures';
import { COMPARISONS, LANGUAGES, TARGET_LANGUAGES } from '../../../../../shared/protocols/judge-ls/choice';
import { tieProbeTarget } from '../../../../../shared/protocols/judge-ls/types';
import { type ChartParams, formatCi, formatInt, formatP, formatPercent, formatPoints } from '../../host';
import { englishSeriesName } from '../../../../../shared/report/figure-i18n';
import { en } from '../i18n/en';

export type { ChartParams, FigureSpec };

/** What a click on a chart asks for: the flips of one judge and comparison (and subset). */
export interface FlipTarget {
  judge: string;
  comparison: Comparison;
  subset?: string;
  type?: 'correctness';
}

/** Words in tooltips, in the UI language. */
export interface TooltipLabels {
  points: string;
  flip: string;
  correctnessFlip: string;
  /** The noise floor's EN-EN line (EN against its own repeat). */
  repeatFlip: string;
  enWins: string;
  tie: string;
  zhWins: string;
  targetWins: string;
}

// The tooltips' words when a chart is not given the UI's: the English strings themselves.
export const ENGLISH_TOOLTIP_LABELS: TooltipLabels = en.tooltip;

export const CLICKABLE_FIGURES = new Set(['flip_rates', 'subset_flip_heatmap']);

const ciText = (v: number | null | undefined, ci: CI | null | undefined) =>
  `${formatPercent(v)} ${ci ? formatCi(ci) : ''}`.trim();
const nText = (n: number | null | undefined) => `n = ${formatInt(n)}`;
const pText = (p: number) => {
  const s = formatP(p);
  return s.startsWith('<') ? `p ${s}` : `p = ${s}`;
};

function axisData(option: EChartsOption, axis: 'xAxis' | 'yAxis', index: number): string[] {
  const a = option[axis];
  const one = (Array.isArray(a) ? a[index] : a) as { data?: unknown[] } | undefined;
  return (one?.data ?? []).map(String);
}

/** Heatmap cell → (judge, subset, column) via the option's own axes. */
function heatmapCell(spec: FigureSpec, p: ChartParams) {
  const v = p.value as [number, number, number | null] | undefined;
  if (!Array.isArray(v) || p.seriesIndex === undefined || !p.seriesName) return null;
  const column = axisData(spec.option, 'xAxis', p.seriesIndex)[v[0]];
  const subset = axisData(spec.option, 'yAxis', p.seriesIndex)[v[1]];
  if (column === undefined || subset === undefined) return null;
  return { judge: p.seriesName, subset, column };
}

/** The lines of a tooltip, as text: the judge (or cell) first, then one line per value with n and CI. */
export function tooltipLines(
  spec: FigureSpec,
  metrics: JudgeLsMetrics,
  params: ChartParams | ChartParams[],
  labels: TooltipLabels = ENGLISH_TOOLTIP_LABELS,
): string[] {
  const first = Array.isArray(params) ? params[0] : params;
  if (!first) return [];
  const judge = first.name ?? '';
  const q = (l: Language) => metrics.quality.find((r) => r.judge === judge && r.language === l);
  switch (spec.id) {
    case 'accuracy_by_language':
    case 'accuracy_by_language_tie_half': {
      const strict = spec.id === 'accuracy_by_language';
      return [
        judge,
        ...LANGUAGES.flatMap((l) => {
          const r = q(l);
          if (!r) return [];
          const v = strict ? r.accuracy_strict : r.accuracy_tie_half;
          const ci = strict ? r.accuracy_strict_ci : r.accuracy_tie_half_ci;
          return [`${l}: ${ciText(v, ci)} · ${nText(r.n)}`];
        }),
      ];
    }
    case 'accuracy_drop': {
      // The bar is the change on the paired verdicts, with its paired CI (in points).
      return [
        judge,
        ...TARGET_LANGUAGES.flatMap((l) => {
          const r = metrics.language_invariance.find((x) => x.judge === judge && x.comparison === `EN-${l}`);
          if (!r) return [];
          const [lo, hi] = r.accuracy_change_ci.map((v) => formatPoints(v));
          return [
            `${l} − EN: ${formatPoints(r.accuracy_change)} ${labels.points} [${lo}, ${hi}] · ${nText(r.n)}`,
          ];
        }),
      ];
    }
    case 'flip_rates':
      return [
        judge,
        ...COMPARISONS.flatMap((c) => {
          const r = metrics.language_invariance.find((x) => x.judge === judge && x.comparison === c);
          if (!r) return [];
          return [
            `${c} · ${nText(r.n)}`,
            `  ${labels.flip} ${ciText(r.flip_rate, r.flip_rate_ci)}`,
            `  ${labels.correctnessFlip} ${ciText(r.correctness_flip_rate, r.correctness_flip_rate_ci)}`,
          ];
        }),
        ...(metrics.noise_floor?.repeat
          .filter((x) => x.judge === judge)
          .map((x) => `${labels.repeatFlip} ${ciText(x.flip_rate, x.flip_rate_ci)} · ${nText(x.n)}`) ?? []),
      ];
    case 'position_inconsistency':
      return [
        judge,
        ...LANGUAGES.flatMap((l) => {
          const r = metrics.position.find((x) => x.judge === judge && x.language === l);
          return r ? [`${l}: ${ciText(r.inconsistency_rate, r.inconsistency_rate_ci)} · ${nText(r.n)}`] : [];
        }),
      ];
    case 'tie_probe_preference': {
      // A bar is a judge (ZH only) or "judge · language" (issue 37: other probed targets).
      const r = metrics.tie_probe.find(
        (x) => x.judge === judge || `${x.judge} · ${tieProbeTarget(x).language}` === judge,
      );
      if (!r) return [judge];
      const target = tieProbeTarget(r);
      return [
        `${judge} · ${nText(r.n)}`,
        `${labels.enWins}: ${ciText(r.en_win_rate, r.en_win_rate_ci)} (${formatInt(r.en_wins)})`,
        `${labels.tie}: ${ciText(r.tie_rate, r.tie_rate_ci)} (${formatInt(r.ties)})`,
        `${'language' in r ? labels.targetWins : labels.zhWins}: ${ciText(target.rate, target.ci)} (${formatInt(target.wins)})`,
        `${pText(r.binomial_p)} · Holm ${pText(r.binomial_p_holm)}`,
      ];
    }
    case 'subset_quality_heatmap': {
      const cell = heatmapCell(spec, first);
      if (!cell) return [];
      const r = metrics.subset_quality.find(
        (x) => x.judge === cell.judge && x.subset === cell.subset && x.language === cell.column,
      );
      return [
        `${cell.judge} · ${cell.subset} · ${cell.column}`,
        r ? `${ciText(r.accuracy_tie_half, r.accuracy_tie_half_ci)} · ${nText(r.n)}` : '–',
      ];
    }
    case 'subset_flip_heatmap': {
      const cell = heatmapCell(spec, first);
      if (!cell) return [];
      const r = metrics.subset_flip.find(
        (x) => x.judge === cell.judge && x.subset === cell.subset && x.comparison === cell.column,
      );
      return [
        `${cell.judge} · ${cell.subset} · ${cell.column}`,
        r ? `${ciText(r.flip_rate, r.flip_rate_ci)} · ${nText(r.n)}` : '–',
      ];
    }
    default:
      return [judge];
  }
}

/** Which flips a click on a figure asks for, or null when the click is not on a flip bar or cell. */
export function clickTarget(spec: FigureSpec, p: ChartParams): FlipTarget | null {
  if (p.componentType !== 'series') return null;
  // The English series name (kept as the id of a translated figure) says which flips.
  const series = englishSeriesName(p.seriesId) ?? p.seriesName;
  if (spec.id === 'flip_rates' && p.seriesType === 'bar' && series && p.name) {
    const comparison = COMPARISONS.find((c) => series.endsWith(c));
    if (!comparison) return null;
    const target: FlipTarget = { judge: p.name, comparison };
    if (series.startsWith('Correctness')) target.type = 'correctness';
    return target;
  }
  if (spec.id === 'subset_flip_heatmap' && p.seriesType === 'heatmap') {
    const cell = heatmapCell(spec, p);
    const comparison = COMPARISONS.find((c) => c === cell?.column);
    if (!cell || !comparison) return null;
    return { judge: cell.judge, comparison, subset: cell.subset };
  }
  return null;
}

function tooltipElement(lines: string[]): HTMLElement {
  // Built from text nodes: judge labels and subset names come from user files.
  const box = document.createElement('div');
  box.className = 'results-tooltip';
  for (const [i, line] of lines.entries()) {
    const el = document.createElement('div');
    if (i === 0) el.style.fontWeight = '600';
    el.style.whiteSpace = 'pre';
    el.textContent = line;
    box.appendChild(el);
  }
  return box;
}

/** The export's figure with the app's tooltip (n and CI) added. */
export function appFigure(spec: FigureSpec, metrics: JudgeLsMetrics, labels: TooltipLabels): FigureSpec {
  const base = (spec.option.tooltip ?? {}) as Record<string, unknown>;
  const formatter = (params: unknown) =>
    tooltipElement(tooltipLines(spec, metrics, params as ChartParams | ChartParams[], labels));
  return {
    ...spec,
    option: {
      ...spec.option,
      tooltip: { ...base, confine: true, formatter } as EChartsOption['tooltip'],
    },
  };
}

/** Every figure of the export, for the app. */
export function dashboardFigures(
  metrics: JudgeLsMetrics,
  labels: TooltipLabels = ENGLISH_TOOLTIP_LABELS,
): FigureSpec[] {
  return buildFigureSpecs(metrics).map((s) => appFigure(s, metrics, labels));
}

// A figure with a gap says why: a judge and language with no valid verdict draws no bar, which
// must not pass for a 0% bar (those are drawn with a minimum height), nor for "not run".
import type { EChartsOption } from 'echarts';
import type { FigureSpec } from '../../../report/chart-kit';
import { FONT_FAMILY } from '../../../report/chart-kit';
import type { Comparison, JudgeLsMetrics } from '../types';
import { missingComparison, qualityCoverage } from './coverage';
import { judgeOrder } from './tables';

const NOTE_COLOR = '#9a3412';
const COMPARISONS: Comparison[] = ['EN-ZH', 'EN-LS'];
/** Figures whose bars are quality verdicts per judge and language. */
const QUALITY_FIGURES = new Set([
  'accuracy_by_language',
  'accuracy_by_language_tie_half',
  'accuracy_drop',
  'position_inconsistency',
]);

function noValidQuality(metrics: JudgeLsMetrics): string[] {
  return qualityCoverage(metrics)
    .filter((c) => c.usable === 0)
    .map((c) => `${c.judge} · ${c.language} (${c.failed} failed)`);
}

function noValidComparisons(metrics: JudgeLsMetrics): string[] {
  const out: string[] = [];
  for (const judge of judgeOrder(metrics))
    for (const c of COMPARISONS) {
      const why = missingComparison(metrics, judge, c);
      if (why) out.push(`${judge} · ${c} (no valid ${why.empty.join('/')} verdicts)`);
    }
  return out;
}

/** True when the figure has not one value to draw. */
function hasNoData(option: EChartsOption): boolean {
  const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  return !series.some((s) =>
    ((s as { data?: unknown[] }).data ?? []).some((d) => {
      const v =
        d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as { value?: unknown }).value : d;
      return Array.isArray(v) ? v.some((x, i) => i > 0 && x !== null) : v !== null && v !== undefined;
    }),
  );
}

/** The note a figure shows under its title; null when nothing is missing. */
export function figureNote(spec: FigureSpec, metrics: JudgeLsMetrics): string | null {
  const missing = QUALITY_FIGURES.has(spec.id)
    ? noValidQuality(metrics)
    : spec.id === 'flip_rates'
      ? noValidComparisons(metrics)
      : [];
  if (missing.length) return `No valid verdicts, so no bar: ${missing.join('; ')}. See the failures table.`;
  if (hasNoData(spec.option)) {
    const failed = metrics.failures.filter((f) => f.kind !== 'transform').reduce((n, f) => n + f.count, 0);
    return failed > 0
      ? `Nothing to draw: no valid verdicts (${failed} failed; see the failures table).`
      : 'Nothing to draw yet: no verdicts.';
  }
  return null;
}

/** The figure with its note drawn under the title (the same text on screen and in exports). */
export function withFigureNote(spec: FigureSpec, metrics: JudgeLsMetrics): FigureSpec {
  const note = figureNote(spec, metrics);
  if (!note) return spec;
  const graphic = {
    type: 'text' as const,
    left: 'center',
    top: 32,
    silent: true,
    style: {
      text: note,
      fill: NOTE_COLOR,
      fontSize: 12,
      fontFamily: FONT_FAMILY,
      width: spec.width - 40,
      overflow: 'break' as const,
    },
  };
  return { ...spec, note, option: { ...spec.option, graphic: [graphic] } } as FigureSpec;
}

// Reference-sensitivity figures: calibration bars, acceptance heatmap, flip bars.
import {
  axisText,
  barWidth,
  errorBarFigure,
  figureCanvas,
  figureTitle,
  OKABE_ITO,
  percentScale,
  TEXT,
  valueAxis,
  type FigureSpec,
} from '../../../report/chart-kit';
import { ALL, type RefSensMetrics } from '../types';

// Judge and language on two lines: each line is its own SVG <text>, so a judge label in Arabic or
// Telugu is not one text with Latin (resvg's font fallback fails on such mixed runs; PNG export).
const cat = (r: { judge: string; language: string }) => `${r.judge}\n${r.language}`;

export function calibrationFigure(m: RefSensMetrics): FigureSpec {
  const cats = m.calibration.map(cat);
  const row = (c: string) => m.calibration.find((r) => cat(r) === c);
  return errorBarFigure({
    id: 'calibration',
    title: 'Calibration: C1 (gold) and C2 (wrong) acceptance, no reference',
    categories: cats,
    width: barWidth(cats.length, 110),
    xName: 'Judge / language',
    // CGP can be negative (a judge accepting wrong answers more often than gold ones).
    yAxis: valueAxis('Accepted (%)', m.calibration.some((r) => (r.cgp ?? 0) < 0) ? -100 : 0, 100),
    groups: [
      {
        name: 'C1 gold',
        color: OKABE_ITO.blue,
        value: (c) => row(c)?.c1_accept,
        ci: (c) => row(c)?.c1_accept_ci,
      },
      {
        name: 'C2 wrong',
        color: OKABE_ITO.vermillion,
        value: (c) => row(c)?.c2_accept,
        ci: (c) => row(c)?.c2_accept_ci,
      },
      { name: 'CGP (C1 − C2)', color: OKABE_ITO.green, value: (c) => row(c)?.cgp },
    ],
  });
}

export function flipFigure(m: RefSensMetrics): FigureSpec {
  const rows = m.flips.filter((r) => r.generator === ALL);
  const cats = [...new Set(rows.map(cat))];
  const get = (c: string, t: string) => rows.find((r) => cat(r) === c && r.transition === t);
  const repeat = (c: string) => m.noise_floor?.repeat.find((r) => r.generator === ALL && cat(r) === c);
  const colors = [OKABE_ITO.orange, OKABE_ITO.skyBlue, OKABE_ITO.purple];
  return errorBarFigure({
    id: 'flips',
    title: 'Decision flips between settings (all generators)',
    categories: cats,
    width: barWidth(cats.length, m.noise_floor ? 150 : 120),
    xName: 'Judge / language',
    yAxis: valueAxis('Flip rate (%)', 0, 100),
    groups: [
      ...(['NR-RV', 'RV-RC', 'NR-RC'] as const).map((t, i) => ({
        name: t,
        color: colors[i],
        value: (c: string) => get(c, t)?.flip_rate,
        ci: (c: string) => get(c, t)?.flip_rate_ci,
      })),
      // With the noise floor on: NR against its own repeat, on the same axis (what a flip must clear).
      ...(m.noise_floor
        ? [
            {
              name: 'NR-NR repeat (noise floor)',
              color: OKABE_ITO.grey,
              value: (c: string) => repeat(c)?.flip_rate,
              ci: (c: string) => repeat(c)?.flip_rate_ci,
            },
          ]
        : []),
    ],
  });
}

export function acceptanceHeatmapFigure(m: RefSensMetrics): FigureSpec {
  const rows = m.acceptance.filter((r) => r.generator === ALL);
  const ys = [...new Set(rows.map(cat))];
  const xs = ['NR', 'RV', 'RC'].filter((s) => rows.some((r) => r.setting === s));
  const title = 'Acceptance by setting (all generators, %)';
  return {
    id: 'acceptance_heatmap',
    title,
    width: 560,
    height: 140 + Math.max(1, ys.length) * 32,
    option: {
      ...figureCanvas(),
      title: figureTitle(title),
      grid: { left: 200, right: 40, top: 56, bottom: 70 },
      xAxis: { type: 'category', data: xs, axisLabel: axisText },
      yAxis: {
        type: 'category',
        data: ys,
        inverse: true,
        axisLabel: { ...axisText, width: 180, overflow: 'truncate' },
      },
      visualMap: {
        ...percentScale,
        itemHeight: 200,
        textStyle: axisText,
        inRange: { color: ['#f7fbff', '#08519c'] },
      },
      series: [
        {
          type: 'heatmap',
          label: { show: true, color: TEXT, textBorderColor: '#ffffff', textBorderWidth: 2 },
          data: rows
            .filter((r) => r.accept_rate !== null)
            .map((r) => [xs.indexOf(r.setting), ys.indexOf(cat(r)), Math.round(r.accept_rate! * 1000) / 10]),
        },
      ],
    },
  };
}

export function buildRefSensFigures(m: RefSensMetrics): FigureSpec[] {
  const out: FigureSpec[] = [];
  if (m.calibration.length > 0) out.push(calibrationFigure(m));
  if (m.acceptance.length > 0) out.push(acceptanceHeatmapFigure(m));
  if (m.flips.length > 0) out.push(flipFigure(m));
  return out;
}

// ECharts drawn ahead of an export (issue 27): its first figures run cold (V8 compiles as it
// goes), at about five times the cost of the same figures drawn again. Drawing a few charts of
// the kinds the protocols use (bars with CI whiskers, heatmap panels with a colour scale, lines
// and points with reference lines) while a run's calls are in flight moves that cost off the
// export. Made-up numbers; nothing is written.
import {
  barGrid,
  barsWithErrors,
  baseOption,
  categoryAxis,
  OKABE_ITO,
  valueAxis,
  type FigureSpec,
  percentScale,
} from '../../shared/report/chart-kit';
import { renderSvg } from './figures';

const JUDGES = ['Judge A', 'Judge B', 'Judge C'];
const value = (judge: string, k: number) => 0.4 + 0.1 * JUDGES.indexOf(judge) + 0.05 * k;

function bars(): FigureSpec {
  const groups = ['EN', 'ZH', 'LS'].map((name, k) => ({
    name,
    color: Object.values(OKABE_ITO)[k],
    value: (j: string) => value(j, k),
    ci: (j: string): [number, number] => [value(j, k) - 0.05, value(j, k) + 0.05],
  }));
  return {
    id: 'bars',
    title: 'Bars',
    width: 640,
    height: 420,
    option: {
      ...baseOption('Bars'),
      grid: barGrid,
      xAxis: categoryAxis(JUDGES, 'Judge', 120),
      yAxis: valueAxis('Accuracy (%)', 0, 100),
      series: [
        ...barsWithErrors(JUDGES, groups),
        {
          name: 'Chance',
          type: 'line',
          data: [],
          markLine: { symbol: 'none', data: [{ yAxis: 50 }], lineStyle: { type: 'dashed' } },
        },
      ],
    },
  };
}

function heatmaps(): FigureSpec {
  const columns = ['EN', 'ZH', 'LS'];
  const rows = ['Natural', 'Neighbor', 'GPTInst'];
  return {
    id: 'heatmaps',
    title: 'Heatmaps',
    width: 900,
    height: 360,
    option: {
      animation: false,
      backgroundColor: '#ffffff',
      title: [
        { text: 'Heatmaps', left: 'center' },
        ...JUDGES.map((j, i) => ({ text: j, left: 180 + i * 280 })),
      ],
      grid: JUDGES.map((_, i) => ({ left: 150 + i * 280, top: 84, width: 216, height: 120 })),
      xAxis: JUDGES.map((_, i) => ({ type: 'category' as const, gridIndex: i, data: columns })),
      yAxis: JUDGES.map((_, i) => ({ type: 'category' as const, gridIndex: i, data: rows })),
      visualMap: {
        ...percentScale,
        calculable: false,
        inRange: { color: ['#440154', '#21918c', '#fde725'] },
        formatter: 'Accuracy (%): {value}',
      },
      series: JUDGES.map((j, i) => ({
        name: j,
        type: 'heatmap' as const,
        xAxisIndex: i,
        yAxisIndex: i,
        label: { show: true, formatter: (p: { value: unknown }) => String((p.value as number[])[2]) },
        data: columns.flatMap((_, x) => rows.map((__, y) => [x, y, Math.round(value(j, x + y) * 100)])),
      })),
    },
  };
}

function points(): FigureSpec {
  return {
    id: 'points',
    title: 'Points',
    width: 560,
    height: 420,
    option: {
      ...baseOption('Points'),
      xAxis: valueAxis('Share (%)', 0, 100),
      yAxis: valueAxis('Change (pp)', -20, 20),
      graphic: [{ type: 'text', left: 'center', top: 36, style: { text: 'A note under the title' } }],
      series: [
        ...JUDGES.map((j, i) => ({
          name: j,
          type: 'scatter' as const,
          data: [0, 1, 2].map((k) => [value(j, k) * 100, (k - 1) * 5 + i]),
        })),
        {
          name: 'Trend',
          type: 'line' as const,
          data: [
            [0, -10],
            [100, 10],
          ],
          markLine: { symbol: 'none', data: [{ yAxis: 0 }] },
        },
      ],
    },
  };
}

/** The figures drawn to warm ECharts up (exported for the test that they draw). */
export const WARM_UP_FIGURES: readonly (() => FigureSpec)[] = [bars, heatmaps, points];

/** Draws one warm-up figure; `round` picks which, so a caller spreads them over turns. */
export function warmUpFigure(round: number): void {
  renderSvg(WARM_UP_FIGURES[round % WARM_UP_FIGURES.length]());
}

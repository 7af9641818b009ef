// @vitest-environment jsdom
// A protocol the app does not ship: its results show in the generic shell without any renderer
// code, and a renderer plug-in registered from here (no file outside test/ edited) adds a figure.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../../src/renderer/src/api';
import '../../../src/renderer/src/i18n';
import { registerRendererProtocol, unregisterRendererProtocol } from '../../../src/renderer/src/protocols';
import type { ResultsSectionsProps } from '../../../src/renderer/src/protocols';
import { ChartCard } from '../../../src/renderer/src/results/ChartCard';
import { ResultsPage } from '../../../src/renderer/src/results/ResultsPage';
import { drawnOption } from '../../../src/renderer/src/test/charts';
import { FakeApi } from '../../../src/renderer/src/test/fake-api';
import type { ExperimentResults } from '../../../src/shared/experiments';
import {
  barGrid,
  baseOption,
  categoryAxis,
  groupedBar,
  OKABE_ITO,
  valueAxis,
  type FigureSpec,
} from '../../../src/shared/report/chart-kit';
import { col, type Table } from '../../../src/shared/report/table';

const PROTOCOL = 'test-pointwise';

interface PointwiseMetrics {
  mean_score: { judge: string; n: number; mean: number; mean_ci: [number, number]; agreement: number }[];
}

const METRICS: PointwiseMetrics = {
  mean_score: [
    { judge: 'Judge <A>', n: 120, mean: 3.8125, mean_ci: [0.61, 0.71], agreement: 0.8342 },
    { judge: 'Judge B', n: 118, mean: 2.5, mean_ci: [0.41, 0.52], agreement: 0.000412 },
  ],
};

const TABLE: Table = {
  id: 'mean_score',
  title: 'Mean score per judge',
  caption: 'Mean 1–5 score with its 95% CI; agreement with the human scores.',
  columns: [
    col('judge', 'Judge', 'text'),
    col('n', 'n', 'int'),
    col('mean_ci', '95% CI', 'ci'),
    col('agreement', 'Agreement', 'pct'),
    col('p', 'p', 'p'),
  ],
  rows: METRICS.mean_score.map((r, i) => ({ ...r, p: i === 0 ? 0.0123 : 0.0004 })),
};

const RESULTS: ExperimentResults<PointwiseMetrics> = {
  protocol: PROTOCOL,
  metrics: METRICS,
  tables: [TABLE],
  flagged: [],
  counts: { planned: 240, ok: 238, failed: 2, pending: 0 },
  simulated: false,
};

/** The plug-in's one figure: mean score per judge as bars, built with the shared chart kit. */
function meanScoreFigure(m: PointwiseMetrics): FigureSpec {
  const judges = m.mean_score.map((r) => r.judge);
  return {
    id: 'mean_score_bars',
    title: 'Mean score',
    width: 560,
    height: 360,
    option: {
      ...baseOption('Mean score'),
      grid: barGrid,
      xAxis: categoryAxis(judges),
      yAxis: valueAxis('Score', 1, 5),
      series: [
        groupedBar(
          'Mean',
          OKABE_ITO.blue,
          m.mean_score.map((r) => r.mean),
          1,
        ),
      ],
    },
  };
}

function PointwiseSections({ results, experimentId, excludeFlagged }: ResultsSectionsProps) {
  const spec = meanScoreFigure(results.metrics as PointwiseMetrics);
  return (
    <section data-testid="pointwise-section">
      <ChartCard
        spec={spec}
        title="Mean score per judge"
        experimentId={experimentId}
        sensitivity={excludeFlagged}
      />
    </section>
  );
}

function renderResults() {
  setApi(
    new FakeApi({
      'experiments.results': () => RESULTS,
      'experiments.get': () => ({ id: 3, name: 'Pointwise pilot', datasetName: 'Scores', datasetId: 1 }),
    }),
  );
  render(<ResultsPage experimentId={3} excludeFlagged={false} onNavigate={() => {}} />);
}

beforeAll(() => {
  // jsdom has no canvas; ECharts then measures text itself.
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
});
afterEach(() => {
  cleanup();
  setApi(null);
  unregisterRendererProtocol(PROTOCOL);
});

describe('a protocol without renderer code (test-pointwise)', () => {
  it("shows every table of results.tables with the export's title, caption, headers and cell texts", async () => {
    renderResults();
    const section = await screen.findByTestId('section-mean_score');
    expect(within(section).getByRole('heading', { level: 2 }).textContent).toBe('Mean score per judge');
    expect(section.textContent).toContain('Mean 1–5 score with its 95% CI');
    const table = within(section).getByTestId('table-mean_score');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent!.replace(/[▲▼↕]$/, '')),
    ).toEqual(['Judge', 'n', '95% CI', 'Agreement', 'p']);
    const rows = within(table)
      .getAllByTestId('results-row')
      .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Judge <A>', '120', '[61.0, 71.0]', '83.4', '0.0123'],
      ['Judge B', '118', '[41.0, 52.0]', '0.0', '< 0.001'],
    ]);
    expect(
      within(section).getByRole('button', { name: 'Export Mean score per judge as LaTeX' }),
    ).toBeTruthy();
    expect(screen.getByTestId('results-counts').textContent).toBe(
      '240 of 240 answers in; 2 failed — see Failures',
    );
  });

  it('draws the figure of a plug-in registered from test code', async () => {
    registerRendererProtocol({
      id: PROTOCOL,
      title: 'Pointwise (test)',
      description: 'Scores 1–5.',
      ResultsSections: PointwiseSections,
    });
    renderResults();
    const card = await screen.findByTestId('chart-mean_score_bars');
    expect(screen.queryByTestId('section-mean_score')).toBeNull();
    const series = (await drawnOption(() => card)).series as { type: string; data: number[] }[];
    expect(series.map((s) => [s.type, s.data])).toEqual([['bar', [3.8125, 2.5]]]);
    const svgText = [...card.querySelectorAll('svg text')].map((t) => t.textContent);
    expect(svgText).toEqual(expect.arrayContaining(['Judge <A>', 'Judge B']));
    expect(card.querySelectorAll('svg path').length).toBeGreaterThan(0);
  });
});

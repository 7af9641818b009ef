import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as echarts from 'echarts/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JudgeLsResults } from '../../../../../shared/protocols/judge-ls/views';
import { buildTables } from '../../../../../shared/protocols/judge-ls/report/tables';
import type { JudgeLsMetrics } from '../../../../../shared/protocols/judge-ls/types';
import { formatCell } from '../../../../../shared/report/table';
import { setApi } from '../../../api';
import { i18next } from '../../../i18n';
import '../../index';
import { ResultsPage } from '../../../results/ResultsPage';
import type { ResultsRoute } from '../../../results/routes';
import { FakeApi } from '../../../test/fake-api';
import { clickTarget, dashboardFigures, tooltipLines } from './charts';
import { emptyMetrics, JUDGES, makeMetrics } from './test-fixtures';
import { unmountAndDropApiAfterEach, withoutCanvas } from '../../../test/dom';

withoutCanvas();
// After-each hooks run last-registered first: the page is unmounted before the observer stub goes,
// or a chart's effect still pending at unmount would construct an IntersectionObserver jsdom lacks.
afterEach(() => {
  delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
});
unmountAndDropApiAfterEach();

/** Charts are drawn when they come near the viewport; tests of the tables keep them off-screen. */
function chartsOffScreen() {
  (window as { IntersectionObserver?: unknown }).IntersectionObserver = class {
    observe() {}
    disconnect() {}
  };
}

function setup(metrics: JudgeLsMetrics, excludeFlagged = false, drawCharts = false) {
  if (!drawCharts) chartsOffScreen();
  // What the main side's experiments.results returns: the export's tables beside the metrics.
  const results: JudgeLsResults = {
    protocol: 'judge-ls',
    metrics,
    tables: buildTables(metrics),
    flagged: metrics.audit.flagged,
    counts: { planned: 4000, ok: 3990, failed: 3, pending: 7 },
    simulated: false,
  };
  const api = new FakeApi({
    'experiments.results': () => results,
    'experiments.get': () => ({ id: 7, name: 'Pilot', datasetName: 'LLMBar', datasetId: 1 }),
    'experiments.exportFile': () => ({
      fileName: 'quality.csv',
      mime: 'text/csv',
      contentBase64: btoa('a,b\n'),
    }),
    'experiments.export': () => ({
      dir: '/data/exports/pilot',
      files: ['metrics.json', 'tables/quality.tex'],
    }),
  });
  setApi(api);
  const onNavigate = vi.fn<(r: ResultsRoute) => void>();
  render(<ResultsPage experimentId={7} excludeFlagged={excludeFlagged} onNavigate={onNavigate} />);
  return { api, onNavigate };
}

const cellTexts = (table: HTMLElement, col: number) =>
  within(table)
    .getAllByTestId('results-row')
    .map((r) => r.querySelectorAll('td')[col].textContent);

describe('Results dashboard', () => {
  it('puts a banner on top when a language has almost no usable verdicts, and keeps its row saying so', async () => {
    const metrics = makeMetrics();
    metrics.quality = metrics.quality.filter((r) => !(r.judge === JUDGES[0] && r.language === 'EN'));
    metrics.failures.push({
      judge: JUDGES[0],
      kind: 'quality',
      language: 'EN',
      reason: 'unparseable',
      count: 360,
    });
    setup(metrics);
    const banner = await screen.findByTestId('failure-banner');
    expect(banner.textContent).toContain(`${JUDGES[0]} · EN: 0 usable verdicts of 360`);
    expect(within(banner).getByRole('link', { name: 'See Failures' }).getAttribute('href')).toBe(
      '#results-failures',
    );
    const quality = screen.getByTestId('table-quality');
    expect(quality.textContent).toContain('no valid verdicts (360 failed, see failures)');
  });

  it('shows the failures table, the notes and the roles in 中文 (the export keeps English)', async () => {
    await i18next.changeLanguage('zh');
    try {
      const metrics = makeMetrics();
      metrics.quality = metrics.quality.filter((r) => !(r.judge === JUDGES[0] && r.language === 'EN'));
      metrics.failures = [
        {
          judge: JUDGES[0],
          kind: 'quality',
          language: 'EN',
          reason: 'unparseable: The answer is not a JSON object "pairwise_verdict". (asked 2 times)',
          count: 360,
        },
        {
          judge: 'transformer',
          kind: 'transform',
          language: 'ZH',
          reason: 'timeout: Request timed out.',
          count: 1,
        },
      ];
      setup(metrics);
      const failures = await screen.findByTestId('table-failures');
      expect(cellTexts(failures, 0)).toEqual([JUDGES[0], '翻译模型']);
      expect(cellTexts(failures, 1)).toEqual(['质量判断', '翻译']);
      expect(cellTexts(failures, 3)).toEqual([
        '回答不可用（不是要求的格式）：回答不是 JSON 对象 "pairwise_verdict"。（共询问 2 次）',
        '超时：Request timed out.',
      ]);
      expect(screen.getByTestId('table-quality').textContent).toContain(
        '没有有效的判断（360 次失败，见“失败”）',
      );
      expect(cellTexts(screen.getByTestId('table-usage'), 0)).not.toContain('transformer');
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('names every column of every table in 中文 (issue 26 item 8: Test, Favours EN, Favours target)', async () => {
    await i18next.changeLanguage('zh');
    try {
      setup(makeMetrics());
      await screen.findByTestId('table-significance');
      const english: string[] = [];
      for (const table of buildTables(makeMetrics())) {
        const el = screen.queryByTestId(`table-${table.id}`);
        if (!el) continue;
        const headers = [...el.querySelectorAll('th')].map((th) => (th.textContent ?? '').trim());
        // A header still made only of English words (p, n, CI and test names are symbols, not words).
        for (const h of headers) {
          const words = h.replace(/McNemar|Holm/g, '');
          if (/[A-Za-z]{3,}/.test(words) && !/[\u4e00-\u9fff]/.test(h)) english.push(`${table.id}: ${h}`);
        }
      }
      expect(english).toEqual([]);
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('shows the dose–response sections (levels with the figure, trend) only with mixing ratios, in 中文 too', async () => {
    const level = (judge: string, target: string, asked: number, flips: number) => ({
      judge,
      series: 'LS:hi',
      target,
      asked_ratio: asked,
      measured_ratio: asked + 0.01,
      measured_min: asked,
      measured_max: asked + 0.02,
      n: 40,
      flips,
      flip_rate: flips / 40,
      flip_rate_ci: [flips / 80, flips / 40 + 0.1] as [number, number],
      flip_rate_ci_boot: null,
      flip_rate_ci_boot_undefined_reason: 'every resample gives the same value',
    });
    const metrics: JudgeLsMetrics = {
      ...makeMetrics(),
      dose_response: {
        measure: 'share of content words',
        method: 'linear probability slope',
        levels: [level(JUDGES[0], 'LS:hi@0', 0, 0), level(JUDGES[0], 'LS:hi@100', 1, 16)],
        trend: [
          {
            judge: JUDGES[0],
            series: 'LS:hi',
            n: 80,
            items: 20,
            levels: 2,
            intercept: 0,
            slope: 0.4,
            slope_ci: [0.25, 0.55],
            slope_p: 0.0001,
            slope_p_holm: 0.0001,
            slope_ci_boot: [0.24, 0.56],
          },
        ],
      },
    };
    setup(makeMetrics());
    await screen.findByTestId('table-quality');
    expect(screen.queryByTestId('table-dose_response')).toBeNull();
    cleanup();
    await i18next.changeLanguage('zh');
    try {
      setup(metrics);
      const levels = await screen.findByTestId('table-dose_response');
      expect(cellTexts(levels, 1)).toEqual(['LS:hi@0', 'LS:hi@100']);
      const trend = screen.getByTestId('table-dose_trend');
      expect(cellTexts(trend, 6)).toEqual(['40.0']);
      expect(screen.getAllByText('剂量–反应：各混合比例的翻转').length).toBeGreaterThan(0);
      expect(screen.getAllByText('翻转率与实测混合比例').length).toBeGreaterThan(0);
      for (const el of [levels, trend])
        for (const th of el.querySelectorAll('th')) {
          const h = (th.textContent ?? '').replace(/Holm/g, '').trim();
          expect(/[A-Za-z]{3,}/.test(h) && !/[\u4e00-\u9fff]/.test(h), h).toBe(false);
        }
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('shows no failure banner when verdicts are usable', async () => {
    setup(makeMetrics());
    await screen.findByTestId('table-quality');
    expect(screen.queryByTestId('failure-banner')).toBeNull();
  });

  it('shows quality as the export writes it (percent points, CIs), and sorts by a clicked header', async () => {
    setup(makeMetrics());
    const table = await screen.findByTestId('table-quality');
    expect(cellTexts(table, 3)).toEqual(['83.5', '79.5', '75.5', '73.5', '69.5', '65.5']);
    expect(cellTexts(table, 4)[0]).toBe('[80.3, 86.9]');
    fireEvent.click(within(table).getByRole('button', { name: /Acc. strict/ }));
    expect(cellTexts(table, 3)).toEqual(['65.5', '69.5', '73.5', '75.5', '79.5', '83.5']);
    expect(within(table).getAllByRole('columnheader')[3].getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(table).getByRole('button', { name: /Acc. strict/ }));
    expect(cellTexts(table, 3)[0]).toBe('83.5');
    // Text columns sort alphabetically; a second key click reverses.
    fireEvent.click(within(table).getByRole('button', { name: /^Judge/ }));
    expect(cellTexts(table, 0)[0]).toBe(JUDGES[1]);
  });

  it('switches the accuracy and flip intervals between Wilson and the item-clustered bootstrap', async () => {
    const metrics = makeMetrics();
    setup(metrics);
    const table = await screen.findByTestId('table-quality');
    expect(cellTexts(table, 4)[0]).toBe('[80.3, 86.9]');
    const ci = screen.getByTestId('ci-switch') as HTMLSelectElement;
    expect(ci.value).toBe('wilson');
    fireEvent.change(ci, { target: { value: 'cluster-bootstrap' } });
    // The fixture's bootstrap interval sits 0.1 points above Wilson's.
    expect(cellTexts(screen.getByTestId('table-quality'), 4)[0]).toBe('[80.4, 87.0]');
    const flips = screen.getByTestId('table-invariance');
    expect(cellTexts(flips, 4)[0]).toBe('[8.9, 15.5]');
    fireEvent.change(ci, { target: { value: 'wilson' } });
    expect(cellTexts(screen.getByTestId('table-quality'), 4)[0]).toBe('[80.3, 86.9]');
  });

  it('writes p-values as < 0.001 or three significant digits, and totals usage', async () => {
    setup(makeMetrics());
    const inv = await screen.findByTestId('table-invariance');
    expect(cellTexts(inv, 11)).toEqual(['0.0309', '< 0.001', '0.0309', '< 0.001']);
    expect(cellTexts(inv, 12)).toEqual(['0.0618', '< 0.001', '0.0618', '< 0.001']);
    const usage = screen.getByTestId('table-usage');
    expect(usage.querySelector('tfoot')!.textContent).toContain('3600');
    expect(usage.querySelector('tfoot')!.textContent).toContain('3.19');
    expect(screen.getByTestId('table-failures').textContent).toContain('invalid answer');
  });

  it("shows each table exactly as the export writes it: the export's headers and cell texts", async () => {
    const metrics = makeMetrics();
    setup(metrics);
    await screen.findByTestId('table-quality');
    const shown = [
      'quality',
      'invariance',
      'position',
      'tie_probe',
      'significance',
      'subset_quality',
      'usage',
      'failures',
    ];
    for (const table of buildTables(metrics).filter((x) => shown.includes(x.id))) {
      const el = screen.getByTestId(`table-${table.id}`);
      const headers = within(el)
        .getAllByRole('columnheader')
        .map((h) => h.textContent!.replace(/[▲▼↕]$/, ''))
        .filter((h) => h !== 'Browse flips');
      expect(headers, table.id).toEqual(table.columns.map((c) => c.header));
      const firstRow = within(el).getAllByTestId('results-row')[0].querySelectorAll('td');
      expect(
        table.columns.map((_, i) => firstRow[i].textContent),
        table.id,
      ).toEqual(table.columns.map((c) => formatCell(c, table.rows[0][c.key])));
    }
  });

  it('draws every figure with one series per language (and one error-bar series each)', async () => {
    setup(makeMetrics(), false, true);
    await screen.findByTestId('table-quality');
    // A chart is drawn once it comes near the view (an IntersectionObserver callback), which on a
    // loaded machine can be after the tables are in: wait for each chart, not for the tables.
    const seriesCount = (id: string) => {
      const el = screen.getByTestId(`chart-${id}`).querySelector('[data-figure]') as HTMLElement;
      return (echarts.getInstanceByDom(el)?.getOption().series as unknown[] | undefined)?.length;
    };
    const expected = {
      accuracy_by_language: 6,
      accuracy_drop: 4,
      flip_rates: 8,
      position_inconsistency: 6,
      tie_probe_preference: 3,
      subset_quality_heatmap: JUDGES.length,
      subset_flip_heatmap: JUDGES.length,
    };
    await waitFor(() => {
      for (const id of Object.keys(expected)) expect(seriesCount(id), id).toBeDefined();
    });
    for (const [id, n] of Object.entries(expected)) expect(seriesCount(id), id).toBe(n);
    // Drawn as SVG, with the legend in the DOM.
    const svg = screen.getByTestId('chart-accuracy_by_language').querySelector('svg')!;
    const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(['EN', 'ZH', 'LS']));
    expect(screen.getByTestId('chart-tie_probe_preference').querySelector('svg')!.textContent).toContain(
      'ZH wins',
    );
  });

  it('the sensitivity switch navigates with excludeFlagged and asks the core for it', async () => {
    const { api, onNavigate } = setup(makeMetrics(), true);
    const box = (await screen.findByTestId('exclude-flagged')) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.parentElement!.textContent).toBe('Without flagged items (1)');
    expect(api.calls.find((c) => c.method === 'experiments.results')!.params).toEqual({
      experimentId: 7,
      excludeFlagged: true,
    });
    fireEvent.click(box);
    expect(onNavigate).toHaveBeenCalledWith({ name: 'results', experimentId: 7, excludeFlagged: false });
  });

  it('links flip rows and flip charts to the flip browser, keeping the flagged filter', async () => {
    const { onNavigate } = setup(makeMetrics(), true);
    const inv = await screen.findByTestId('table-invariance');
    fireEvent.click(within(inv).getAllByRole('button', { name: 'See flips' })[1]);
    expect(onNavigate).toHaveBeenLastCalledWith({
      name: 'experiment-page',
      page: 'flips',
      experimentId: 7,
      query: { judge: JUDGES[0], comparison: 'EN-LS', flagged: 'no' },
    });
  });

  it('exports a table through the core and saves it with a download link', async () => {
    const { api } = setup(makeMetrics(), true);
    await screen.findByTestId('table-quality');
    const created: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      created.push(this.download);
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Export Accuracy by language as XLSX' }));
    });
    // The export's call (the page's own reads, e.g. its preregistration, may come after it).
    expect(api.calls.filter((c) => c.method === 'experiments.exportFile')).toEqual([
      {
        method: 'experiments.exportFile',
        params: {
          experimentId: 7,
          target: { table: 'quality', format: 'xlsx' },
          sensitivity: true,
          lang: 'en',
        },
      },
    ]);
    expect(created).toEqual(['quality.csv']);
    click.mockRestore();
    // The subset and failures tables are exported too (tables/subset_quality.*, tables/failures.*).
    expect(screen.getByRole('button', { name: 'Export Failures as CSV' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByTestId('export-all'));
    });
    const done = await screen.findByTestId('export-all-result');
    expect(done.textContent).toContain('/data/exports/pilot');
    expect(done.textContent).toContain('tables/quality.tex');
  });

  it('shows an empty state before any verdict', async () => {
    setup(emptyMetrics());
    expect((await screen.findByTestId('results-empty')).textContent).toContain('No verdicts yet');
    expect(screen.queryByTestId('table-quality')).toBeNull();
  });
});

describe('figure interactions', () => {
  const metrics = makeMetrics();
  const figures = dashboardFigures(metrics);
  const fig = (id: string) => figures.find((f) => f.id === id)!;

  it('a flip bar opens that judge and comparison; a correctness bar adds the type', () => {
    expect(
      clickTarget(fig('flip_rates'), {
        componentType: 'series',
        seriesType: 'bar',
        seriesName: 'Flip EN-LS',
        name: JUDGES[1],
      }),
    ).toEqual({ judge: JUDGES[1], comparison: 'EN-LS' });
    expect(
      clickTarget(fig('flip_rates'), {
        componentType: 'series',
        seriesType: 'bar',
        seriesName: 'Correctness flip EN-ZH',
        name: JUDGES[0],
      }),
    ).toEqual({ judge: JUDGES[0], comparison: 'EN-ZH', type: 'correctness' });
    expect(
      clickTarget(fig('accuracy_by_language'), {
        componentType: 'series',
        seriesType: 'bar',
        name: JUDGES[0],
      }),
    ).toBeNull();
  });

  it('a flip heatmap cell opens judge, comparison and subset', () => {
    // Subsets are sorted on the axis: Adversarial (0), Natural (1).
    expect(
      clickTarget(fig('subset_flip_heatmap'), {
        componentType: 'series',
        seriesType: 'heatmap',
        seriesName: JUDGES[1],
        seriesIndex: 1,
        value: [1, 0, 22],
      }),
    ).toEqual({ judge: JUDGES[1], comparison: 'EN-LS', subset: 'Adversarial' });
  });

  it('tooltips give n and the 95% CI', () => {
    expect(tooltipLines(fig('accuracy_by_language'), metrics, [{ name: JUDGES[0] }])).toEqual([
      JUDGES[0],
      'EN: 83.5% [80.3, 86.9] · n = 200',
      'ZH: 79.5% [76.3, 82.9] · n = 200',
      'LS: 75.5% [72.3, 78.9] · n = 200',
    ]);
    expect(
      tooltipLines(fig('subset_quality_heatmap'), metrics, {
        seriesName: JUDGES[0],
        seriesIndex: 0,
        value: [2, 1, 84],
      }),
    ).toEqual([`${JUDGES[0]} · Natural · LS`, '84.0% [80.8, 87.4] · n = 100']);
    expect(tooltipLines(fig('tie_probe_preference'), metrics, [{ name: JUDGES[1] }])[4]).toBe(
      'p < 0.001 · Holm p = 0.00182',
    );
  });
});

describe('tie probes in other languages (issue 37)', () => {
  /** The fixture's ZH rows, and an `ar` row per judge, in the per-language shape. */
  function perLanguage(): JudgeLsMetrics {
    const m = makeMetrics();
    m.tie_probe = m.tie_probe.flatMap((r) => {
      if (!('zh_wins' in r)) return [r];
      const { zh_wins, zh_win_rate, zh_win_rate_ci, ...rest } = r;
      const zh = {
        ...rest,
        language: 'ZH',
        target_wins: zh_wins,
        target_win_rate: zh_win_rate,
        target_win_rate_ci: zh_win_rate_ci,
      };
      return [
        zh,
        { ...zh, language: 'ar', target_wins: 20, target_win_rate: 0.1, target_win_rate_ci: [0.07, 0.14] },
      ];
    }) as JudgeLsMetrics['tie_probe'];
    return m;
  }

  it('names the languages in the section and figure titles, and gives each judge × language a bar', async () => {
    setup(perLanguage());
    const table = await screen.findByTestId('table-tie_probe');
    expect(screen.getAllByText('Tie probe: English vs ZH, ar').length).toBeGreaterThan(0);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent!.replace(/[▲▼↕]$/, '')),
    ).toContain('Translation wins');
    const figure = dashboardFigures(perLanguage()).find((f) => f.id === 'tie_probe_preference')!;
    expect(tooltipLines(figure, perLanguage(), [{ name: `${JUDGES[0]} · ar` }])[3]).toBe(
      'Translation wins: 10.0% [7.0, 14.0] (20)',
    );
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getAllByText('平局探针：英文对 ZH, ar').length).toBeGreaterThan(0);
    await act(() => i18next.changeLanguage('en'));
  });
});

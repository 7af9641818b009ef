// @vitest-environment jsdom
// The reference-sensitivity results page: calibration chart, acceptance heatmap and flip bars
// drawn from metrics.json, every table with its CIs, and the wizard's config keys.
import { screen, waitFor } from '@testing-library/react';
import * as echarts from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { buildRefSensTables } from '../../../../shared/protocols/reference-sensitivity/report/tables';
import type { RefSensMetrics } from '../../../../shared/protocols/reference-sensitivity/types';
import type { ExperimentResults } from '../../../../shared/experiments';
import { setApi } from '../../api';
import { i18next } from '../../i18n';
import { drawnOption } from '../../test/charts';
import { unmountAndDropApiAfterEach, withoutCanvas } from '../../test/dom';
import { type ResultsExperiment, renderResultsPage, resultsApi } from '../../test/results';
import { refSensConfig, withRefSensDraft, initialRefSensDraft } from './draft';
import '../index';
import type { WizardDraft } from '../../lib/experiment-config';

// Judge J's NR → RV flips on ar: one row in the flip table, set against the noise floor below.
const NR_RV_FLIPS = {
  judge: 'J',
  generator: 'all',
  language: 'ar',
  transition: 'NR-RV' as const,
  n: 150,
  flip_rate: 0.2,
  flip_rate_ci: [0.14, 0.27] as [number, number],
};

const METRICS: RefSensMetrics = {
  calibration: [
    {
      judge: 'J',
      language: 'ar',
      n: 150,
      c1_accept: 0.9,
      c1_accept_ci: [0.84, 0.94],
      c2_accept: 0.4,
      c2_accept_ci: [0.32, 0.48],
      cgp: 0.5,
      cgp_ci: [0.4, 0.6],
    },
  ],
  acceptance: (['NR', 'RV', 'RC'] as const).map((setting, i) => ({
    judge: 'J',
    generator: 'all',
    language: 'ar',
    setting,
    n: 150,
    accept_rate: 0.6 - i * 0.1,
    accept_rate_ci: [0.5, 0.7] as [number, number],
  })),
  flips: [
    {
      ...NR_RV_FLIPS,
      correct_to_incorrect: 28,
      incorrect_to_correct: 2,
      mcnemar_p: 0.00001,
      extraction_change_rate: 0.05,
    },
  ],
  string_baseline: { answers: [], em_agreement: [] },
  human: { settings: [], nr_rv_flips: [] },
  usage: [],
  failures: [],
  // The noise floor (config noiseFloor): NR against its own repeat, and NR-RV beyond it.
  noise_floor: {
    repeat: [
      {
        judge: 'J',
        generator: 'all',
        language: 'ar',
        n: 150,
        flips: 9,
        flip_rate: 0.06,
        flip_rate_ci: [0.03, 0.11],
      },
    ],
    excess: [
      {
        ...NR_RV_FLIPS,
        repeat_flip_rate: 0.06,
        repeat_flip_rate_ci: [0.03, 0.11],
        excess_flip_rate: 0.14,
        excess_flip_rate_ci: [0.07, 0.21],
        both_flipped: 4,
        change_only: 26,
        repeat_only: 5,
        neither: 115,
        mcnemar_p: 0.0002,
        mcnemar_p_holm: 0.0002,
      },
    ],
  },
};

const EXPERIMENT: ResultsExperiment = { id: 3, name: 'RS', datasetName: 'TyDi', datasetId: 1 };

const RESULTS: ExperimentResults<RefSensMetrics> = {
  protocol: 'reference-sensitivity',
  metrics: METRICS,
  tables: buildRefSensTables(METRICS),
  flagged: [],
  counts: { planned: 600, ok: 600, failed: 0, pending: 0 },
  simulated: false,
};

withoutCanvas();
unmountAndDropApiAfterEach();

describe('reference-sensitivity results', () => {
  it('draws the calibration chart, the acceptance heatmap and the flip bars, and lists the tables', async () => {
    setApi(resultsApi(RESULTS, EXPERIMENT));
    renderResultsPage(3);
    const cal = await screen.findByTestId('chart-calibration');
    const series = (await drawnOption(() => cal)).series as { type: string; name: string; data: unknown[] }[];
    expect(series.filter((s) => s.type === 'bar').map((s) => [s.name, s.data])).toEqual([
      ['C1 gold', [90]],
      ['C2 wrong', [40]],
      ['CGP (C1 − C2)', [50]],
    ]);
    expect(screen.getByTestId('chart-acceptance_heatmap')).toBeTruthy();
    expect(screen.getByTestId('chart-flips')).toBeTruthy();
    for (const id of ['calibration', 'acceptance', 'flips', 'string_baseline', 'em_agreement', 'usage'])
      expect(screen.getByTestId(`section-${id}`)).toBeTruthy();
  });

  it('puts the noise floor beside the flips: a grey NR-NR bar on their axis and its table', async () => {
    setApi(resultsApi(RESULTS, EXPERIMENT));
    renderResultsPage(3);
    const card = await screen.findByTestId('chart-flips');
    const series = (await drawnOption(() => card)).series as {
      type: string;
      name: string;
      data: unknown[];
      itemStyle?: { color?: string };
    }[];
    const bars = series.filter((s) => s.type === 'bar');
    expect(bars.map((s) => [s.name, s.data])).toEqual([
      ['NR-RV', [20]],
      ['RV-RC', [null]],
      ['NR-RC', [null]],
      ['NR-NR repeat (noise floor)', [6]],
    ]);
    const table = screen.getByTestId('section-noise_floor');
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(rows.map((r) => r[3])).toEqual(['NR-NR (repeat)', 'NR-RV']);
    expect(rows[1].slice(9, 11)).toEqual(['14.0', '[7.0, 21.0]']);
  });

  it('shows every table in 中文: titles, captions and headers, with no English sentence left', async () => {
    await i18next.changeLanguage('zh');
    try {
      setApi(resultsApi(RESULTS, EXPERIMENT));
      renderResultsPage(3);
      const calibration = await screen.findByTestId('section-calibration');
      expect(calibration.querySelector('h2')!.textContent).toBe(
        '校准：无参考答案时对正确（C1）与错误（C2）答案的接受率',
      );
      expect([...calibration.querySelectorAll('th')].map((th) => th.textContent)).toContain('C1 接受↕');
      for (const table of RESULTS.tables) {
        const section = screen.getByTestId(`section-${table.id}`);
        expect(section.querySelector('h2')!.textContent, table.id).not.toBe(table.title);
        expect(section.textContent, table.id).not.toMatch(/(?:[A-Za-z][A-Za-z'’]*\s+){3,}[A-Za-z]+/);
      }
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('marks every chart of a simulated experiment on screen, in the card and in the drawn title', async () => {
    setApi(resultsApi({ ...RESULTS, simulated: true }, EXPERIMENT));
    renderResultsPage(3);
    for (const id of ['calibration', 'acceptance_heatmap', 'flips']) {
      const card = await screen.findByTestId(`chart-${id}`);
      expect(card.querySelector('.results-chart__title')!.textContent).toMatch(/^Simulated — /);
      // The chart is drawn once its frame is measured (it draws at the card's width): wait for it.
      await waitFor(() => {
        const chart = echarts.getInstanceByDom(card.querySelector('[data-figure]') as HTMLElement);
        expect(chart).toBeDefined();
        expect((chart!.getOption().title as { text: string }[])[0].text).toMatch(/^Simulated — /);
      });
    }
  });

  it('marks every table of a simulated experiment once, in English and in 中文', async () => {
    setApi(resultsApi({ ...RESULTS, simulated: true }, EXPERIMENT));
    try {
      for (const [lang, mark] of [
        ['en', 'Simulated — '],
        ['zh', '模拟 — '],
      ] as const) {
        await i18next.changeLanguage(lang);
        const { unmount } = renderResultsPage(3);
        const title = (await screen.findByTestId('section-calibration')).querySelector(
          '.results-section__title',
        )!.textContent!;
        expect(title.startsWith(mark)).toBe(true);
        expect(title.slice(mark.length).startsWith(mark)).toBe(false);
        unmount();
      }
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('leaves the charts of a real experiment unmarked', async () => {
    setApi(resultsApi(RESULTS, EXPERIMENT));
    renderResultsPage(3);
    const card = await screen.findByTestId('chart-calibration');
    expect(card.querySelector('.results-chart__title')!.textContent).not.toMatch(/Simulated/);
  });

  it('turns the wizard draft into the protocol config keys', () => {
    const draft = withRefSensDraft({ protocolDrafts: {} } as unknown as WizardDraft, {
      ...initialRefSensDraft(),
      generators: [{ key: 'g', provider: 'anthropic', model: ' claude-haiku-4-5 ', label: '' }],
      settings: { NR: true, RV: false, RC: true },
      seed: 13,
    });
    expect(refSensConfig(draft)).toEqual({
      generators: [{ label: 'claude-haiku-4-5', provider: 'anthropic', model: 'claude-haiku-4-5' }],
      parts: { calibration: true, sensitivity: true, settings: ['NR', 'RC'] },
      seed: 13,
    });
  });
});

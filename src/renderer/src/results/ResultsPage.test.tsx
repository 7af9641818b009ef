import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExperimentResults, ResultCounts } from '../../../shared/experiments';
import { col, type Table } from '../../../shared/report/table';
import { setApi } from '../api';
import {
  registerRendererProtocol,
  unregisterRendererProtocol,
  type ResultsSectionsProps,
} from '../protocols/registry';
import { FakeApi, progress } from '../test/fake-api';
import { ResultsPage } from './ResultsPage';
import { parseHash, routeHref } from '../stores/route';
import { i18next } from '../i18n';
import type { ResultsRoute } from './routes';
import { LIVE_RELOAD_MS } from './useLiveReload';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach();

/** Results of a protocol the renderer has no plug-in for: one table whose n grows as answers arrive. */
function resultsWith(n: number, counts: Partial<ResultCounts> = {}): ExperimentResults {
  const table: Table = {
    id: 'answers',
    title: 'Answers so far',
    caption: 'One row per judge.',
    columns: [col('judge', 'Judge', 'text'), col('n', 'n', 'int')],
    rows: [{ judge: 'J1', n }],
  };
  return {
    protocol: 'unplugged',
    metrics: {},
    tables: [table],
    flagged: [],
    counts: { planned: 400, ok: n, failed: 0, pending: 400 - n, ...counts },
    simulated: false,
  };
}

function setup(answer: () => ExperimentResults, verifiedOnly = false) {
  const api = new FakeApi({
    'experiments.results': answer,
    'experiments.get': () => ({ id: 7, name: 'Pilot', datasetName: 'LLMBar', datasetId: 1 }),
  });
  setApi(api);
  const onNavigate = vi.fn<(r: ResultsRoute) => void>();
  render(
    <ResultsPage
      experimentId={7}
      excludeFlagged={false}
      verifiedOnly={verifiedOnly}
      onNavigate={onNavigate}
    />,
  );
  const resultCalls = () => api.calls.filter((c) => c.method === 'experiments.results').length;
  return { api, onNavigate, resultCalls };
}

const nShown = () => within(screen.getByTestId('table-answers')).getAllByRole('cell')[1].textContent;

describe('Results shell', () => {
  it('has a breadcrumb back to the experiment and the list', async () => {
    setup(() => resultsWith(10));
    const crumb = await screen.findByTestId('results-breadcrumb');
    await waitFor(() => expect(within(crumb).getByTestId('breadcrumb-experiment').textContent).toBe('Pilot'));
    expect(within(crumb).getByTestId('breadcrumb-experiment').getAttribute('href')).toBe('#/experiments/7');
    expect(within(crumb).getByRole('link', { name: 'Experiments' }).getAttribute('href')).toBe(
      '#/experiments',
    );
  });

  it('says how many answers are in and how many failed, with the way to the failures', async () => {
    const { onNavigate } = setup(() => resultsWith(308, { failed: 4, pending: 88 }));
    const line = await screen.findByTestId('results-counts');
    expect(line.textContent).toBe(
      '312 of 400 answers in; 88 not answered yet (left out below); 4 failed — see Failures',
    );
    // No failures section on this page: the run view lists them.
    fireEvent.click(within(line).getByRole('button', { name: 'see Failures' }));
    expect(onNavigate).toHaveBeenCalledWith({ name: 'experiment', experimentId: 7 });
    // Nothing flagged: no sensitivity switch.
    expect(screen.queryByTestId('exclude-flagged')).toBeNull();
  });

  it('warns above everything when most answers failed, and not otherwise', async () => {
    setup(() => resultsWith(40, { failed: 360, pending: 0 }));
    const banner = await screen.findByTestId('results-failed-banner');
    expect(banner.textContent).toBe(
      '360 of 400 answers have no usable value; the rates below count only the usable ones. see Failures',
    );
    cleanup();
    setup(() => resultsWith(308, { failed: 4, pending: 88 }));
    await screen.findByTestId('results-counts');
    expect(screen.queryByTestId('results-failed-banner')).toBeNull();
  });

  it('updates while answers arrive: run.progress re-reads the results at most every 1.5 s, and once after the last', async () => {
    let n = 10;
    const { api, resultCalls } = setup(() => resultsWith(n));
    await waitFor(() => expect(nShown()).toBe('10'));
    expect(resultCalls()).toBe(1);

    // A run reports progress about four times a second.
    n = 20;
    const start = Date.now();
    act(() => {
      for (let i = 0; i < 5; i++) api.emit('run.progress', progress({ experimentId: 7 }));
    });
    await waitFor(() => expect(nShown()).toBe('20'));
    expect(resultCalls()).toBe(2);
    // Another experiment's progress is not ours.
    act(() => api.emit('run.progress', progress({ experimentId: 8 })));

    // The last event's answers land after the window, not never.
    n = 30;
    act(() => api.emit('run.progress', progress({ experimentId: 7 })));
    expect(resultCalls()).toBe(2);
    await waitFor(() => expect(nShown()).toBe('30'), { timeout: LIVE_RELOAD_MS + 1000 });
    expect(resultCalls()).toBe(3);
    expect(Date.now() - start).toBeGreaterThanOrEqual(LIVE_RELOAD_MS - 50);

    // experiments.changed (the run ended, another window edited it) reads them again too.
    await new Promise((r) => setTimeout(r, LIVE_RELOAD_MS));
    n = 40;
    act(() => api.emit('experiments.changed', { experimentId: 7 }));
    await waitFor(() => expect(nShown()).toBe('40'));
    expect(screen.getByTestId('results-counts').textContent).toBe(
      '40 of 400 answers in; 360 not answered yet (left out below)',
    );
  });

  describe('verified items only', () => {
    const unverified = [
      { item_id: 'q7', reasons: ['ar: chrF 21.4 < 40'] },
      { item_id: 'q9', reasons: ['hi: chrF 30.0 < 40', 'ar: chrF 12.5 < 40'] },
    ];
    const withUnverified = () => ({ ...resultsWith(10), unverified });

    it('offers the switch only where the experiment verifies, and says how many items are left out and why', async () => {
      const { onNavigate } = setup(withUnverified);
      const box = (await screen.findByTestId('verified-only')) as HTMLInputElement;
      expect(box.checked).toBe(false);
      expect(box.parentElement!.textContent).toBe('Verified items only (2 not verified)');
      expect(screen.getByTestId('verified-only-hint').textContent).toBe(
        'All items. 2 items did not pass verification; switch this on to see every result on verified items only.',
      );
      expect(
        within(screen.getByTestId('verified-only-items'))
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['q7 — ar: chrF 21.4 < 40', 'q9 — hi: chrF 30.0 < 40; ar: chrF 12.5 < 40']);
      fireEvent.click(box);
      expect(onNavigate).toHaveBeenCalledWith({
        name: 'results',
        experimentId: 7,
        excludeFlagged: false,
        verifiedOnly: true,
      });
      cleanup();
      setup(() => resultsWith(10));
      await screen.findByTestId('table-answers');
      expect(screen.queryByTestId('verified-only')).toBeNull();
    });

    it('switched on, asks the core for verified items only and says what every table leaves out, EN and 中文', async () => {
      const { api } = setup(withUnverified, true);
      const box = (await screen.findByTestId('verified-only')) as HTMLInputElement;
      expect(box.checked).toBe(true);
      expect(api.calls.find((c) => c.method === 'experiments.results')!.params).toEqual({
        experimentId: 7,
        excludeFlagged: false,
        verifiedOnly: true,
      });
      expect(screen.getByTestId('verified-only-hint').textContent).toMatch(
        /^Every table and chart below leaves out the 2 items that did not pass verification/,
      );
      cleanup();
      await act(() => i18next.changeLanguage('zh'));
      try {
        setup(withUnverified, true);
        const hint = await screen.findByTestId('verified-only-hint');
        expect(hint.textContent).toMatch(/^下方所有表格和图表均已排除未通过验证的 2 个条目/);
        expect(screen.getByTestId('verified-only').parentElement!.textContent).toBe(
          '仅已验证的条目（2 个未通过验证）',
        );
      } finally {
        await act(() => i18next.changeLanguage('en'));
      }
    });

    it('travels in the address beside the flagged switch', () => {
      const route = { name: 'results', experimentId: 7, excludeFlagged: true, verifiedOnly: true } as const;
      expect(routeHref(route)).toBe('#/experiments/7/results?excludeFlagged=1&verifiedOnly=1');
      expect(parseHash(routeHref(route))).toEqual(route);
      expect(parseHash('#/experiments/7/results')).toEqual({ name: 'results', experimentId: 7 });
    });
  });

  it("never hands one experiment's sections another experiment's id while its results load (issue 38)", async () => {
    // Two protocols' sections record what they are given, as the bias study's variant browser
    // asks its experiment for a "variants" view the reference-sensitivity one lacks.
    const seen: { protocol: string; experimentId: number }[] = [];
    const sectionsOf = (id: string) =>
      function Sections({ results, experimentId }: ResultsSectionsProps) {
        seen.push({ protocol: id, experimentId });
        return <p data-testid={`sections-${id}`}>{results.protocol}</p>;
      };
    registerRendererProtocol({
      id: 'has-variants',
      title: 'A',
      description: '',
      ResultsSections: sectionsOf('has-variants'),
    });
    registerRendererProtocol({
      id: 'no-variants',
      title: 'B',
      description: '',
      ResultsSections: sectionsOf('no-variants'),
    });
    try {
      let releaseSecond!: () => void;
      const secondHeld = new Promise<void>((r) => (releaseSecond = r));
      const api = new FakeApi({
        'experiments.results': async ({ experimentId }) => {
          if (experimentId === 2) await secondHeld;
          return { ...resultsWith(10), protocol: experimentId === 1 ? 'has-variants' : 'no-variants' };
        },
        'experiments.get': ({ experimentId }) => ({ id: experimentId, name: `E${experimentId}` }),
      });
      setApi(api);
      const { rerender } = render(
        <ResultsPage experimentId={1} excludeFlagged={false} onNavigate={() => {}} />,
      );
      await screen.findByTestId('sections-has-variants');
      // The route moves to the other experiment's results without a remount (history, a link).
      rerender(<ResultsPage experimentId={2} excludeFlagged={false} onNavigate={() => {}} />);
      await waitFor(() =>
        expect(api.calls.filter((c) => c.method === 'experiments.results')).toHaveLength(2),
      );
      expect(screen.queryByTestId('sections-has-variants')).toBeNull();
      act(() => releaseSecond());
      await screen.findByTestId('sections-no-variants');
      expect(seen.filter((s) => s.protocol === 'has-variants').map((s) => s.experimentId)).not.toContain(2);
    } finally {
      unregisterRendererProtocol('has-variants');
      unregisterRendererProtocol('no-variants');
    }
  });
});

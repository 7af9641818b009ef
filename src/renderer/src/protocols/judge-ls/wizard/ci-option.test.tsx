// The Judge-LS options step's interval switch: Wilson or the item-clustered bootstrap, shown in
// the summary (both languages) and carried by the config the wizard estimates and saves.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../../api';
import { App } from '../../../App';
import { i18next } from '../../../i18n';
import '../../index';
import { useAppInfo, useDatasets } from '../../../stores/datasets';
import { navigate } from '../../../stores/route';
import { useWizard } from '../../../stores/wizard';
import { FakeApi, estimateOf, experimentSummary, progress, summary } from '../../../test/fake-api';

function makeApi() {
  return new FakeApi({
    'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
    'datasets.list': () => [summary()],
    'providers.keyStatus': ({ providers }) =>
      Object.fromEntries(Object.keys(providers).map((n) => [n, 'set'])),
    'experiments.previewPrompts': () => ({ itemId: 1, sourceId: 'X-001', prompts: [] }),
    'prices.get': ({ models }) => ({
      rows: models.map((model) => ({ model, price: null, source: 'unpriced' })),
      asOf: '2025-11-30',
    }),
    'experiments.estimate': () => estimateOf([]),
    'experiments.create': () => experimentSummary({ id: 7, status: 'draft' }),
    'experiments.start': () => progress({ experimentId: 7 }),
  });
}

const next = () => fireEvent.click(screen.getByTestId('wizard-next'));
const configOf = (api: FakeApi, method: string) =>
  (api.calls.filter((c) => c.method === method).at(-1)!.params as { config: Record<string, unknown> }).config;

beforeEach(async () => {
  useWizard.getState().reset();
  useDatasets.setState({ datasets: [], loaded: false, error: null });
  await act(() => i18next.changeLanguage('en'));
});
afterEach(async () => {
  cleanup();
  setApi(null);
  await act(() => i18next.changeLanguage('en'));
});

describe('the Judge-LS interval switch in the wizard', () => {
  it('defaults to Wilson; choosing the clustered bootstrap shows in the summary and goes into the saved config', async () => {
    const api = makeApi();
    setApi(api);
    navigate({ name: 'new-experiment' }, { replace: true });
    await act(async () => {
      await useAppInfo.getState().load();
      await useDatasets.getState().refresh();
    });
    render(<App />);
    for (let i = 0; i < 4; i++) next();
    const select = screen.getByTestId('option-ci') as HTMLSelectElement;
    expect(select.value).toBe('wilson');
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Wilson (verdicts independent)',
      'Item-clustered bootstrap',
    ]);
    fireEvent.change(select, { target: { value: 'cluster-bootstrap' } });
    next();
    expect(screen.getByTestId('summary-ci').textContent).toBe('Item-clustered bootstrap');
    await waitFor(() => expect(configOf(api, 'experiments.estimate').ci).toBe('cluster-bootstrap'));

    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByTestId('summary-ci').textContent).toBe('按条目聚类的自助法');
    expect(screen.getByText('置信区间')).toBeTruthy();

    fireEvent.click(screen.getByTestId('create-and-start'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'experiments.create')).toBe(true));
    expect(configOf(api, 'experiments.create').ci).toBe('cluster-bootstrap');
    // Off by default: the saved config does not name it.
    expect('noiseFloor' in configOf(api, 'experiments.create')).toBe(false);
  }, 30_000);

  it('measures the noise floor only when ticked: the estimate and the saved config carry noiseFloor then', async () => {
    const api = makeApi();
    setApi(api);
    navigate({ name: 'new-experiment' }, { replace: true });
    await act(async () => {
      await useAppInfo.getState().load();
      await useDatasets.getState().refresh();
    });
    render(<App />);
    for (let i = 0; i < 4; i++) next();
    const box = screen.getByTestId('option-noise-floor') as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByText('Measure the noise floor')).toBeTruthy();
    fireEvent.click(box);
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByText('测量噪声底线')).toBeTruthy();
    next();
    expect(screen.getByTestId('summary-noise-floor').textContent).toBe('是');
    await waitFor(() => expect(configOf(api, 'experiments.estimate').noiseFloor).toBe(true));
    fireEvent.click(screen.getByTestId('create-and-start'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'experiments.create')).toBe(true));
    expect(configOf(api, 'experiments.create').noiseFloor).toBe(true);
  }, 30_000);
});

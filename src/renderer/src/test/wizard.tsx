// The new-experiment wizard as its tests drive it: a fake API that answers every call the
// wizard makes, the app opened on the wizard, and its "Next" button.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../api';
import { App } from '../App';
import { useAppInfo, useDatasets } from '../stores/datasets';
import { navigate } from '../stores/route';
import { useWizard } from '../stores/wizard';
import { FakeApi, estimateOf, experimentSummary, progress, summary } from './fake-api';

type Handlers = ConstructorParameters<typeof FakeApi>[0];

/**
 * One dataset, every provider key set, no model priced, an empty estimate, and experiment 7
 * created and started; `over` replaces the answers a test is about.
 */
export function wizardApi(over: Handlers = {}): FakeApi {
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
    ...over,
  });
}

/** A fresh draft on the first step, and no dataset list loaded yet. */
export function resetWizardAndDatasets(): void {
  useWizard.getState().reset();
  useDatasets.setState({ datasets: [], loaded: false, error: null });
}

/** Renders the app on the wizard's first step, with app info and datasets loaded through `api`. */
export async function openNewExperimentWizard(api: FakeApi): Promise<void> {
  setApi(api);
  navigate({ name: 'new-experiment' }, { replace: true });
  await act(async () => {
    await useAppInfo.getState().load();
    await useDatasets.getState().refresh();
  });
  render(<App />);
}

/** Presses the wizard's "Next" button `times` times. */
export function clickNext(times = 1): void {
  for (let i = 0; i < times; i++) fireEvent.click(screen.getByTestId('wizard-next'));
}

/** The config of the last `method` call (experiments.estimate or experiments.create). */
export function lastConfigSent(api: FakeApi, method: string): Record<string, unknown> {
  const call = api.calls.filter((c) => c.method === method).at(-1);
  if (!call) throw new Error(`no ${method} call was made`);
  return (call.params as { config: Record<string, unknown> }).config;
}

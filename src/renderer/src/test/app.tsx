// Starting the whole app on a route with a fake API, as the page tests that drive <App /> do.
import { act, render } from '@testing-library/react';
import { setApi } from '../api';
import { App } from '../App';
import { useAppInfo, useDatasets } from '../stores/datasets';
import { useImport } from '../stores/import';
import type { FakeApi } from './fake-api';

/** The dataset stores as created: no list loaded, no app info, no import under way. */
export function resetDatasetStores(): void {
  useDatasets.setState({ datasets: [], loaded: false, error: null });
  useAppInfo.setState({ info: null });
  useImport.setState({ phase: { kind: 'idle' }, outcome: null });
}

/** Loads app info and the dataset list through `api` before the first render, as the app does. */
export async function startAppAt(api: FakeApi, hash = '#/datasets') {
  setApi(api);
  window.location.hash = hash;
  await act(async () => {
    await useAppInfo.getState().load();
    await useDatasets.getState().refresh();
  });
  return render(<App />);
}

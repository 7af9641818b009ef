import { create } from 'zustand';
import type { AppInfo, DatasetSummary } from '../../../shared/domain';
import { getApi } from '../api';
import { createListStore } from './list-store';

export const useDatasets = createListStore('datasets', {
  load: () => getApi().call('datasets.list'),
  remove: (datasetId) => getApi().call('datasets.delete', { datasetId }),
  idOf: (d: DatasetSummary) => d.id,
});

interface AppInfoState {
  info: AppInfo | null;
  load(): Promise<void>;
}

export const useAppInfo = create<AppInfoState>((set) => ({
  info: null,
  async load() {
    try {
      set({ info: await getApi().call('app.info') });
    } catch {
      // Without app.info the page still works; only the sample button hides.
    }
  },
}));

/** Keeps the list fresh from any door's changes (another window, the CLI via the server). */
export function subscribeToDatasetChanges(): () => void {
  return getApi().on('datasets.changed', () => void useDatasets.getState().refresh());
}

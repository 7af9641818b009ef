import { create } from 'zustand';
import type { AppInfo, DatasetSummary } from '../../../shared/domain';
import { ApiError, getApi, toApiError } from '../api';

interface DatasetsState {
  datasets: DatasetSummary[];
  /** False until the first list arrives, so the empty state never flashes on start. */
  loaded: boolean;
  error: ApiError | null;
  refresh(): Promise<void>;
  remove(datasetId: number): Promise<void>;
}

let refreshSeq = 0;

export const useDatasets = create<DatasetsState>((set) => ({
  datasets: [],
  loaded: false,
  error: null,
  async refresh() {
    // Only the newest request may write, so a slow old answer cannot overwrite a fresh one.
    const seq = ++refreshSeq;
    try {
      const datasets = await getApi().call('datasets.list');
      if (seq === refreshSeq) set({ datasets, loaded: true, error: null });
    } catch (err) {
      if (seq === refreshSeq) set({ loaded: true, error: toApiError(err) });
    }
  },
  async remove(datasetId) {
    await getApi().call('datasets.delete', { datasetId });
    set((s) => ({ datasets: s.datasets.filter((d) => d.id !== datasetId) }));
  },
}));

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

import { create } from 'zustand';
import type { ExperimentSummary } from '../../../shared/experiments';
import { ApiError, getApi, toApiError } from '../api';

interface ExperimentsState {
  experiments: ExperimentSummary[];
  /** False until the first list arrives, so the empty state never flashes on start. */
  loaded: boolean;
  error: ApiError | null;
  refresh(): Promise<void>;
  remove(experimentId: number): Promise<void>;
}

let refreshSeq = 0;

export const useExperiments = create<ExperimentsState>((set) => ({
  experiments: [],
  loaded: false,
  error: null,
  async refresh() {
    // Only the newest request may write, so a slow old answer cannot overwrite a fresh one.
    const seq = ++refreshSeq;
    try {
      const experiments = await getApi().call('experiments.list');
      if (seq === refreshSeq) set({ experiments, loaded: true, error: null });
    } catch (err) {
      if (seq === refreshSeq) set({ loaded: true, error: toApiError(err) });
    }
  },
  async remove(experimentId) {
    await getApi().call('experiments.delete', { experimentId });
    set((s) => ({ experiments: s.experiments.filter((e) => e.id !== experimentId) }));
  },
}));

/** How often a running experiment's row may re-read the list (progress arrives ~4×/s). */
const PROGRESS_REFRESH_MS = 2000;

/**
 * Keeps the list fresh: on any experiment change (here, in another window, or from the CLI
 * through the server), and at a calm pace while a run reports progress.
 */
export function subscribeToExperimentChanges(): () => void {
  const api = getApi();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const offChanged = api.on('experiments.changed', () => void useExperiments.getState().refresh());
  const offProgress = api.on('run.progress', (p) => {
    useExperiments.setState((s) => ({
      experiments: s.experiments.map((e) => (e.id === p.experimentId ? { ...e, status: p.status } : e)),
    }));
    timer ??= setTimeout(() => {
      timer = null;
      void useExperiments.getState().refresh();
    }, PROGRESS_REFRESH_MS);
  });
  // The web client reports a reconnect as "datasets changed": events may have been missed.
  const offReconnect = api.on('datasets.changed', ({ datasetId }) => {
    if (datasetId === null) void useExperiments.getState().refresh();
  });
  return () => {
    offChanged();
    offProgress();
    offReconnect();
    if (timer) clearTimeout(timer);
  };
}

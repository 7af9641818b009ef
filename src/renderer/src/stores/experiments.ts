import type { ExperimentSummary } from '../../../shared/experiments';
import { getApi } from '../api';
import { createListStore } from './list-store';

export const useExperiments = createListStore('experiments', {
  load: () => getApi().call('experiments.list'),
  remove: (experimentId) => getApi().call('experiments.delete', { experimentId }),
  idOf: (e: ExperimentSummary) => e.id,
});

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

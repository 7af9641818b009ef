import { useEffect, useState } from 'react';
import type { ExperimentDetail, ExperimentResults } from '../../../shared/experiments';
import { getApi, toApiError, type ApiError } from '../api';

export interface ResultsState {
  results: ExperimentResults | null;
  detail: ExperimentDetail | null;
  loading: boolean;
  error: ApiError | null;
  reload: () => void;
}

/** Waits this long after a change event, so a running experiment does not refetch on every verdict. */
const CHANGE_DEBOUNCE_MS = 1500;

/**
 * The experiment's metrics (recomputed without flagged items when asked) and its summary. The
 * shown results stay on screen while the other variant loads, so the switch does not flash.
 */
export function useResults(experimentId: number, excludeFlagged: boolean): ResultsState {
  const [results, setResults] = useState<ExperimentResults | null>(null);
  const [detail, setDetail] = useState<ExperimentDetail | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    const api = getApi();
    Promise.all([
      api.call('experiments.results', { experimentId, excludeFlagged }),
      api.call('experiments.get', { experimentId }).catch(() => null),
    ]).then(
      ([r, d]) => {
        if (cancelled) return;
        setResults(r);
        setDetail(d);
        setError(null);
        setLoading(false);
      },
      (err) => {
        if (cancelled) return;
        setError(toApiError(err));
        setLoading(false);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [experimentId, excludeFlagged, generation]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = getApi().on('experiments.changed', (p) => {
      if (p.experimentId !== null && p.experimentId !== experimentId) return;
      clearTimeout(timer);
      timer = setTimeout(() => setGeneration((g) => g + 1), CHANGE_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [experimentId]);

  return { results, detail, loading, error, reload: () => setGeneration((g) => g + 1) };
}

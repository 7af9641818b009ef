import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExperimentDetail, ExperimentResults } from '../../../shared/experiments';
import { getApi, toApiError, type ApiError } from '../api';
import { useLiveReload } from './useLiveReload';

export interface ResultsState {
  results: ExperimentResults | null;
  detail: ExperimentDetail | null;
  loading: boolean;
  error: ApiError | null;
  reload: () => void;
}

/**
 * The experiment's results (recomputed without flagged items when asked) and its summary, read
 * again as answers arrive. The shown results stay on screen while newer ones load, so neither
 * the switch nor a live update flashes; an answer older than the one shown is dropped.
 */
export function useResults(
  experimentId: number,
  excludeFlagged: boolean,
  verifiedOnly = false,
): ResultsState {
  const [results, setResults] = useState<ExperimentResults | null>(null);
  const [detail, setDetail] = useState<ExperimentDetail | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);
  // Requests are numbered; a slow one may still land after a newer start, but never over a newer answer.
  const seq = useRef({ started: 0, applied: 0, key: '' });

  const load = useCallback(() => {
    const key = `${experimentId}|${excludeFlagged}|${verifiedOnly}`;
    if (seq.current.key !== key) seq.current = { started: seq.current.started, applied: 0, key };
    const n = ++seq.current.started;
    const current = () => seq.current.key === key && n > seq.current.applied;
    setLoading(true);
    const api = getApi();
    Promise.all([
      api.call('experiments.results', {
        experimentId,
        excludeFlagged,
        ...(verifiedOnly ? { verifiedOnly } : {}),
      }),
      api.call('experiments.get', { experimentId }).catch(() => null),
    ]).then(
      ([r, d]) => {
        if (!current()) return;
        seq.current.applied = n;
        setResults(r);
        setDetail(d);
        setError(null);
        if (n === seq.current.started) setLoading(false);
      },
      (err) => {
        if (!current()) return;
        setError(toApiError(err));
        if (n === seq.current.started) setLoading(false);
      },
    );
  }, [experimentId, excludeFlagged, verifiedOnly]);

  useEffect(() => {
    load();
    // Answers of an unmounted page (or another experiment) land nowhere.
    return () => {
      seq.current = { ...seq.current, key: '' };
    };
  }, [load]);
  useLiveReload(experimentId, load);

  return { results, detail, loading, error, reload: load };
}

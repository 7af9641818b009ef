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
  // Each answer remembers the experiment it was read for. The page is not remounted when the
  // route moves to another experiment's results (history, a link): until that experiment's
  // answer lands, the last one is another protocol's, and its sections given the new id asked
  // the new experiment for views it does not have (issue 38: a bias study's variant browser asked
  // a reference-sensitivity experiment for "variants", an uncaught page error).
  const [shown, setShown] = useState<{
    experimentId: number;
    results: ExperimentResults;
    detail: ExperimentDetail | null;
  } | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setError] = useState<{ experimentId: number; error: ApiError } | null>(null);
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
        setShown({ experimentId, results: r, detail: d });
        setError(null);
        if (n === seq.current.started) setLoading(false);
      },
      (err) => {
        if (!current()) return;
        setError({ experimentId, error: toApiError(err) });
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

  const mine = shown?.experimentId === experimentId ? shown : null;
  const error = failed?.experimentId === experimentId ? failed.error : null;
  return { results: mine?.results ?? null, detail: mine?.detail ?? null, loading, error, reload: load };
}

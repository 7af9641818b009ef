// Loads an experiment's preregistration view (every lock, the one in force, the deviations and
// the comparison ids a plan may name) and reloads it after a lock.
import { useCallback, useEffect, useState } from 'react';
import type { PreregistrationView } from '../../../shared/paper/preregistration';
import { getApi } from '../api';
import { toApiError, type ApiError } from '../api/errors';

export interface PreregState {
  view: PreregistrationView | null;
  error: ApiError | null;
  reload: () => void;
  /** Replaces the view with the one a lock returned (no second round trip). */
  setView: (view: PreregistrationView) => void;
}

export function usePreregistration(experimentId: number): PreregState {
  const [view, setView] = useState<PreregistrationView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    getApi()
      .call('experiments.preregistration', { experimentId })
      .then((v) => {
        if (!live) return;
        setView(v);
        setError(null);
      })
      .catch((err: unknown) => {
        if (live) setError(toApiError(err));
      });
    return () => {
      live = false;
    };
  }, [experimentId, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { view, error, reload, setView };
}

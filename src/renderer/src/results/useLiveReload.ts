import { useEffect, useRef } from 'react';
import { useApi } from '../api/scope';
import { throttle } from '../lib/throttle';

/** A running experiment reports progress about four times a second; pages re-read at most this often. */
export const LIVE_RELOAD_MS = 1500;

/**
 * Calls `reload` while the experiment's answers come in (`run.progress`) and when it changes
 * (`experiments.changed`: a run ended, a variant was edited, another window did something),
 * at most once per LIVE_RELOAD_MS and always once more after the last event.
 */
export function useLiveReload(experimentId: number, reload: () => void): void {
  const reloadRef = useRef(reload);
  useEffect(() => {
    reloadRef.current = reload;
  }, [reload]);
  const api = useApi();

  useEffect(() => {
    const throttled = throttle(() => reloadRef.current(), LIVE_RELOAD_MS);
    const offProgress = api.on('run.progress', (p) => {
      if (p.experimentId === experimentId) throttled();
    });
    const offChanged = api.on('experiments.changed', (p) => {
      if (p.experimentId === null || p.experimentId === experimentId) throttled();
    });
    return () => {
      offProgress();
      offChanged();
      throttled.cancel();
    };
  }, [experimentId, api]);
}

import { useEffect, useState } from 'react';
import type { Item } from '../../../shared/domain';
import type { VerdictList } from '../../../shared/verdicts';
import { toApiError, type ApiError } from '../api';
import { useApi } from '../api/scope';

/** The experiment's verdicts (as its tables count them) and its name, read once per page. */
export function useVerdicts(experimentId: number, excludeFlagged: boolean) {
  const [list, setList] = useState<VerdictList | null>(null);
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const api = useApi();
  useEffect(() => {
    let live = true;
    setError(null);
    api.call('experiments.verdicts', { experimentId, excludeFlagged }).then(
      (r) => live && setList(r),
      (e) => live && setError(toApiError(e)),
    );
    api.call('experiments.get', { experimentId }).then(
      (d) => live && setName(d.name),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [experimentId, excludeFlagged, attempt, api]);
  return { list, name, error, retry: () => setAttempt((n) => n + 1) };
}

/** One dataset item, for the opened verdict. */
export function useItemOf(itemId: number | null) {
  const [item, setItem] = useState<Item | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const api = useApi();
  useEffect(() => {
    if (itemId === null) return;
    let live = true;
    setItem(null);
    setError(null);
    api.call('items.get', { itemId }).then(
      (i) => live && setItem(i),
      (e) => live && setError(toApiError(e)),
    );
    return () => {
      live = false;
    };
  }, [itemId, api]);
  return { item, error };
}

import { useEffect, useState } from 'react';
import type { Item } from '../../../shared/domain';
import type { VerdictList } from '../../../shared/verdicts';
import { getApi, toApiError, type ApiError } from '../api';

/** The experiment's verdicts (as its tables count them) and its name, read once per page. */
export function useVerdicts(experimentId: number, excludeFlagged: boolean) {
  const [list, setList] = useState<VerdictList | null>(null);
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    const api = getApi();
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
  }, [experimentId, excludeFlagged, attempt]);
  return { list, name, error, retry: () => setAttempt((n) => n + 1) };
}

/** One dataset item, for the opened verdict. */
export function useItemOf(itemId: number | null) {
  const [item, setItem] = useState<Item | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (itemId === null) return;
    let live = true;
    setItem(null);
    setError(null);
    getApi()
      .call('items.get', { itemId })
      .then(
        (i) => live && setItem(i),
        (e) => live && setError(toApiError(e)),
      );
    return () => {
      live = false;
    };
  }, [itemId]);
  return { item, error };
}

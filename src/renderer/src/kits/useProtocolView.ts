import { useEffect, useState } from 'react';
import { toApiError, type ApiError } from '../api';
import { useApi } from '../api/scope';

export interface ProtocolViewState<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
}

/**
 * Reads a protocol's read view (`experiments.protocolView`) for the page's query and reads it again
 * whenever the query changes. The query is compared by its JSON, so a page may build a new object
 * on every render; an answer that arrives after the query changed is dropped. A failed read keeps
 * the last data beside the error.
 */
export function useProtocolView<T>(
  experimentId: number,
  view: string,
  query: object,
  read: (raw: unknown) => T,
): ProtocolViewState<T> {
  const wanted = JSON.stringify(query);
  const [state, setState] = useState<ProtocolViewState<T>>({ data: null, error: null, loading: true });
  const api = useApi();
  // The reader is a module-level function in practice; holding the first one keeps it out of the
  // effect's dependencies, so an inline arrow does not re-read on every render.
  const [reader] = useState(() => read);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    api
      .call('experiments.protocolView', {
        experimentId,
        view,
        query: JSON.parse(wanted) as Record<string, unknown>,
      })
      .then((data) => live && setState({ data: reader(data), error: null, loading: false }))
      .catch((err) => live && setState((s) => ({ ...s, error: toApiError(err), loading: false })));
    return () => {
      live = false;
    };
  }, [experimentId, view, wanted, api, reader]);
  return state;
}

// Which core a part of the page reads: the app's own (getApi), or, inside an opened study bundle
// (issue 38 §8), the bundle's replay. The protocols' pages read through `useApi`, so the very
// same pages show a bundle's flips and variants without knowing it; the bundle's scope answers
// only the reads BUNDLE_READS lists and refuses the rest (nothing runs, edits or exports there).
import { createContext, useContext } from 'react';
import type { ApiClient, MethodName, ParamsOf, ResultOf } from '../../../shared/api';
import { BUNDLE_READS, type BundleRead } from '../../../shared/paper/bundle';
import { ApiError } from './errors';
import { getApi } from './index';

/** Set inside an opened bundle: its client, and that the page is read-only. */
export interface ApiScope {
  client: ApiClient;
  /** A bundle's replay: nothing is edited, exported or linked to the user's experiments. */
  readOnlyBundle: boolean;
}

const ApiScopeContext = createContext<ApiScope | null>(null);
export const ApiScopeProvider = ApiScopeContext.Provider;

/** The client this part of the page reads: the bundle's inside an opened bundle, else the app's. */
export function useApi(): ApiClient {
  return useContext(ApiScopeContext)?.client ?? getApi();
}

/** True inside an opened bundle: the page hides what would write, export or leave the bundle. */
export function useReadOnlyBundle(): boolean {
  return useContext(ApiScopeContext)?.readOnlyBundle ?? false;
}

const READS = new Set<string>(BUNDLE_READS);

/**
 * The opened bundle's client: each of BUNDLE_READS goes to `bundles.read` with its own
 * parameters (the core answers it from the replay's store, whatever ids they carry); any other
 * method is refused here, before it could reach the user's store. No live events: a bundle
 * never changes.
 */
export function bundleApiClient(session: string, base: ApiClient = getApi()): ApiClient {
  return {
    async call<M extends MethodName>(method: M, ...params: ParamsOf<M> extends void ? [] : [ParamsOf<M>]) {
      if (!READS.has(method))
        throw new ApiError('invalid_params', `An opened study bundle is read-only (${method}).`);
      return (await base.call('bundles.read', {
        session,
        method: method as BundleRead,
        params: (params[0] ?? {}) as Record<string, unknown>,
      })) as ResultOf<M>;
    },
    on: () => () => {},
  };
}

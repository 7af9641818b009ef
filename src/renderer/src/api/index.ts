import type { ApiClient, MethodName, ParamsOf, ResultOf } from '../../../shared/api';
import { toApiError } from './errors';
import { setConnected } from '../stores/connection';
import { createWebClient } from './web-client';

export { ApiError, toApiError } from './errors';
export type { ApiErrorCode } from './errors';

/** Wraps the preload's client so its errors arrive as ApiError like the web client's. */
function wrapPreload(inner: ApiClient): ApiClient {
  return {
    async call<M extends MethodName>(method: M, ...params: ParamsOf<M> extends void ? [] : [ParamsOf<M>]) {
      try {
        return (await inner.call(method, ...params)) as ResultOf<M>;
      } catch (err) {
        throw toApiError(err);
      }
    },
    on: (event, listener) => inner.on(event, listener),
  };
}

let client: ApiClient | null = null;

/** The one client of this page: Electron's window.api when present, else the web door's. */
export function getApi(): ApiClient {
  client ??= window.api ? wrapPreload(window.api) : createWebClient({ onConnectionChange: setConnected });
  return client;
}

/** For tests: route every store through a given client. */
export function setApi(next: ApiClient | null): void {
  client = next;
}

/** True in a browser opened without the tokened link `judge-lab serve` prints. */
export function missingWebToken(): boolean {
  const c = getApi();
  return 'hasToken' in c && (c as { hasToken: boolean }).hasToken === false;
}

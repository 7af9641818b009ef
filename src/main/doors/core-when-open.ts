// The web door before the core has loaded (issue 27): the first page is the built UI, static
// files that need none of the core, so `serve` listens and prints its URL first and loads the
// core (its modules are most of the start) while the browser fetches and parses the UI. Calls
// that arrive meanwhile wait for it; if it cannot open, they answer with its error.
import type { Core } from '../facade/core';

type CoreCalls = Pick<Core, 'call' | 'onAny'>;

export interface CoreWhenOpen extends CoreCalls {
  /** Hands over the core once it is open, or the reason it could not be. */
  settle(opening: Promise<CoreCalls>): void;
}

export function coreWhenOpen(): CoreWhenOpen {
  let settle!: (opening: Promise<CoreCalls>) => void;
  const core = new Promise<CoreCalls>((resolve) => {
    settle = (opening) => resolve(opening);
  });
  // Whoever started the opening reports its failure; calls waiting on it answer with the error.
  core.catch(() => undefined);
  return {
    settle,
    call: async (method, params) => (await core).call(method, params),
    onAny: (listener) => {
      let off: (() => void) | undefined;
      let stopped = false;
      core.then(
        (c) => {
          if (!stopped) off = c.onAny(listener);
        },
        () => undefined,
      );
      return () => {
        stopped = true;
        off?.();
      };
    },
  };
}

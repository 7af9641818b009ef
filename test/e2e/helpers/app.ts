// The two ways the Chromium tests start the app: a keyless `judge-lab serve` (the simulated
// provider answers; no key reaches the server), or a data folder a core of the test's own
// filled first (simulated runs finished), then served. Either way one Chromium page on it,
// collecting uncaught page errors, and one close that stops everything and removes the folder.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { launchChromium } from '../../helpers/browser';
import { startServe } from '../../helpers/cli';
import { keylessEnv } from '../../helpers/cli-simulated';
import { tempDir } from '../../helpers/tmp';
import { startServeWithEnv, type ServeHandle } from './serve';

/** A simulated provider that answers at once, for runs made before the browser opens. */
export const SIM_PROVIDERS = { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 16 } };

export interface AppInBrowser<S> {
  server: S;
  browser: Browser;
  page: Page;
  /** Uncaught errors of the page, in order. */
  pageErrors: string[];
  close(): Promise<void>;
}

async function openPage(viewport: { width: number; height: number }, timeoutMs?: number) {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  // Playwright gives up after 30 s by default; a loaded 2-core machine can take longer to draw
  // a page, and a wait is a give-up point, not an expectation (DESIGN §10).
  page.setDefaultTimeout(timeoutMs ?? 60_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  return { browser, page, pageErrors };
}

function appOn<S extends { stop: () => Promise<void> }>(
  server: S,
  opened: Awaited<ReturnType<typeof openPage>>,
  cleanup: () => void,
): AppInBrowser<S> {
  return {
    server,
    ...opened,
    async close() {
      await opened.browser.close();
      await server.stop();
      cleanup();
    },
  };
}

/** `judge-lab serve` with every *_KEY and *_TOKEN variable emptied, and a page on it. */
export async function startKeylessApp(opts: {
  viewport: { width: number; height: number };
  timeoutMs: number;
}): Promise<AppInBrowser<ServeHandle>> {
  const tmp = tempDir();
  const server = await startServeWithEnv(join(tmp.dir, 'data'), keylessEnv());
  return appOn(server, await openPage(opts.viewport, opts.timeoutMs), tmp.cleanup);
}

/**
 * A data folder filled by `seed` through a core of its own (no keys), then shut and served by
 * `judge-lab serve`, with a page on it.
 */
export async function startSeededApp(
  seed: (core: Core) => Promise<void>,
  viewport: { width: number; height: number },
): Promise<AppInBrowser<{ url: string; stop: () => Promise<void> }>> {
  const t = tempDir();
  const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  try {
    await seed(core);
    await core.shutdown();
  } catch (e) {
    t.cleanup();
    throw e;
  }
  const server = await startServe(t.dir);
  return appOn(server, await openPage(viewport), t.cleanup);
}

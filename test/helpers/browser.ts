import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserServer, type Download } from 'playwright-core';
import { inject } from 'vitest';

// Screenshots: save them with saveScreenshot (test/helpers/screenshots.ts), the one rule.
export { SCREENSHOT_DIR } from './screenshots';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The e2e project's shared Chromium (test/e2e/helpers/chromium-server.ts). */
    chromiumWsEndpoint?: string;
  }
}

/** Debian's Chromium, headless, with the flags this closed network needs. */
const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

/** A Chromium that files connect to (the e2e project's global setup starts one). */
export function chromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH);
}

/**
 * A Chromium for one test file: the e2e project's shared one when its global setup started it
 * (the file's pages get contexts of their own; `close` disconnects), else one of its own.
 */
export async function launchChromium(): Promise<Browser> {
  const shared = inject('chromiumWsEndpoint');
  return shared ? chromium.connect(shared) : chromium.launch(LAUNCH);
}

/**
 * A finished download's bytes, copied through the protocol into a folder of the caller's own:
 * `download.path()` throws on a browser connected to rather than launched.
 */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'judge-lab-download-'));
  try {
    const file = join(dir, 'download');
    await download.saveAs(file);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

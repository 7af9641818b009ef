import { inject } from 'vitest';
import { chromium, type Browser, type Download } from 'playwright-core';
import { CHROMIUM_LAUNCH } from './chromium-flags';

// Screenshots: save them with saveScreenshot (test/helpers/screenshots.ts), the one rule.
export { SCREENSHOT_DIR } from './screenshots';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one Chromium (test/e2e/chromium-server.ts), when the e2e project started it. */
    chromiumWsEndpoint?: string;
  }
}

/**
 * A Chromium for one test file. Under the e2e project every file connects to the one browser its
 * global setup started (a Chromium start was ~1–2 CPU-s and ~150 MB per file); `newPage` still
 * gives each page a context of its own, and `close()` drops this file's contexts and connection
 * only, so files stay as independent as with a browser each. Run outside that project (one file
 * on its own, another project), it launches its own.
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = sharedEndpoint();
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch(CHROMIUM_LAUNCH);
}

function sharedEndpoint(): string | undefined {
  try {
    return inject('chromiumWsEndpoint');
  } catch {
    return undefined;
  }
}

/**
 * The bytes of a finished download. `download.path()` works only with a browser this process
 * launched; through the shared browser the file lives on the browser's side, so it is streamed.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const failure = await download.failure();
  if (failure) throw new Error(`download ${download.suggestedFilename()} failed: ${failure}`);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

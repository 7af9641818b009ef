// `--smoke-test`: proves a build of the desktop app works end to end on this machine (CI runs it
// on `npm start` and on the packaged installers): the store opens in a temp folder, the window
// loads, and the page calls the API through the preload and IPC. Exit 0, or non-zero with why.
import type { WebContents } from 'electron';

export const SMOKE_TEST_FLAG = '--smoke-test';
export const SMOKE_TEST_TIMEOUT_MS = 60_000;

export function isSmokeTest(argv: readonly string[] = process.argv): boolean {
  return argv.includes(SMOKE_TEST_FLAG);
}

/**
 * Runs in the page as the renderer would: through window.api, which only the preload defines,
 * so an answer proves the preload, contextBridge, IPC, the sender check and the core all work.
 * Errors come back as values because the API throws plain objects, which executeJavaScript
 * would turn into an empty message.
 */
export const PAGE_CALL = `(async () => {
  try {
    if (typeof window.api?.call !== 'function') return { ok: false, error: 'window.api is missing: the preload did not run' };
    const info = await window.api.call('app.info');
    const datasets = await window.api.call('datasets.list');
    return { ok: true, door: info.door, dataDir: info.dataDir, datasets: datasets.length };
  } catch (e) {
    return { ok: false, error: String(e?.message ?? e) };
  }
})()`;

interface PageAnswer {
  ok: boolean;
  error?: string;
  door?: string;
  dataDir?: string;
  datasets?: number;
}

/** Waits for the page, makes the call from it, and says what it proved (throws with the reason). */
export async function smokeTestPage(
  loaded: Promise<unknown>,
  contents: Pick<WebContents, 'executeJavaScript'>,
  dataDir: string,
  timeoutMs = SMOKE_TEST_TIMEOUT_MS,
): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer from the page within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([loaded, timeout]).catch((err: unknown) => {
      throw new Error(`the window did not load: ${err instanceof Error ? err.message : String(err)}`);
    });
    const answer = (await Promise.race([contents.executeJavaScript(PAGE_CALL), timeout])) as PageAnswer;
    if (!answer?.ok) throw new Error(`the API call from the page failed: ${answer?.error ?? 'no answer'}`);
    if (answer.door !== 'electron')
      throw new Error(`the page reached the "${answer.door}" door, not Electron's`);
    if (answer.dataDir !== dataDir)
      throw new Error(`the core uses ${answer.dataDir}, not the temp folder ${dataDir}`);
    return `store opened in ${dataDir}, window loaded, API answered through IPC (${answer.datasets} datasets)`;
  } finally {
    clearTimeout(timer);
  }
}

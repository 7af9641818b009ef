// The Electron door: window options, IPC wiring and the sender check. Kept free of app
// lifecycle so tests can drive it with a stubbed 'electron' module.
import type { BrowserWindowConstructorOptions, IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_NAMES, METHOD_NAMES, type Envelope } from '../../shared/api';
import type { Core } from '../facade/core';
import { toErrorPayload } from '../core/errors';

export const IPC_PREFIX = 'api:';
export const EVENT_CHANNEL = 'api-event';

export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Judge Lab',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/**
 * Only our own page may call the API: the exact renderer file the window loads (any file://
 * page would include a downloaded HTML file opened in a frame), or the dev server
 * electron-vite starts (ELECTRON_RENDERER_URL) during development. The hash is the app's
 * route, so it may differ.
 */
export function makeSenderCheck(pageUrl: string, devServerUrl?: string) {
  const page = withoutHash(pageUrl);
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : undefined;
  return (event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean => {
    const url = event.senderFrame?.url;
    if (!url) return false;
    if (devOrigin && url.startsWith(devOrigin + '/')) return true;
    return page !== undefined && withoutHash(url) === page;
  };
}

function withoutHash(url: string): string | undefined {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

/** What the window does when its page asks to navigate to `target`. */
export type NavigationAction = 'allow' | 'deny' | 'download';

/**
 * The app never leaves its page: every navigation is denied, except a blob: URL the page itself
 * made. The export buttons save files through `<a download href="blob:…">`; Chromium normally
 * treats that click as a download (no will-navigate, and Electron's default will-download shows
 * a save dialog because no save path is set), but when it treats the click as a navigation
 * instead (Electron issue #44375), denying it would silently drop the file. Such a navigation
 * becomes an explicit download of the same URL, which goes through the same save dialog.
 */
export function navigationAction(target: string, current: string): NavigationAction {
  if (target === current) return 'allow';
  return isOwnBlob(target, current) ? 'download' : 'deny';
}

function isOwnBlob(target: string, current: string): boolean {
  if (!target.startsWith('blob:')) return false;
  let page: URL;
  try {
    page = new URL(current);
  } catch {
    return false;
  }
  const inner = target.slice('blob:'.length);
  // Chromium may name a file:// page's blobs by its opaque origin: blob:null/<uuid>.
  if (page.protocol === 'file:' && inner.startsWith('null/')) return true;
  try {
    const made = new URL(inner);
    return made.protocol === page.protocol && made.host === page.host;
  } catch {
    return false;
  }
}

/** One ipcMain.handle per API method; the core validates the payload. */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  core: Pick<Core, 'call'>,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): () => void {
  for (const method of METHOD_NAMES) {
    ipcMain.handle(IPC_PREFIX + method, async (event, params: unknown): Promise<Envelope<unknown>> => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'invalid_params', message: 'Untrusted sender' } };
      }
      try {
        return { ok: true, result: (await core.call(method, params)) ?? null };
      } catch (err) {
        return { ok: false, error: toErrorPayload(err) };
      }
    });
  }
  return () => METHOD_NAMES.forEach((m) => ipcMain.removeHandler(IPC_PREFIX + m));
}

/** Pushes every core event to the window. */
export function forwardEvents(core: Pick<Core, 'onAny'>, target: () => WebContents | undefined): () => void {
  return core.onAny((event, payload) => {
    const wc = target();
    if (wc && !wc.isDestroyed()) wc.send(EVENT_CHANNEL, { event, payload });
  });
}

export { EVENT_NAMES };

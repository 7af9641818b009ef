// The Electron door: window options, IPC wiring and the sender check. Kept free of app
// lifecycle so tests can drive it with a stubbed 'electron' module.
import type { BrowserWindowConstructorOptions, IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_NAMES, METHOD_NAMES, type Envelope } from '../../shared/api';
import type { Core } from '../facade/core';
import { toErrorPayload } from '../base/errors';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

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
  /** Sees each successful result (the shell notes the folders exports were written to). */
  afterCall?: (method: string, result: unknown) => void,
): () => void {
  for (const method of METHOD_NAMES) {
    ipcMain.handle(IPC_PREFIX + method, async (event, params: unknown): Promise<Envelope<unknown>> => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'invalid_params', message: 'Untrusted sender' } };
      }
      try {
        const result = (await core.call(method, params)) ?? null;
        afterCall?.(method, result);
        return { ok: true, result };
      } catch (err) {
        return { ok: false, error: toErrorPayload(err) };
      }
    });
  }
  return () => METHOD_NAMES.forEach((m) => ipcMain.removeHandler(IPC_PREFIX + m));
}

/** The desktop-only calls (not in the core API: they need the OS), on their own channels. */
export const DESKTOP_CHANNELS = {
  chooseFolder: 'desktop:chooseFolder',
  openFolder: 'desktop:openFolder',
} as const;

export interface DesktopShell {
  /** The OS folder picker; null when the person cancels. */
  chooseFolder(): Promise<string | null>;
  /** shell.openPath: resolves with '' on success, else an error message. */
  openPath(path: string): Promise<string>;
}

/**
 * "Export all" on desktop: a folder picker, and "Open folder" afterwards. Only folders the
 * person chose or an export was written to may be opened (never any path a page names: opening
 * a file would run it), and only when they are folders.
 */
export function registerDesktopIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  desktop: DesktopShell,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
  openable: Set<string>,
): () => void {
  const refuse = (message: string): Envelope<never> => ({
    ok: false,
    error: { code: 'invalid_params', message },
  });
  ipcMain.handle(DESKTOP_CHANNELS.chooseFolder, async (event): Promise<Envelope<string | null>> => {
    if (!isTrustedSender(event)) return refuse('Untrusted sender');
    const dir = await desktop.chooseFolder();
    if (dir) openable.add(resolve(dir));
    return { ok: true, result: dir };
  });
  ipcMain.handle(DESKTOP_CHANNELS.openFolder, async (event, path: unknown): Promise<Envelope<null>> => {
    if (!isTrustedSender(event)) return refuse('Untrusted sender');
    const dir = typeof path === 'string' ? resolve(path) : '';
    if (!openable.has(dir) || !isDirectory(dir)) return refuse('Only an export folder can be opened.');
    const error = await desktop.openPath(dir);
    return error ? { ok: false, error: { code: 'internal', message: error } } : { ok: true, result: null };
  });
  return () => Object.values(DESKTOP_CHANNELS).forEach((c) => ipcMain.removeHandler(c));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Pushes every core event to the window. */
export function forwardEvents(core: Pick<Core, 'onAny'>, target: () => WebContents | undefined): () => void {
  return core.onAny((event, payload) => {
    const wc = target();
    if (wc && !wc.isDestroyed()) wc.send(EVENT_CHANNEL, { event, payload });
  });
}

export { EVENT_NAMES };

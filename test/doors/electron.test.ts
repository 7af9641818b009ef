import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { navigationAction } from '../../src/main/doors/electron-door';
import { METHOD_NAMES } from '../../src/shared/api';
import { tempDir } from '../helpers/tmp';

// A stand-in for the 'electron' module: Electron itself cannot run on these machines,
// so this records what the shell asks of it.
const h = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown, params: unknown) => Promise<unknown>>();
  const windows: { options: Record<string, unknown>; loaded?: string; handlers: Record<string, unknown> }[] =
    [];
  const appHandlers: Record<string, (...a: unknown[]) => void> = {};
  const state = { userData: '', readyResolve: (() => {}) as () => void };
  const ready = new Promise<void>((r) => (state.readyResolve = r));
  class BrowserWindow {
    static getAllWindows = () => windows;
    webContents = { send: vi.fn(), isDestroyed: () => false };
    rec: (typeof windows)[number];
    constructor(options: Record<string, unknown>) {
      this.rec = { options, handlers: {} };
      windows.push(this.rec);
    }
    once(ev: string, fn: unknown) {
      this.rec.handlers[ev] = fn;
    }
    loadFile(f: string) {
      this.rec.loaded = f;
      return Promise.resolve();
    }
    loadURL(u: string) {
      this.rec.loaded = u;
      return Promise.resolve();
    }
  }
  // The folder picker answers with whatever the test sets; openPath records what it opened.
  const picked = { dir: null as string | null };
  const showOpenDialog = vi.fn(async () =>
    picked.dir ? { canceled: false, filePaths: [picked.dir] } : { canceled: true, filePaths: [] },
  );
  const openPath = vi.fn(async (_path: string) => '');
  return { handlers, windows, appHandlers, state, ready, BrowserWindow, picked, showOpenDialog, openPath };
});

vi.mock('electron', () => ({
  app: {
    setName: vi.fn(),
    getPath: () => h.state.userData,
    whenReady: () => h.ready,
    on: (ev: string, fn: (...a: unknown[]) => void) => (h.appHandlers[ev] = fn),
    quit: vi.fn(),
  },
  BrowserWindow: h.BrowserWindow,
  ipcMain: {
    handle: (ch: string, fn: (event: unknown, params: unknown) => Promise<unknown>) => h.handlers.set(ch, fn),
    removeHandler: (ch: string) => h.handlers.delete(ch),
  },
  session: { defaultSession: { setPermissionRequestHandler: vi.fn() } },
  // A reversible stand-in for the OS keychain, so stored keys can be checked to be unreadable as text.
  safeStorage: {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
    decryptString: (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  },
  shell: { openExternal: vi.fn(), openPath: h.openPath },
  dialog: { showOpenDialog: h.showOpenDialog, showErrorBox: vi.fn() },
}));

let cleanup: () => void;
beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  h.state.userData = t.dir;
  delete process.env.JUDGE_LAB_HOME;
  delete process.env.ELECTRON_RENDERER_URL;
  await import('../../src/main/index');
  h.state.readyResolve();
  await h.ready;
  await new Promise((r) => setTimeout(r, 50));
});
afterAll(async () => {
  h.appHandlers['before-quit']?.({ preventDefault: () => {} });
  await new Promise((r) => setTimeout(r, 50));
  cleanup();
});

// The window's own page, exactly as the shell loaded it.
const appFrame = {
  get senderFrame() {
    return { url: pathToFileURL(h.windows[0].loaded!).href };
  },
};

describe('Electron door (stubbed electron)', () => {
  it('opens one secure window: isolated, sandboxed, no node integration, preload set', () => {
    expect(h.windows).toHaveLength(1);
    const prefs = h.windows[0].options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(String(prefs.preload)).toMatch(/preload[\\/]index\.cjs$/);
    expect(h.windows[0].loaded).toMatch(/renderer[\\/]index\.html$/);
  });

  it('registers one IPC handler per API method, the two desktop calls, and nothing else', () => {
    expect([...h.handlers.keys()].sort()).toEqual(
      [...METHOD_NAMES.map((m) => `api:${m}`), 'desktop:chooseFolder', 'desktop:openFolder'].sort(),
    );
  });

  it('Export all on desktop: a folder picker, then "Open folder" for that folder only', async () => {
    const t = tempDir();
    try {
      h.picked.dir = t.dir;
      expect(await h.handlers.get('desktop:chooseFolder')!(appFrame, undefined)).toEqual({
        ok: true,
        result: t.dir,
      });
      expect(h.showOpenDialog).toHaveBeenCalled();
      expect(await h.handlers.get('desktop:openFolder')!(appFrame, t.dir)).toEqual({
        ok: true,
        result: null,
      });
      expect(h.openPath).toHaveBeenCalledWith(t.dir);
      // Any other path (a file would be run, not shown) is refused, as is a foreign page.
      h.openPath.mockClear();
      const other = await h.handlers.get('desktop:openFolder')!(appFrame, join(t.dir, '..'));
      expect(other).toMatchObject({ ok: false, error: { message: 'Only an export folder can be opened.' } });
      const foreign = await h.handlers.get('desktop:openFolder')!(
        { senderFrame: { url: 'https://evil.example/' } },
        t.dir,
      );
      expect(foreign).toMatchObject({ ok: false, error: { message: 'Untrusted sender' } });
      expect(h.openPath).not.toHaveBeenCalled();
      // Cancelled: null, nothing becomes openable.
      h.picked.dir = null;
      expect(await h.handlers.get('desktop:chooseFolder')!(appFrame, undefined)).toEqual({
        ok: true,
        result: null,
      });
    } finally {
      t.cleanup();
    }
  });

  it('runs calls from the app page through the core', async () => {
    const res = await h.handlers.get('api:app.info')!(appFrame, undefined);
    expect(res).toMatchObject({ ok: true, result: { door: 'electron', dataDir: h.state.userData } });
  });

  it('refuses calls from a foreign frame', async () => {
    const res = await h.handlers.get('api:datasets.list')!(
      { senderFrame: { url: 'https://evil.example/' } },
      undefined,
    );
    expect(res).toMatchObject({ ok: false, error: { message: 'Untrusted sender' } });
    const otherFile = await h.handlers.get('api:datasets.list')!(
      { senderFrame: { url: 'file:///tmp/downloaded.html' } },
      undefined,
    );
    expect(otherFile).toMatchObject({ ok: false, error: { message: 'Untrusted sender' } });
    const none = await h.handlers.get('api:datasets.list')!({ senderFrame: null }, undefined);
    expect(none).toMatchObject({ ok: false });
  });

  it('stores a key encrypted through safeStorage and never returns it', async () => {
    const set = await h.handlers.get('api:keys.set')!(appFrame, {
      name: 'OPENAI_API_KEY',
      value: 'sk-secret-123',
    });
    expect(set).toEqual({ ok: true, result: { stored: ['OPENAI_API_KEY'] } });
    const file = readFileSync(join(h.state.userData, 'keys.json'), 'utf8');
    expect(file).not.toContain('sk-secret-123');
    const status = await h.handlers.get('api:keys.status')!(appFrame, undefined);
    expect(JSON.stringify(status)).not.toContain('sk-secret');
    const key = await h.handlers.get('api:providers.keyStatus')!(appFrame, {
      providers: { openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' } },
    });
    expect(key).toEqual({ ok: true, result: { openai: 'set' } });
  });

  it('validates payloads: bad parameters come back as an error envelope', async () => {
    const res = await h.handlers.get('api:items.get')!(appFrame, { itemId: -1, extra: true });
    expect(res).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
  });

  it('denies navigation, except a blob: export of its own page, which becomes a download', () => {
    type Listener = (event: { preventDefault: () => void }, url: string) => void;
    const listeners: Record<string, Listener> = {};
    const page = 'file:///app/out/renderer/index.html';
    const contents = {
      setWindowOpenHandler: vi.fn(),
      on: (ev: string, fn: Listener) => (listeners[ev] = fn),
      getURL: () => page,
      downloadURL: vi.fn(),
    };
    h.appHandlers['web-contents-created']({}, contents);
    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      listeners['will-navigate'](event, url);
      return event.preventDefault.mock.calls.length > 0;
    };

    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('blob:https://evil.example/4f1c')).toBe(true);
    expect(contents.downloadURL).not.toHaveBeenCalled();

    expect(navigate('blob:file:///0b6d1f5e-1f7a-4c55-9a0e-4b0b5d1f2a11')).toBe(true);
    expect(contents.downloadURL).toHaveBeenCalledWith('blob:file:///0b6d1f5e-1f7a-4c55-9a0e-4b0b5d1f2a11');
    expect(navigate(page)).toBe(false);
  });
});

describe('navigationAction', () => {
  it('turns only same-origin blob: URLs into downloads', () => {
    const dev = 'http://localhost:5173/#/experiments/7/results';
    expect(navigationAction('blob:http://localhost:5173/9c2e', dev)).toBe('download');
    expect(navigationAction('blob:http://localhost:5174/9c2e', dev)).toBe('deny');
    expect(navigationAction('http://localhost:5173/other', dev)).toBe('deny');
    expect(navigationAction(dev, dev)).toBe('allow');
    const file = 'file:///app/out/renderer/index.html';
    expect(navigationAction('blob:null/9c2e', file)).toBe('download');
    expect(navigationAction('blob:null/9c2e', dev)).toBe('deny');
    expect(navigationAction('blob:not a url', file)).toBe('deny');
    expect(navigationAction('javascript:alert(1)', file)).toBe('deny');
  });
});

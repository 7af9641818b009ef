import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../../src/shared/api';

// A stand-in for the 'electron' module (Electron cannot run here). Its page runs the smoke test's
// script for real, with a window.api that does what the preload does: invoke the IPC handler.
const h = vi.hoisted(() => {
  type Handler = (event: unknown, params: unknown) => Promise<unknown>;
  const handlers = new Map<string, Handler>();
  const state = {
    readyResolve: (() => {}) as () => void,
    exitResolve: (() => {}) as (code: number) => void,
    userData: '',
    page: { api: undefined as unknown },
    scripts: [] as string[],
    loaded: undefined as string | undefined,
  };
  const ready = new Promise<void>((r) => (state.readyResolve = r));
  const exited = new Promise<number>((r) => (state.exitResolve = r));
  class BrowserWindow {
    static getAllWindows = () => [];
    webContents = {
      send: () => {},
      isDestroyed: () => false,
      executeJavaScript: (code: string) => {
        state.scripts.push(code);
        return runInNewContext(code, { window: state.page, String });
      },
    };
    once() {}
    loadFile(file: string) {
      state.loaded = file;
      return Promise.resolve();
    }
    loadURL() {
      return Promise.resolve();
    }
  }
  return { handlers, state, ready, exited, BrowserWindow };
});

vi.mock('electron', () => ({
  app: {
    setName: vi.fn(),
    setPath: (name: string, path: string) => {
      if (name === 'userData') h.state.userData = path;
    },
    getPath: () => h.state.userData,
    whenReady: () => h.ready,
    on: vi.fn(),
    quit: vi.fn(),
    exit: (code: number) => h.state.exitResolve(code),
  },
  BrowserWindow: h.BrowserWindow,
  dialog: { showErrorBox: vi.fn() },
  ipcMain: {
    handle: (ch: string, fn: (event: unknown, params: unknown) => Promise<unknown>) => h.handlers.set(ch, fn),
  },
  session: { defaultSession: { setPermissionRequestHandler: vi.fn() } },
  safeStorage: {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(s),
    decryptString: (b: Buffer) => b.toString(),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  },
  shell: { openExternal: vi.fn() },
}));

// The window's own page, exactly as the shell loaded it (the IPC sender check wants that page).
const appFrame = {
  get senderFrame() {
    return { url: pathToFileURL(h.state.loaded!).href };
  },
};
const log = vi.spyOn(console, 'log').mockImplementation(() => {});
const err = vi.spyOn(console, 'error').mockImplementation(() => {});

let code: number;
let dataDir: string;
beforeAll(async () => {
  process.argv.push('--smoke-test');
  delete process.env.JUDGE_LAB_HOME;
  h.state.page.api = {
    async call(method: string, params?: unknown) {
      const envelope = (await h.handlers.get(`api:${method}`)!(appFrame, params)) as Envelope<unknown>;
      if (envelope.ok) return envelope.result;
      throw { name: 'ApiError', ...envelope.error };
    },
  };
  await import('../../src/main/index');
  dataDir = h.state.userData;
  h.state.readyResolve();
  code = await h.exited;
});
afterAll(() => {
  process.argv.splice(process.argv.indexOf('--smoke-test'), 1);
  log.mockRestore();
  err.mockRestore();
});

describe('--smoke-test (stubbed electron)', () => {
  it('uses a fresh temp folder for the profile and the store, and removes it after', () => {
    expect(dataDir).toMatch(/judge-lab-smoke-/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('calls the API from the page through window.api, then exits 0 saying what it proved', () => {
    expect(h.state.scripts).toHaveLength(1);
    expect(h.state.scripts[0]).toContain("window.api.call('app.info')");
    expect(err).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(/^Judge Lab smoke test passed: store opened in .*judge-lab-smoke-/),
    );
    expect(code).toBe(0);
  });
});

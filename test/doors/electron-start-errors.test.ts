import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/tmp';

// A stand-in for the 'electron' module (Electron cannot run here), started as a checkout whose
// Electron build of better-sqlite3 was never made (process.versions.electron names a version
// nothing was built for).
const h = vi.hoisted(() => {
  const state = {
    readyResolve: (() => {}) as () => void,
    exitResolve: (() => {}) as (code: number) => void,
    windows: 0,
    errorBoxes: [] as { title: string; content: string }[],
  };
  const ready = new Promise<void>((r) => (state.readyResolve = r));
  const exited = new Promise<number>((r) => (state.exitResolve = r));
  class BrowserWindow {
    static getAllWindows = () => [];
    constructor() {
      state.windows++;
    }
  }
  return { state, ready, exited, BrowserWindow };
});

vi.mock('electron', () => ({
  app: {
    setName: vi.fn(),
    setPath: vi.fn(),
    getPath: () => '',
    whenReady: () => h.ready,
    on: vi.fn(),
    quit: vi.fn(),
    exit: (code: number) => h.state.exitResolve(code),
  },
  BrowserWindow: h.BrowserWindow,
  dialog: {
    showErrorBox: (title: string, content: string) => h.state.errorBoxes.push({ title, content }),
  },
  ipcMain: { handle: vi.fn() },
  session: { defaultSession: { setPermissionRequestHandler: vi.fn() } },
  safeStorage: {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(s),
    decryptString: (b: Buffer) => b.toString(),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  },
  shell: { openExternal: vi.fn() },
}));

const err = vi.spyOn(console, 'error').mockImplementation(() => {});
let code: number;
let cleanup: () => void;
beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  process.env.JUDGE_LAB_HOME = t.dir;
  Object.defineProperty(process.versions, 'electron', { value: '0.0.0-never-built', configurable: true });
  await import('../../src/main/index');
  h.state.readyResolve();
  code = await h.exited;
});
afterAll(() => {
  delete (process.versions as Record<string, string | undefined>).electron;
  delete process.env.JUDGE_LAB_HOME;
  err.mockRestore();
  cleanup();
});

describe('starting the desktop app without its Electron build of better-sqlite3', () => {
  it('says what to run in a dialog instead of a stack trace, and exits 1 without a window', () => {
    expect(h.state.errorBoxes).toHaveLength(1);
    const { title, content } = h.state.errorBoxes[0];
    expect(title).toBe('Judge Lab cannot start');
    expect(content).toContain('npm run setup:electron');
    expect(content).toContain('better-sqlite3-');
    expect(content).not.toMatch(/\n\s+at /);
    expect(err).toHaveBeenCalledWith(expect.stringContaining('npm run setup:electron'));
    expect(h.state.windows).toBe(0);
    expect(code).toBe(1);
  });
});

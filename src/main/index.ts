// The Electron shell: lifecycle, the secure window and the IPC door. Everything it does
// is the core's work; this file only wires it (and is the only one importing electron).
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session, shell } from 'electron';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Core } from './facade/core';
import { EncryptedFileKeyStore, type Encryptor } from './providers/key-store';
import { APP_NAME } from './base/paths';
import { useLaptopHeap } from './base/heap';
import {
  forwardEvents,
  makeSenderCheck,
  navigationAction,
  registerDesktopIpc,
  registerIpc,
  windowOptions,
} from './doors/electron-door';
import { isSmokeTest, smokeTestPage } from './doors/electron-smoke-test';
import { ElectronBindingMissingError } from './store/native-binding';

// Links in model text or docs may open in the browser only for these hosts.
const EXTERNAL_ALLOW = [/^https:\/\/github\.com\//, /^https:\/\/arxiv\.org\//];

app.setName(APP_NAME);
const smokeTest = isSmokeTest();
// A throwaway profile and store, so a smoke test never reads or changes the user's data.
const smokeDir = smokeTest ? mkdtempSync(join(tmpdir(), 'judge-lab-smoke-')) : undefined;
if (smokeDir) app.setPath('userData', smokeDir);
let core: Core | undefined;
let mainWindow: BrowserWindow | undefined;
let windowLoaded: Promise<void> = Promise.resolve();

// The packaged renderer page; the only file:// page whose IPC calls are trusted.
const PAGE_FILE = fileURLToPath(new URL('../renderer/index.html', import.meta.url));

function createWindow(): BrowserWindow {
  const preload = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
  const win = new BrowserWindow(windowOptions(preload));
  win.once('ready-to-show', () => win.show());
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  windowLoaded = devUrl ? win.loadURL(devUrl) : win.loadFile(PAGE_FILE);
  windowLoaded.catch(() => {}); // a failed load shows in the window; the smoke test reports it
  return win;
}

function hardenContents(): void {
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (EXTERNAL_ALLOW.some((re) => re.test(url))) void shell.openExternal(url);
      return { action: 'deny' };
    });
    // Navigation stays denied, but a blob: download of our own export must not be blocked:
    // see navigationAction. Downloads need no will-download handler: with no save path set,
    // Electron asks where to save with its own save dialog (DownloadItem.setSavePath docs).
    contents.on('will-navigate', (event, url) => {
      const action = navigationAction(url, contents.getURL());
      if (action === 'allow') return;
      event.preventDefault();
      if (action === 'download') contents.downloadURL(url);
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, callback) => callback(false));
}

/** The OS keychain through safeStorage; keys typed in the app are stored only this way. */
const keychain: Encryptor = {
  isAvailable: () => safeStorage.isEncryptionAvailable(),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (cipher) => safeStorage.decryptString(cipher),
  backend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os'),
};

function finish(code: number): void {
  if (smokeDir) rmSync(smokeDir, { recursive: true, force: true });
  app.exit(code);
}

/** A start that cannot go on says why (and, for a missing build, what to run), not a stack trace. */
function failStart(err: unknown): void {
  const message =
    err instanceof ElectronBindingMissingError
      ? err.message
      : err instanceof Error
        ? (err.stack ?? err.message)
        : String(err);
  console.error(`Judge Lab cannot start: ${message}`);
  if (!smokeTest) dialog.showErrorBox('Judge Lab cannot start', message);
  finish(1);
}

async function runSmokeTest(dataDir: string, win: BrowserWindow): Promise<void> {
  let code = 0;
  try {
    console.log(
      `Judge Lab smoke test passed: ${await smokeTestPage(windowLoaded, win.webContents, dataDir)}`,
    );
  } catch (err) {
    console.error(`Judge Lab smoke test failed: ${err instanceof Error ? err.message : String(err)}`);
    code = 1;
  }
  await core?.shutdown().catch(() => {});
  finish(code);
}

void app
  .whenReady()
  .then(startApp)
  .catch((err: unknown) => failStart(err));

function startApp(): void {
  hardenContents();
  const dataDir = smokeDir ?? process.env.JUDGE_LAB_HOME ?? app.getPath('userData');
  const keys = new EncryptedFileKeyStore(join(dataDir, 'keys.json'), keychain);
  const warning = keys.status().warning;
  if (warning) console.warn(`Judge Lab: ${warning}`);
  useLaptopHeap();
  core = new Core({ dataDir, door: 'electron', keys });
  const trusted = makeSenderCheck(pathToFileURL(PAGE_FILE).href, process.env.ELECTRON_RENDERER_URL);
  // Folders "Open folder" may open: the ones the person picked and the ones exports went to.
  const openable = new Set<string>();
  registerIpc(ipcMain, core, trusted, (method, result) => {
    if (method === 'experiments.export') openable.add(resolve((result as { dir: string }).dir));
  });
  registerDesktopIpc(
    ipcMain,
    {
      chooseFolder: async () => {
        const options = {
          properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
        };
        const r = mainWindow
          ? await dialog.showOpenDialog(mainWindow, options)
          : await dialog.showOpenDialog(options);
        return r.canceled ? null : (r.filePaths[0] ?? null);
      },
      openPath: (path) => shell.openPath(path),
    },
    trusted,
    openable,
  );
  forwardEvents(core, () => mainWindow?.webContents);
  mainWindow = createWindow();
  if (smokeTest) void runSmokeTest(dataDir, mainWindow);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Let calls on the wire finish and be recorded before the process goes.
let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !core) return;
  event.preventDefault();
  quitting = true;
  void core.shutdown().finally(() => app.quit());
});

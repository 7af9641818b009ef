// The Electron shell: lifecycle, the secure window and the IPC door. Everything it does
// is the core's work; this file only wires it (and is the only one importing electron).
import { app, BrowserWindow, ipcMain, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Core } from './core/core';
import { EncryptedFileKeyStore, type Encryptor } from './core/key-store';
import { APP_NAME } from './core/paths';
import {
  forwardEvents,
  makeSenderCheck,
  navigationAction,
  registerIpc,
  windowOptions,
} from './doors/electron-door';

// Links in model text or docs may open in the browser only for these hosts.
const EXTERNAL_ALLOW = [/^https:\/\/github\.com\//, /^https:\/\/arxiv\.org\//];

app.setName(APP_NAME);
let core: Core | undefined;
let mainWindow: BrowserWindow | undefined;

// The packaged renderer page; the only file:// page whose IPC calls are trusted.
const PAGE_FILE = fileURLToPath(new URL('../renderer/index.html', import.meta.url));

function createWindow(): BrowserWindow {
  const preload = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
  const win = new BrowserWindow(windowOptions(preload));
  win.once('ready-to-show', () => win.show());
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(PAGE_FILE);
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

void app.whenReady().then(() => {
  hardenContents();
  const dataDir = process.env.JUDGE_LAB_HOME ?? app.getPath('userData');
  const keys = new EncryptedFileKeyStore(join(dataDir, 'keys.json'), keychain);
  const warning = keys.status().warning;
  if (warning) console.warn(`Judge Lab: ${warning}`);
  core = new Core({ dataDir, door: 'electron', keys });
  registerIpc(
    ipcMain,
    core,
    makeSenderCheck(pathToFileURL(PAGE_FILE).href, process.env.ELECTRON_RENDERER_URL),
  );
  forwardEvents(core, () => mainWindow?.webContents);
  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
});

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

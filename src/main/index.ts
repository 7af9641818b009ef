// The Electron shell: lifecycle, the secure window and the IPC door. Everything it does
// is the core's work; this file only wires it (and is the only one importing electron).
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { Core } from './core/core';
import { APP_NAME } from './core/paths';
import { forwardEvents, makeSenderCheck, registerIpc, windowOptions } from './doors/electron-door';

// Links in model text or docs may open in the browser only for these hosts.
const EXTERNAL_ALLOW = [/^https:\/\/github\.com\//, /^https:\/\/arxiv\.org\//];

app.setName(APP_NAME);
let core: Core | undefined;
let mainWindow: BrowserWindow | undefined;

function createWindow(): BrowserWindow {
  const preload = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
  const win = new BrowserWindow(windowOptions(preload));
  win.once('ready-to-show', () => win.show());
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(fileURLToPath(new URL('../renderer/index.html', import.meta.url)));
  return win;
}

function hardenContents(): void {
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (EXTERNAL_ALLOW.some((re) => re.test(url))) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (url !== contents.getURL()) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, callback) => callback(false));
}

void app.whenReady().then(() => {
  hardenContents();
  core = new Core({ dataDir: process.env.JUDGE_LAB_HOME ?? app.getPath('userData'), door: 'electron' });
  registerIpc(ipcMain, core, makeSenderCheck(process.env.ELECTRON_RENDERER_URL));
  forwardEvents(core, () => mainWindow?.webContents);
  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', () => core?.close());

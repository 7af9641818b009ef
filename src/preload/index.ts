// Exposes the typed API as window.api and nothing else. Sandboxed: only 'electron' here.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { METHOD_NAMES, type ApiClient, type Envelope, type MethodName } from '../shared/api';

const METHODS = new Set<string>(METHOD_NAMES);

const api: ApiClient = {
  async call(method: MethodName, ...params: unknown[]) {
    if (!METHODS.has(method)) throw new Error(`Unknown method "${method}"`);
    const envelope = (await ipcRenderer.invoke(`api:${method}`, params[0])) as Envelope<never>;
    if (envelope.ok) return envelope.result;
    // contextBridge copies only the message of an Error; a plain object keeps code and issues.
    throw { name: 'ApiError', ...envelope.error };
  },
  on(event, listener) {
    const handler = (_e: IpcRendererEvent, msg: { event: string; payload: never }) => {
      if (msg.event === event) listener(msg.payload);
    };
    ipcRenderer.on('api-event', handler);
    return () => ipcRenderer.removeListener('api-event', handler);
  },
} as ApiClient;

contextBridge.exposeInMainWorld('api', api);

/** Desktop-only: the folder picker of "Export all" and "Open folder" (see registerDesktopIpc). */
async function desktopCall<T>(channel: string, arg?: unknown): Promise<T> {
  const envelope = (await ipcRenderer.invoke(channel, arg)) as Envelope<T>;
  if (envelope.ok) return envelope.result;
  throw { name: 'ApiError', ...envelope.error };
}
contextBridge.exposeInMainWorld('desktop', {
  chooseFolder: () => desktopCall<string | null>('desktop:chooseFolder'),
  openFolder: (path: string) => desktopCall<null>('desktop:openFolder', path),
});

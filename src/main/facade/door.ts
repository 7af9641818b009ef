// The core as a door holds it: the API (`call` with its schemas, the events) and closing it.
// The CLI's commands get only this type, so they reach the app the way the web and Electron
// doors do and never the services behind the API (eslint.config.mjs keeps `Core` out of cli/).
import { useLaptopHeap } from '../base/heap';
import { Core, type CoreOptions } from './core';

export type CoreDoor = Pick<Core, 'call' | 'on' | 'onAny' | 'shutdown' | 'dataDir' | 'readOnlyNote'>;

/** The core of a process that is the app (the CLI and `serve`): the process's heap policy too. */
export function openCore(opts: CoreOptions): CoreDoor {
  useLaptopHeap();
  return new Core(opts);
}

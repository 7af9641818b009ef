import { create } from 'zustand';

/** Whether the live event stream is up: null until it first connects (or in Electron, where IPC cannot drop). */
export const useConnection = create<{ connected: boolean | null }>(() => ({ connected: null }));

export function setConnected(connected: boolean): void {
  useConnection.setState({ connected });
}

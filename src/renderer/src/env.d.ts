/// <reference types="vite/client" />
import type { ApiClient } from '../../shared/api';

declare global {
  interface Window {
    /** Set by the Electron preload; absent when the app runs in a browser (web door). */
    api?: ApiClient;
  }
}

export {};

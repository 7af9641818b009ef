import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * `electron-vite dev` serves the renderer with React Fast Refresh, which needs an inline
 * preamble script and a WebSocket to the dev server. Only in dev, relax the page's CSP for
 * exactly that; production builds keep `script-src 'self'`.
 */
function devCsp(): Plugin {
  return {
    name: 'judge-lab-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*"),
  };
}

// The main build has four entries: the Electron shell, the CLI/web door, which runs under
// plain Node and must never pull in 'electron', the CLI's PNG worker (report/png-pool.ts), and
// the token-counting worker's starter that `judge-lab run` loads before the CLI (bin/judge-lab.mjs).
export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          'png-worker': resolve(__dirname, 'src/main/report/png-worker.ts'),
          'counting-ahead': resolve(__dirname, 'src/main/facade/counting-ahead.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // Sandboxed preloads cannot use ESM.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [react(), devCsp()],
  },
});

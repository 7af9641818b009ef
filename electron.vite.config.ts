import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { asciiOnlyJs } from './scripts/ascii-js.mjs';

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

/**
 * ECharts' one-file build beside the main bundle, with its non-ASCII characters escaped, for the
 * export's SVGs (src/main/report/figures.ts loads it in place of the package's file): held as
 * one-byte text in V8, 1.1 MiB instead of 2.1 (scripts/ascii-js.mjs).
 */
function echartsAscii(): Plugin {
  return {
    name: 'judge-lab-echarts-ascii',
    apply: 'build',
    generateBundle() {
      const file = createRequire(import.meta.url).resolve('echarts/dist/echarts.min.js');
      this.emitFile({
        type: 'asset',
        fileName: 'echarts.min.cjs',
        source: asciiOnlyJs(readFileSync(file, 'utf8')),
      });
    },
  };
}

// The main build has four entries: the Electron shell, the CLI/web door, which runs under
// plain Node and must never pull in 'electron', the CLI's PNG worker (report/png-pool.ts), and
// the token-counting worker's starter that `judge-lab run` loads before the CLI (bin/judge-lab.mjs).
export default defineConfig({
  main: {
    build: {
      // zod is bundled, the other packages are loaded from node_modules: zod 4's entry loads all
      // of its ~40 message locales (0.5 MiB of source, ~3 MiB of heap with their code), which
      // the app never uses; bundled, only what the schemas use is kept (issue 39: the position
      // study's run 117-122 -> 105-111 MiB).
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          'png-worker': resolve(__dirname, 'src/main/report/png-worker.ts'),
          'counting-ahead': resolve(__dirname, 'src/main/facade/counting-ahead.ts'),
        },
        // One-byte text in V8: a chunk with one character beyond Latin-1 (a "→", a Chinese
        // string) is held as two bytes a character for as long as its functions live, and the doc
        // comments, whose text the app never reads, are left out (issue 39: the core chunk 2.2 MiB
        // of the heap instead of 1.0).
        output: { charset: 'ascii', comments: { legal: true, annotation: true, jsdoc: false } },
      },
    },
    plugins: [echartsAscii()],
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

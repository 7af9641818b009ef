import { availableParallelism } from 'node:os';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { LongFirstSequencer } from './test/helpers/long-first-sequencer.mjs';

// Vitest's default is one worker fewer than the cores: on a 2-core machine one worker, so every file
// ran after the other, and the e2e project (one file at a time) only after all the rest. Most of a
// file's wall time is waiting (mock-provider latency, rate limits, a child process, Chromium), so two
// workers pay off even on two cores; a third keeps a core busy while two files wait on a mock's rate
// limit, a child process or Chromium (measured on 2 cores: see DESIGN §10), and a fourth does too:
// with three, the whole run used 1.33 of the 2 cores on average (vitest 594 s); with four, 1.49
// and 546 s, every test passing. `--maxWorkers` on the command line still overrides this.
const maxWorkers = Math.max(4, availableParallelism() + 2);

// Waits are give-up points, not measurements: `expect.poll` defaults to 1 s, which a loaded machine
// overshoots while nothing is wrong. Tests that need longer say so themselves.
const poll = { timeout: 30_000, interval: 50 };

// Long files start first (test/helpers/long-first-sequencer.ts). A sequencer in the config wins over
// `--sequence.shuffle.files` on the command line, so a shuffled run (files may not rely on their
// order, checked with several seeds) leaves it out.
const shuffleFiles = process.argv.some((a) => a.startsWith('--sequence.shuffle'));

// Settings of the node projects (the app's main-process code, the CLI, the stores).
const nodeProject = {
  environment: 'node',
  pool: 'forks',
  // Give-up points, not expectations: a file that takes 10 s on an idle machine takes minutes
  // at load 20 on two cores (measured), and setup hooks run studies and start servers.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  expect: { poll },
  // GitHub's workflow parser imports its schema JSON without an import attribute, which
  // Node refuses; letting Vite load the package handles the JSON.
  server: { deps: { inline: ['@actions/workflow-parser'], external: [/[/\\]out[/\\]main[/\\]/] } },
} satisfies ViteUserConfig['test'];

// Files that must not share a process: the electron door's replace a module for the whole file
// (`vi.mock`); native-binding's needs the store module's binding choice not yet made (a module
// keeps it once a store was opened, and under Electron it must be made with Electron's version).
const ownProcess = [
  'test/doors/electron.test.ts',
  'test/doors/electron-smoke.test.ts',
  'test/doors/electron-start-errors.test.ts',
  'test/store/native-binding.test.ts',
];

export default defineConfig({
  test: {
    maxWorkers,
    sequence: shuffleFiles ? {} : { sequencer: LongFirstSequencer },
    projects: [
      {
        test: {
          ...nodeProject,
          name: 'node',
          include: ['src/main/**/*.test.ts', 'src/shared/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/e2e/**', ...ownProcess],
          // One process per worker runs file after file with the modules it loaded kept: loading
          // the app's modules again for every file was ~40% of the node files' CPU time (measured:
          // 43 files, 82 CPU-s isolated, 34 CPU-s not). Files share the process, so a file leaves
          // it as it found it: no module mocks, env and cwd restored (`runCliInProcess` does),
          // test-only protocols unregistered, servers closed.
          isolate: false,
        },
      },
      {
        test: {
          ...nodeProject,
          name: 'node-isolated',
          // Files that mock modules (electron) get a process of their own.
          include: ownProcess,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/renderer/**/*.test.tsx', 'test/protocols/**/*.test.tsx'],
          // As the node project: one process per worker runs file after file with React, i18n and
          // jsdom loaded once (measured: 150 CPU-s isolated, 41 CPU-s not, at load ~20); the setup
          // file puts back what a file leaves in the shared stores, window and storage.
          isolate: false,
          setupFiles: ['src/renderer/src/test/between-files.ts'],
          // Vitest's 5 s default is for an idle machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: { poll },
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          pool: 'forks',
          // One Chromium for the project's files, each connecting with contexts of its own.
          globalSetup: ['test/e2e/helpers/chromium-server.ts'],
          // As the node project: a worker's process runs file after file with the app's modules,
          // Playwright and the helpers loaded once (each file its own server, data folder and
          // browser contexts; the one file that sets env variables deletes them).
          isolate: false,
          // e2e files run beside the other projects' files (and each other): each starts its own
          // server on a free port with its own data folder and its own Chromium, and writes
          // screenshots of its own names. Serial, they ran only after everything else.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll },
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/main/**/*.test.ts', 'src/shared/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          pool: 'forks',
          testTimeout: 60_000,
          // Setup hooks run studies and start servers: on a loaded machine 10 s is not enough.
          hookTimeout: 60_000,
          // GitHub's workflow parser imports its schema JSON without an import attribute, which
          // Node refuses; letting Vite load the package handles the JSON.
          server: { deps: { inline: ['@actions/workflow-parser'], external: [/[/\\]out[/\\]main[/\\]/] } },
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/renderer/**/*.test.tsx', 'test/protocols/**/*.test.tsx'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

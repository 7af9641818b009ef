import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The CLI holds the core as a door does (facade/door.ts), never the class with its services. */
const CLI_CORE_MESSAGE =
  "A CLI command holds a CoreDoor (../facade/door) and calls the API (core.call), not the core's services.";
const CLI_NOT_THE_CORE = { name: '../facade/core', message: CLI_CORE_MESSAGE };
const CLI_NO_LAZY_CORE = {
  selector: 'ImportExpression[source.value=/facade\\/core$/]',
  message: CLI_CORE_MESSAGE,
};

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'bin/**',
      // The build (run beside lint in `npm run checks`) writes its bundled config next to the
      // original for a moment; listed by eslint and gone when read, it failed the run (ENOENT).
      '*.config.ts.*.mjs',
      '*.config.*.timestamp-*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Model text is shown as text, never as HTML.',
        },
      ],
    },
  },
  {
    // Only the Electron door may import electron.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/index.ts', 'src/main/doors/electron*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'] }] },
  },
  {
    // Layers (issue 21, DESIGN.md §1). A protocol's folder imports only the seam (protocols/
    // plugin.ts, types.ts, model-use.ts, host.ts: what the app lends a protocol), the judging
    // kit, src/shared, its own files, node:* and npm packages. Tests beside the code may use
    // real parts (a provider adapter) to exercise it.
    files: ['src/main/protocols/*/**/*.ts'],
    ignores: ['src/main/protocols/*/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!judging/|\\.\\./shared/)',
              message:
                'A protocol imports only the seam (../plugin, ../types, ../model-use, ../host), the judging kit and src/shared.',
            },
            {
              regex: '^\\.\\./(?!plugin$|types$|model-use$|host$|\\.\\./)',
              message:
                'A protocol imports only the seam (../plugin, ../types, ../model-use, ../host), not the registry or another protocol.',
            },
          ],
        },
      ],
    },
  },
  {
    // The store is the bottom of main (above base/ and src/shared): it never imports the services built on it.
    files: ['src/main/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(core|experiments|queue|facade|doors|cli|annotation|datasets|report)(/|$)',
              message:
                'The store never imports core, services or doors: move the shared piece down (base/ or store/).',
            },
          ],
        },
      ],
    },
  },
  {
    // Doors (web, Electron IPC) reach the app only through the facade (Core.call and its schemas);
    // base/ (errors, input limits) and src/shared are below everything.
    files: ['src/main/doors/**/*.ts'],
    ignores: ['src/main/doors/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!facade/|base/|doors/|\\.\\./shared/)',
              message: 'A door imports only the facade (and base/, src/shared): go through Core.call.',
            },
          ],
        },
      ],
    },
  },
  {
    // The CLI is a door too (src/main/cli/): the facade (the core as a door holds it, cli-kit's
    // wording helpers, the config files a command reads, store maintenance), base/ and src/shared.
    // Its lazy runtime.ts and serve-runtime.ts also start the web door for `judge-lab serve`. Not facade/core.ts: the
    // `Core` class reaches the services behind the API (core.experiments…); a command holds a
    // CoreDoor (facade/door.ts) and goes through Core.call and its schemas like the other doors.
    files: ['src/main/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [CLI_NOT_THE_CORE],
          patterns: [
            {
              regex: '^\\.\\./(?!facade/|base/|\\.\\./shared/)',
              message: 'The CLI imports only the facade (and base/, src/shared), like the other doors.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', CLI_NO_LAZY_CORE],
    },
  },
  {
    files: ['src/main/cli/runtime.ts', 'src/main/cli/serve-runtime.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [CLI_NOT_THE_CORE],
          patterns: [
            {
              regex: '^\\.\\./(?!facade/|base/|doors/|\\.\\./shared/)',
              message:
                'The CLI imports only the facade (and base/, src/shared); runtime.ts and serve-runtime.ts may start the web door.',
            },
          ],
        },
      ],
    },
  },
  {
    // The renderer talks to the core only through the typed API; pure code both sides need
    // (report model, protocol types) lives in src/shared.
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/src/main', '../main', '../../main'],
              message: 'The renderer never imports src/main; move pure code to src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared code runs in the renderer too: no Node built-ins, no main.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '**/main/**'],
              message: 'src/shared must stay free of Node and main imports.',
            },
          ],
        },
      ],
    },
  },
);

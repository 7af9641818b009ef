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

/** The renderer never imports main (every block that lists the renderer's imports repeats it). */
const RENDERER_NOT_MAIN = {
  group: ['**/main/**', '**/src/main', '../main', '../../main'],
  message: 'The renderer never imports src/main; move pure code to src/shared.',
};

/**
 * Renderer plug-ins (issue 34, DESIGN.md §1b): a file at `depth` folders below its plug-in's
 * folder (src/renderer/src/protocols/<id>/) may go up `depth` folders and stay in its own folder;
 * one more leaves it, and only to the host (protocols/host.ts), the kits (src/renderer/src/kits/)
 * or src/shared. Import paths are relative, so the rule is written once per depth.
 */
const PLUGIN_DEPTHS = [0, 1, 2, 3, 4];
function rendererPluginLayer(depth) {
  const up = '\\.\\./'.repeat(depth);
  return {
    files: [`src/renderer/src/protocols/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            RENDERER_NOT_MAIN,
            {
              regex: `^${up}\\.\\.(?!/host$|/\\.\\./kits/|/\\.\\./\\.\\./\\.\\./shared/)(/|$)`,
              message:
                'A renderer plug-in imports only the host (protocols/host.ts), the kits (src/renderer/src/kits/), src/shared and its own folder: not a generic module, the registry or another plug-in.',
            },
          ],
        },
      ],
    },
  };
}

/**
 * Generic code asks the protocol registries (protocols/registry.ts) and never names a protocol:
 * it never imports the registering index (protocols/index.ts, which imports every protocol) nor
 * a protocol's folder. Only the composition roots do (issue 34). From outside protocols/ a path
 * reaches it as `…/protocols/<file>`, from the seam's own files as `./<file>`: the seam files
 * named below are the only ones generic code may import there.
 */
const INDEX_MESSAGE =
  "Generic code reads protocols/registry.ts: only the composition root (renderer main.tsx, main facade/core.ts) imports the registering index (protocols/index.ts), and nothing generic imports a protocol's folder.";
function genericLayer(seam, files, seamFiles, ignores) {
  const rule = (regex) => ({
    '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex, message: INDEX_MESSAGE }] }],
  });
  return [
    { files, ignores, rules: rule(`^(\\./|(\\.\\./)+)protocols(/(?!(${seam})$)|$)`) },
    { files: seamFiles, ignores, rules: rule(`^\\.(/(?!(${seam})$)|$)`) },
  ];
}

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
          patterns: [RENDERER_NOT_MAIN],
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
  // After the renderer's block: a plug-in's list replaces it, so it repeats RENDERER_NOT_MAIN.
  ...PLUGIN_DEPTHS.map(rendererPluginLayer),
  // Generic files never import the registering index (issue 34). A rule id of its own
  // (typescript-eslint's twin of no-restricted-imports) adds these patterns to each folder's
  // no-restricted-imports list instead of replacing it. A protocol's folder is left to its own
  // list above, which refuses the index too; tests register what they need.
  ...genericLayer(
    'registry|plugin|types|model-use',
    ['src/main/**/*.ts'],
    ['src/main/protocols/*.ts'],
    ['**/*.test.ts', 'src/main/facade/core.ts', 'src/main/protocols/index.ts', 'src/main/protocols/*/**'],
  ),
  ...genericLayer(
    'registry|ProtocolName',
    ['src/renderer/src/**/*.{ts,tsx}'],
    ['src/renderer/src/protocols/*.{ts,tsx}'],
    [
      '**/*.test.{ts,tsx}',
      'src/renderer/src/main.tsx',
      'src/renderer/src/protocols/index.ts',
      'src/renderer/src/protocols/*/**',
    ],
  ),
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'bin/**'] },
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

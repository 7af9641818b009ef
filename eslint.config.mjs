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
);

/**
 * The project's import-circle check (issue 21), run by `npm run lint` and so by `npm test`.
 * Only circles are checked here; the layer rules (which folder may import which) live in
 * eslint.config.mjs, where an editor shows them as you type.
 *
 * Type-only imports count: a circle through `import type` still ties two modules together
 * in the reader's head, and it is how most of the circles removed in issue 21 were formed.
 */
/* global module */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import circles are not allowed: move the shared piece one layer down (docs/DESIGN.md §1).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|out|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
    skipAnalysisNotInRules: true,
  },
};

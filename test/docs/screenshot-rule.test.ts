// One rule for e2e screenshots (README, "Testing"): every test saves through saveScreenshot
// (test/helpers/screenshots.ts), which always writes docs/screenshots. A test that calls
// Playwright's screenshot itself, copies files around, or reads its own switch breaks the rule.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('e2e screenshots', () => {
  it('are all saved by saveScreenshot into docs/screenshots, with no switch', () => {
    const offenders: string[] = [];
    for (const file of files(join(ROOT, 'test', 'e2e'))) {
      const text = readFileSync(file, 'utf8');
      text.split('\n').forEach((line, i) => {
        if (/\.screenshot\(|test-results|UPDATE_SCREENSHOTS|DOCS_SCREENSHOTS|docs', 'screenshots'/.test(line))
          offenders.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/saveScreenshot/);
  });
});

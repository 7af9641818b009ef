// The DOM test files share one process per worker (vitest.config.ts, isolate: false), and
// src/renderer/src/test/between-files.ts puts every app store back after each file. A store it
// does not know would carry one file's state into the next, a failure that shows only in some
// file orders: so every store the app creates must be named there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = 'src/renderer/src';
const RESET = join(RENDERER, 'test/between-files.ts');
const STORE = /export const (use\w+) = (?:create\b|createListStore\()/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('the DOM suite between files', () => {
  it('resets every zustand store the app creates', () => {
    const stores = sources(RENDERER).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(STORE)].map((m) => ({ name: m[1], file: f })),
    );
    // The finder itself: the app's stores are there (a changed style of declaring them would
    // otherwise make this test pass on nothing).
    expect(stores.map((s) => s.name)).toEqual(
      expect.arrayContaining(['useWizard', 'useDatasets', 'useRoute']),
    );
    const reset = readFileSync(RESET, 'utf8');
    const missing = stores.filter((s) => !new RegExp(`\\b${s.name}\\b`).test(reset));
    expect(missing, `not reset in ${RESET}`).toEqual([]);
  });
});

// The one rule for e2e screenshots: every test saves through saveScreenshot, which writes
// docs/screenshots/<name>.png, the committed set the README and the issues show. Always, with
// no switch: CI runs on a clean clone, and a local run that changes a picture shows up in
// `git status`, to be committed (the page changed) or discarded.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { assertAxeClean } from './axe';
import { ROOT } from './cli';

export const SCREENSHOT_DIR = join(ROOT, 'docs', 'screenshots');

/**
 * Saves a page (the viewport, or the whole page with fullPage) or one element as
 * docs/screenshots/<name>.png, with animations finished (transitions between themes would
 * otherwise show half-switched), then scans the page with axe-core and throws on any WCAG 2 A/AA
 * violation. Returns the file's path.
 */
export async function saveScreenshot(
  target: Page | Locator,
  name: string,
  opts: {
    fullPage?: boolean;
    /**
     * false: the picture only, no scan. For shootAll's cross looks alone (see there): the same
     * markup is scanned in this scheme in the other language, and in this language in the other scheme.
     */
    scan?: boolean;
  } = {},
): Promise<string> {
  if (name.endsWith('.png') || name.includes('/'))
    throw new Error(`screenshot name "${name}": no folder, no .png`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path, animations: 'disabled', fullPage: opts.fullPage });
  else await target.screenshot({ path, animations: 'disabled' });
  // Every picture is also an accessibility check of the page it shows (the whole page, also for
  // an element's picture): what the suite shows a reader, axe has scanned.
  if (opts.scan !== false) await assertAxeClean('goto' in target ? target : target.page(), name);
  return path;
}

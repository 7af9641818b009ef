import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { saveScreenshot, SCREENSHOT_DIR } from '../../helpers/screenshots';

export type UiLanguage = 'en' | 'zh';
export type Scheme = 'light' | 'dark';

/** Switches the UI language through the header's switch, as a person would. */
export async function switchLanguage(page: Page, lang: UiLanguage): Promise<void> {
  await page.getByTestId('lang-switch').selectOption(lang);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.lang))
    .toBe(lang === 'zh' ? 'zh-CN' : 'en');
}

/** `<name>-<lang>-<scheme>.png` in docs/screenshots (where saveScreenshot writes it). */
export function shotPath(name: string, lang: UiLanguage, scheme: Scheme): string {
  return join(SCREENSHOT_DIR, `${name}-${lang}-${scheme}.png`);
}

/**
 * The page in English and Chinese, light and dark; it is left in English, light.
 * `ready` runs after each switch (e.g. waits for text that the language changes).
 *
 * axe scans two of the four looks, English light and Chinese dark: each scheme's colours and each
 * language's text once. The markup of the two languages is the same but for its text, so a colour
 * clash shows in either language and a missing name in either scheme; the other two scans cost
 * 15 % of the CPU of the e2e files that shoot most (Chromium included; DESIGN §11).
 * test/e2e/a11y.test.ts still scans the app's main pages in all four.
 */
export async function shootAll(
  page: Page,
  name: string,
  ready: (lang: UiLanguage) => Promise<void> = async () => {},
): Promise<string[]> {
  const paths: string[] = [];
  for (const lang of ['en', 'zh'] as const) {
    await switchLanguage(page, lang);
    await ready(lang);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const scan = (lang === 'en') === (scheme === 'light');
      paths.push(await saveScreenshot(page, `${name}-${lang}-${scheme}`, { scan }));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await switchLanguage(page, 'en');
  return paths;
}

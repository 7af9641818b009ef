// Issue 15 item 12 in Chromium: a CSV whose columns are named otherwise (prompt, response_a,
// response_b, winner) opens "Choose columns"; mapped by keyboard and select, it imports and its
// items are there; a second file with the same columns imports with the remembered mapping.
// The screen is axe-clean (WCAG 2 A/AA) in EN/中文 × light/dark, with screenshots of each.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const FIRST = [
  'prompt,response_a,response_b,winner',
  'Name a prime number,7,8,1',
  '"Write ""hello"" in French",Hola,Bonjour,2',
  'What is 2+2?,4,5,1',
].join('\n');
// Same columns, another order and other rows: the remembered mapping applies.
const SECOND = ['winner,response_b,response_a,prompt', '2,Paris,Lyon,Capital of France?'].join('\n');

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let cleanup: () => void;

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  server = await startServe(t.dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cleanup?.();
});

async function importFile(name: string, text: string) {
  await page.getByTestId('import-input').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text, 'utf8'),
  });
}

/** The focused element's test id, and whether its focus shows (outline or box-shadow ring). */
function focused() {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const cs = getComputedStyle(el);
    return {
      testId: el.getAttribute('data-testid'),
      visible: (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== 'none',
    };
  });
}

const shotName = (lang: string, scheme: string) => `import-columns-${lang}-${scheme}`;

describe('choosing columns for a CSV with other column names', () => {
  it('maps the columns with the keyboard, previews the rows, imports them, and the items are there', async () => {
    await page.goto(`${server.url}#/datasets`);
    await page.getByTestId('lang-switch').selectOption('en');
    await importFile('arena.csv', FIRST);
    const chooser = page.getByTestId('column-chooser');
    await chooser.waitFor();
    await expect
      .poll(() => chooser.getByRole('heading', { level: 2 }).innerText())
      .toBe('Choose columns for arena.csv');
    // The heading takes the focus; Tab then walks the kind and each field's select.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await chooser.getByRole('heading', { level: 2 }).getAttribute('id'),
    );
    const order: string[] = [];
    for (const field of ['instruction', 'output_1', 'output_2', 'label']) {
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        const f = await focused();
        expect(f.visible, `focus shows on ${f.testId}`).toBe(true);
        order.push(f.testId ?? '');
        if (f.testId === `column-for-${field}`) break;
      }
      expect(order.at(-1)).toBe(`column-for-${field}`);
    }
    expect(order[0]).toBe('column-kind');
    // The label select, reached by keyboard: arrows choose its last column ("winner").
    await page.keyboard.press('End');
    await expect.poll(() => page.getByTestId('column-for-label').inputValue()).toBe('winner');
    await page.getByTestId('column-for-instruction').selectOption('prompt');
    await page.getByTestId('column-for-output_1').selectOption('response_a');
    await page.getByTestId('column-for-output_2').selectOption('response_b');

    const preview = page.getByTestId('column-preview');
    expect(await preview.locator('thead th').allInnerTexts()).toEqual([
      'instruction',
      'output_1',
      'output_2',
      'label',
    ]);
    expect(await preview.locator('tbody tr').nth(1).locator('td').allInnerTexts()).toEqual([
      'Write "hello" in French',
      'Hola',
      'Bonjour',
      '2',
    ]);

    for (const [lang, scheme] of [
      ['en', 'light'],
      ['en', 'dark'],
      ['zh', 'light'],
      ['zh', 'dark'],
    ] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByTestId('lang-switch').selectOption(lang);
      // Buttons fade between schemes: measure contrast once the colours have settled.
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
      if (lang === 'zh')
        await expect
          .poll(() => chooser.getByRole('heading', { level: 2 }).innerText())
          .toBe('为 arena.csv 选择列');
      await chooser.scrollIntoViewIfNeeded();
      // The picture is also the axe scan of this language and scheme (saveScreenshot).
      await saveScreenshot(page, shotName(lang, scheme));
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('lang-switch').selectOption('en');

    // Import, by keyboard too: focus the button and press Enter.
    await page.getByTestId('column-import').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('import-notice').innerText())
      .toContain('Imported 3 items from arena.csv');
    expect(await page.getByTestId('column-chooser').count()).toBe(0);
    expect(await page.getByTestId('import-mapping-note').innerText()).toContain('same columns');

    await page.getByTestId('dataset-row').filter({ hasText: 'arena.csv' }).getByRole('link').first().click();
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(3);
    expect(await page.getByTestId('item-row').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Name a prime number')]),
    );
  }, 120_000);

  it('imports a second file with the same columns using the remembered mapping', async () => {
    await page.goto(`${server.url}#/datasets`);
    await importFile('arena-2.csv', SECOND);
    await expect
      .poll(() => page.getByTestId('import-notice').innerText())
      .toContain('Imported 1 item from arena-2.csv');
    expect(await page.getByTestId('column-chooser').count()).toBe(0);
    expect(await page.getByTestId('import-mapping-note').innerText()).toContain(
      'prompt → instruction, response_a → output_1, response_b → output_2, winner → label',
    );
    await page
      .getByTestId('dataset-row')
      .filter({ hasText: 'arena-2.csv' })
      .getByRole('link')
      .first()
      .click();
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(1);
    await page.getByTestId('item-row').first().click();
    const viewer = page.getByTestId('item-viewer');
    await viewer.waitFor();
    // response_a is output 1 whatever the column order of this file.
    expect(await viewer.innerText()).toMatch(/Lyon[\s\S]*Paris/);
  }, 60_000);
});

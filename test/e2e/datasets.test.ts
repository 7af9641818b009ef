import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let cleanup: () => void;
let dir: string;
const dialogs: string[] = [];

const shot = (name: string) => saveScreenshot(page, name);

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  server = await startServe(dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cleanup?.();
});

describe('datasets in Chromium via judge-lab serve', () => {
  it('offers the LLMBar sample on first start and loads it', async () => {
    await page.goto(server.url);
    await page.getByTestId('load-sample').click();
    const row = page.getByTestId('dataset-row').first();
    await expect.poll(() => row.getByTestId('dataset-item-count').innerText()).toMatch(/419/);
    await shot('datasets-en-light');
  });

  it('opens the dataset: 419 items, Manual filter gives 46', async () => {
    await page.getByTestId('dataset-row').first().getByRole('link').first().click();
    await expect.poll(() => page.getByTestId('item-count').innerText()).toMatch(/419/);
    expect(await page.getByTestId('item-row').count()).toBeGreaterThan(5);
    // Virtualized: far fewer rows in the DOM than items.
    expect(await page.getByTestId('item-row').count()).toBeLessThan(200);
    await page.getByTestId('subset-filter').selectOption('Manual');
    await expect.poll(() => page.getByTestId('item-count').innerText()).toMatch(/\b46\b/);
    await shot('dataset-manual-filter');
  });

  it('opens an item with instruction, both outputs and the gold label', async () => {
    await page.getByTestId('item-row').first().click();
    const viewer = page.getByTestId('item-viewer');
    await expect.poll(() => viewer.isVisible()).toBe(true);
    expect((await page.getByTestId('item-instruction').innerText()).length).toBeGreaterThan(10);
    expect((await page.getByTestId('item-output-1').innerText()).length).toBeGreaterThan(0);
    expect((await page.getByTestId('item-output-2').innerText()).length).toBeGreaterThan(0);
    expect(await page.getByTestId('gold-label').innerText()).toMatch(/[12]/);
    await shot('item-viewer');
  });

  it('shows model text literally, never as HTML', async () => {
    const file = join(dir, 'xss.jsonl');
    const evil = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    writeFileSync(
      file,
      JSON.stringify({
        id: 'x1',
        subset: 'Evil',
        instruction: 'Say hi',
        output_1: evil,
        output_2: 'hi',
        label: 2,
      }) + '\n',
    );
    await page.goto(server.url);
    await page.getByTestId('import-input').setInputFiles(file);
    await expect.poll(() => page.getByTestId('dataset-row').count()).toBe(2);
    await page.getByTestId('dataset-row').filter({ hasText: 'xss' }).getByRole('link').first().click();
    await page.getByTestId('item-row').first().click();
    await expect.poll(() => page.getByTestId('item-output-1').innerText()).toContain(evil);
    expect(await page.locator('[data-testid="item-output-1"] img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('imports a malformed file and shows an error that names the line and field', async () => {
    const bad = join(dir, 'broken.jsonl');
    writeFileSync(
      bad,
      '{"id":"a","instruction":"i","output_1":"x","output_2":"y","label":1}\n' +
        '{"id":"b","instruction":"i","output_1":"","output_2":"y","label":2}\n',
    );
    await page.goto(server.url);
    await page.getByTestId('import-input').setInputFiles(bad);
    const err = page.getByTestId('import-error');
    await expect.poll(() => err.isVisible()).toBe(true);
    const text = await err.innerText();
    expect(text).toMatch(/broken\.jsonl/);
    expect(text).toMatch(/2/);
    expect(text).toMatch(/output_1/);
    expect(await page.getByTestId('dataset-row').count()).toBe(2);
    await shot('import-error');
  });
});

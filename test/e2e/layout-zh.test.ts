// Issue 15 item 9 in Chromium: at 1280 px the experiments table fits with Delete in view and
// the delete confirmation wraps a long name; in 中文 the status pills stay on one line; the
// charts' titles, axes and legends are Chinese in the 中文 UI (screenshots).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/core/key-store';
import { launchChromium } from '../helpers/browser';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SIM = { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 16 } };
const LONG = 'Cross-lingual judge audit with a long descriptive name for the November replication';

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let cleanup: () => void;
let finished: number;

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const config = (name: string) => ({
    name,
    protocol: 'judge-ls',
    dataset: dataset.id,
    limit: 6,
    providers: SIM,
    transform: { provider: 'sim', model: 'sim-translator' },
    judges: [
      { label: 'sim-judge-strong with a long label', provider: 'sim', model: 'sim-judge-strong' },
      { label: 'sim-judge-weak', provider: 'sim', model: 'sim-judge-weak' },
    ],
  });
  finished = core.experiments.createOrUpdate(config(LONG)).id;
  expect((await core.experiments.runToEnd(finished)).status).toBe('finished');
  core.experiments.createOrUpdate(config('draft study'));
  await core.shutdown();
  server = await startServe(t.dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cleanup?.();
});

async function setLanguage(lang: 'en' | 'zh') {
  await page.getByTestId('lang-switch').selectOption(lang);
}

/** Elements under `selector` whose content is wider than their box (cut off or scrolling). */
async function overflowing(selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.tagName}.${e.className}`),
    );
}

describe('layout at 1280 px and in 中文', () => {
  it('fits the experiments table with Delete in view, and wraps a long name in the delete confirmation', async () => {
    await page.goto(`${server.url}#/experiments`);
    await setLanguage('en');
    await page.getByTestId('experiment-row').first().waitFor();
    expect(await overflowing('.table-wrap')).toEqual([]);
    const row = page.locator(`[data-experiment-id="${finished}"]`);
    const del = row.getByRole('button', { name: 'Delete' });
    const box = (await del.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    await del.click();
    const confirm = row.locator('.confirm');
    await confirm.waitFor();
    expect(await overflowing('.table-wrap')).toEqual([]);
    const text = (await row.locator('.confirm__text').boundingBox())!;
    expect(text.x).toBeGreaterThanOrEqual(0);
    expect(text.x + text.width).toBeLessThanOrEqual(1280);
    await saveScreenshot(page, 'experiments-delete-1280-en-light');
    await row.getByRole('button', { name: 'Cancel' }).click();
  });

  it('keeps 中文 status pills on one line', async () => {
    await page.goto(`${server.url}#/experiments`);
    await setLanguage('zh');
    await page.getByTestId('experiment-row').first().waitFor();
    const heights = await page
      .locator('.badge.status')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(1);
    for (const h of heights) expect(h).toBeLessThan(26);
    await saveScreenshot(page, 'experiments-1280-zh-light');
  });

  it('draws chart titles, axes and legends in Chinese in the 中文 UI', async () => {
    await page.goto(`${server.url}#/experiments/${finished}/results`);
    await setLanguage('zh');
    const chart = page.getByTestId('chart-accuracy_by_language');
    await chart.waitFor();
    await expect.poll(() => chart.locator('svg').innerHTML()).toContain('各语言的评审准确率');
    const svg = await chart.locator('svg').innerHTML();
    expect(svg).toContain('准确率（%）');
    expect(svg).toContain('评审模型');
    expect(svg).not.toContain('Judge accuracy');
    await chart.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'results-charts-zh-light');
    const flips = page.getByTestId('chart-flip_rates');
    await flips.scrollIntoViewIfNeeded();
    expect(await flips.locator('svg').innerHTML()).toContain('判断翻转 EN-ZH');
    await saveScreenshot(page, 'results-flip-chart-zh-light');
    // The export follows the UI language unless another is chosen.
    expect(await page.getByTestId('export-language').first().inputValue()).toBe('zh');
    await setLanguage('en');
  });
});

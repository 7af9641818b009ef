// Reference sensitivity in Chromium through `judge-lab serve`, answered by the built-in simulated
// provider (no key, no mock server): the wizard (protocol, TyDi QA sample, simulated generator,
// a random sample of questions), the run, the results (calibration chart, acceptance heatmap,
// flip bars, every chart marked simulated) and the flip browser with Arabic text read right to
// left. Screenshots EN/中文 × light/dark of each.
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli';
import { shootAll, switchLanguage } from './helpers/screens';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import { callApi, type ServeHandle } from './helpers/serve';
import { downloadBytes } from '../helpers/browser';

const QUESTIONS = 15;

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;
let experimentId: number;
let pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  app = await startKeylessApp({ viewport: { width: 1280, height: 900 }, timeoutMs: 60_000 });
  ({ server, page, pageErrors } = app);
  await callApi(server, 'datasets.loadSample', { sampleId: 'tydiqa' });
});

afterAll(async () => {
  await app?.close();
});

const byTestId = (id: string) => page.getByTestId(id);
const step = (n: number) => page.locator('.stepper__button').nth(n);

describe('reference sensitivity, simulated, in Chromium', () => {
  it('is set up in the wizard: protocol, the TyDi QA sample, a simulated generator and judges', async () => {
    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await byTestId('nav-experiments').click();
    // "Try it without API keys" gives simulated providers and judges; then the protocol changes.
    await byTestId('try-demo').click();
    await expect.poll(() => byTestId('estimate-table').isVisible(), { timeout: 60_000 }).toBe(true);
    await step(1).click();
    await page.locator('label.choice', { hasText: 'Reference sensitivity' }).click();
    await expect
      .poll(() => page.locator('input[name="protocol"][value="reference-sensitivity"]').isChecked())
      .toBe(true);
    await step(0).click();
    const dataset = byTestId('wizard-dataset');
    const tydi = await dataset.locator('option', { hasText: 'TyDi' }).getAttribute('value');
    await dataset.selectOption(tydi!);
    await page.locator('.stepper__button', { hasText: 'Answers' }).click();
    await byTestId('generator-provider').selectOption('simulated');
    await byTestId('generator-model').fill('sim-generator');
    // A second generator, as the CLI and the README's benchmark use several (issue 26 item 2).
    await byTestId('add-generator').click();
    await expect.poll(() => byTestId('generator-row').count()).toBe(2);
    await byTestId('generator-provider').nth(1).selectOption('simulated');
    await byTestId('generator-model').nth(1).fill('sim-generator-b');
    await byTestId('generator-label').nth(1).fill('Second generator');
    await page.locator('.stepper__button', { hasText: 'Options' }).click();
    await byTestId('option-limit').fill(String(QUESTIONS));
    await byTestId('option-sample').selectOption('random');
    await page.locator('.stepper__button').last().click();
    const table = byTestId('estimate-table');
    await expect.poll(() => table.isVisible(), { timeout: 60_000 }).toBe(true);
    // 2 × 15 generated answers; 2 judges × (15 C1 + up to 15 C2 + 2 × 15 answers × 3 settings): a
    // question alone in its language in the sample has no other question's answer to be its wrong one.
    await expect
      .poll(async () => Number(await byTestId('estimate-total-calls').innerText()), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2 * QUESTIONS + 2 * (QUESTIONS + 2 * QUESTIONS * 3));
    expect(Number(await byTestId('estimate-total-calls').innerText())).toBeLessThanOrEqual(
      2 * QUESTIONS + 2 * (QUESTIONS * 2 + 2 * QUESTIONS * 3),
    );
    expect(await table.innerText()).toContain('sim-generator');
    expect(await table.innerText()).toContain('sim-generator-b');
    await shootAll(page, 'refsens-wizard', () =>
      expect.poll(() => byTestId('estimate-table').isVisible()).toBe(true),
    );
  }, 120_000);

  it('runs to the end, marked simulated', async () => {
    await byTestId('create-and-start').click();
    await expect.poll(() => page.url()).toMatch(/#\/experiments\/\d+$/);
    experimentId = Number(/#\/experiments\/(\d+)$/.exec(page.url())![1]);
    await expect.poll(() => byTestId('simulated-banner').isVisible()).toBe(true);
    const status = byTestId('run-status').locator('[data-status]');
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 240_000, interval: 500 })
      .toBe('finished');
  }, 300_000);

  it('shows the calibration chart, the heatmap and the flip bars, each marked simulated', async () => {
    await byTestId('run-results').click();
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);
    // Both generators' answers were judged: the acceptance table has rows of each.
    const generators = new Set(
      await byTestId('table-acceptance').locator('td[data-column="generator"]').allInnerTexts(),
    );
    expect([...generators].sort()).toEqual(['Second generator', 'all', 'sim-generator']);
    for (const id of ['calibration', 'acceptance_heatmap', 'flips']) {
      const card = byTestId(`chart-${id}`);
      await expect.poll(() => card.isVisible()).toBe(true);
      expect(await card.locator('.results-chart__title').innerText()).toMatch(/^Simulated — /);
    }
    await byTestId('chart-calibration').scrollIntoViewIfNeeded();
    await shootAll(page, 'refsens-calibration', async (lang) => {
      await expect
        .poll(() => byTestId('chart-calibration').locator('.results-chart__title').innerText())
        .toMatch(lang === 'zh' ? /^模拟 — / : /^Simulated — /);
      await byTestId('chart-calibration').scrollIntoViewIfNeeded();
    });
    await shootAll(page, 'refsens-heatmap', async () => {
      await byTestId('chart-acceptance_heatmap').scrollIntoViewIfNeeded();
    });
  }, 120_000);

  it('opens the flip browser, filters to Arabic, and reads an Arabic question right to left', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await byTestId('refsens-browse-flips').click();
    await expect.poll(() => byTestId('refsens-flips-page').isVisible()).toBe(true);
    await expect.poll(() => byTestId('simulated-banner').isVisible()).toBe(true);
    // The filters live in the address: a click changes the hash, and the box is checked once the
    // page has read it back (on a loaded machine, later than Playwright's check() looks). Each
    // filter is set on the address the one before it wrote, so none is lost.
    await byTestId('refsens-filter-all').click();
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 30_000 }).toContain('all=1');
    await expect.poll(() => byTestId('refsens-filter-all').isChecked()).toBe(true);
    await byTestId('refsens-filter-language').selectOption('ar');
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 30_000 }).toContain('language=ar');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('all=1');
    await expect.poll(() => byTestId('refsens-flip-row').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await shootAll(page, 'refsens-flips', () =>
      expect.poll(() => byTestId('refsens-flip-row').count()).toBeGreaterThan(0),
    );
    await byTestId('refsens-flip-row').first().click();
    const question = byTestId('flip-question');
    await expect.poll(() => question.isVisible()).toBe(true);
    expect(await question.innerText()).toMatch(/\p{Script=Arabic}/u);
    expect(await question.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await byTestId('flip-answer').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    for (const s of ['NR', 'RV', 'RC']) expect(await byTestId(`verdict-${s}`).isVisible()).toBe(true);
    expect(await byTestId('reason-diff').isVisible()).toBe(true);
    await shootAll(page, 'refsens-flip-arabic', () =>
      expect.poll(() => byTestId('flip-question').isVisible()).toBe(true),
    );
  }, 120_000);

  it('badges the experiment as simulated in the list and marks the export: manifest, captions, figure titles', async () => {
    await byTestId('nav-experiments').click();
    const row = page.locator(`[data-testid="experiment-row"][data-experiment-id="${experimentId}"]`);
    await expect.poll(() => row.getByTestId('simulated-badge').isVisible()).toBe(true);
    await page.evaluate((id) => (location.hash = `#/experiments/${id}/results`), experimentId);
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await byTestId('export-all').first().click();
    const zip = unzipSync(await downloadBytes(await downloading));
    const names = Object.keys(zip);
    const manifest = JSON.parse(strFromU8(zip[names.find((n) => n.endsWith('/manifest.json'))!])) as {
      simulated: boolean;
    };
    expect(manifest.simulated).toBe(true);
    const texs = names.filter((n) => /\/tables\/[^/]+\.tex$/.test(n));
    const svgs = names.filter((n) => /\/figures\/[^/]+\.svg$/.test(n));
    expect(texs.map((n) => n.split('/').pop())).toEqual(
      expect.arrayContaining(['calibration.tex', 'flips.tex']),
    );
    expect(svgs).toHaveLength(3);
    for (const f of texs) expect(strFromU8(zip[f]), f).toContain('\\caption{Simulated --- ');
    for (const f of svgs) expect(strFromU8(zip[f]), f).toContain('Simulated — ');
  }, 120_000);

  it('threw no page error along the way', () => {
    expect(pageErrors).toEqual([]);
  });
});

// Self-consistency in Chromium through `judge-lab serve`, answered by the built-in simulated
// provider (no key): the wizard (protocol, the Repeats step: K and both orders), the run, the
// results (stability by judge, the accuracy-vs-k curve, the agreement histogram, every chart
// marked simulated) and the unstable-items browser (every repeat side by side, the reasons'
// word diff). Screenshots EN/中文 × light/dark of each.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli';
import { shootAll, switchLanguage } from './helpers/screens';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import type { ServeHandle } from './helpers/serve';

const K = 3;

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;
let pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  app = await startKeylessApp({ viewport: { width: 1280, height: 900 }, timeoutMs: 60_000 });
  ({ server, page, pageErrors } = app);
});

afterAll(async () => {
  await app?.close();
});

const byTestId = (id: string) => page.getByTestId(id);
const step = (n: number) => page.locator('.stepper__button').nth(n);

describe('self-consistency, simulated, in Chromium', () => {
  it('is set up in the wizard: protocol, repeats and orders, and the estimate shows the repeats apart', async () => {
    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await byTestId('nav-experiments').click();
    await byTestId('try-demo').click();
    await expect.poll(() => byTestId('estimate-table').isVisible(), { timeout: 60_000 }).toBe(true);
    await step(1).click();
    await page.locator('label.choice', { hasText: 'Self-consistency' }).click();
    await expect
      .poll(() => page.locator('input[name="protocol"][value="self-consistency"]').isChecked())
      .toBe(true);
    await page.locator('.stepper__button', { hasText: 'Repeats' }).click();
    await byTestId('sc-repeats').fill(String(K));
    await byTestId('sc-orders-both').check();
    await shootAll(page, 'sc-wizard-repeats', () =>
      expect.poll(() => byTestId('sc-repeats').isVisible()).toBe(true),
    );
    await page.locator('.stepper__button').last().click();
    const table = byTestId('estimate-table');
    await expect.poll(() => table.isVisible(), { timeout: 60_000 }).toBe(true);
    // The demo's 20 pairs × 2 orders × K repeats × 2 judges.
    await expect
      .poll(async () => Number(await byTestId('estimate-total-calls').innerText()), { timeout: 60_000 })
      .toBe(20 * 2 * K * 2);
    const text = await table.innerText();
    expect(text).toContain('First ask');
    expect(text).toContain('Repeat');
    await shootAll(page, 'sc-wizard-estimate', () =>
      expect.poll(() => byTestId('estimate-table').isVisible()).toBe(true),
    );
  }, 180_000);

  it('runs to the end, marked simulated', async () => {
    await byTestId('create-and-start').click();
    await expect.poll(() => page.url(), { timeout: 60_000 }).toMatch(/#\/experiments\/\d+$/);
    await expect.poll(() => byTestId('simulated-banner').isVisible(), { timeout: 60_000 }).toBe(true);
    const status = byTestId('run-status').locator('[data-status]');
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 240_000, interval: 500 })
      .toBe('finished');
  }, 300_000);

  it('shows stability, the accuracy curve and the histogram, each marked simulated', async () => {
    await byTestId('run-results').click();
    await expect.poll(() => byTestId('sc-sections').isVisible(), { timeout: 60_000 }).toBe(true);
    for (const id of ['stability', 'accuracy_vs_k', 'position_vs_k', 'agreement_histogram']) {
      const card = byTestId(`chart-${id}`);
      await expect.poll(() => card.isVisible()).toBe(true);
      expect(await card.locator('.results-chart__title').innerText()).toMatch(/^Simulated — /);
    }
    const stability = byTestId('section-stability');
    expect(await stability.innerText()).toContain('Simulated judge A');
    await byTestId('chart-stability').scrollIntoViewIfNeeded();
    await shootAll(page, 'sc-results', async (lang) => {
      await expect
        .poll(() => byTestId('chart-stability').locator('.results-chart__title').innerText())
        .toMatch(lang === 'zh' ? /^模拟 — / : /^Simulated — /);
      await byTestId('chart-stability').scrollIntoViewIfNeeded();
    });
    await shootAll(page, 'sc-accuracy-curve', async () => {
      await byTestId('chart-accuracy_vs_k').scrollIntoViewIfNeeded();
    });
  }, 120_000);

  it('browses the unstable items: every repeat side by side, with the reasons’ word diff', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await byTestId('sc-browse-unstable').click();
    await expect.poll(() => byTestId('sc-unstable-page').isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => byTestId('sc-unstable-row').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await shootAll(page, 'sc-unstable', () =>
      expect.poll(() => byTestId('sc-unstable-row').count()).toBeGreaterThan(0),
    );
    // Open a question whose first repeat is outvoted or contradicted: its cards differ.
    await byTestId('sc-unstable-row').first().click();
    await expect.poll(() => byTestId('sc-question-detail').isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await byTestId('sc-repeat').count()).toBe(K);
    const verdicts = await byTestId('sc-repeat-verdict').allInnerTexts();
    expect(new Set(verdicts).size).toBeGreaterThan(1);
    // Model text is text: the reason cards hold no elements of their own.
    expect(await page.locator('.sc-repeats .verdict-card__reason *').count()).toBe(0);
    if ((await byTestId('sc-reason-diff').count()) > 0)
      expect(await byTestId('reason-diff').first().isVisible()).toBe(true);
    await shootAll(page, 'sc-unstable-detail', () =>
      expect.poll(() => byTestId('sc-question-detail').isVisible()).toBe(true),
    );
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

// Issue 13, part 3 end to end: a first-time user with no account clicks "Try it without API
// keys", starts the run it sets up, and sees the whole flow (run view, dashboard, flips, export)
// with every page and export marked simulated. Real Chromium against `judge-lab serve`, with no
// key in its environment and no mock server: the built-in simulated provider answers.
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli';
import { shootAll, switchLanguage } from './helpers/screens';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import type { ServeHandle } from './helpers/serve';
import { downloadBytes } from '../helpers/browser';

/** The demo's items and calls: 2 translations per item, 8 verdicts per item and judge, 2 judges. */
const DEMO_ITEMS = 20;
const DEMO_CALLS = DEMO_ITEMS * 2 + DEMO_ITEMS * 8 * 2;

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;
let experimentId: number;
let pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  // No key of any provider reaches the server.
  app = await startKeylessApp({ viewport: { width: 1280, height: 860 }, timeoutMs: 60_000 });
  ({ server, page, pageErrors } = app);
});

afterAll(async () => {
  await app?.close();
});

const byTestId = (id: string) => page.getByTestId(id);
const banner = () => byTestId('simulated-banner');

describe('the keyless demo in Chromium (issue 13)', () => {
  it('sets up a simulated experiment on the sample from "Try it without API keys"', async () => {
    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await byTestId('nav-experiments').click();
    const button = byTestId('try-demo');
    expect(await button.innerText()).toBe('Try it without API keys');
    await button.click();

    // The wizard opens at its summary: the sample, two simulated judges, nothing to pay.
    const table = byTestId('estimate-table');
    await expect.poll(() => table.isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await byTestId('estimate-total-calls').innerText()).toBe(String(DEMO_CALLS));
    expect(await table.innerText()).toContain('sim-judge-strong');
    // Judge B flips each verdict on 20 % of its asks: the demo has a noise floor to show.
    expect(await table.innerText()).toContain('sim-judge-weak-flip20');
    expect(await table.innerText()).toContain('sim-translator');
    expect(await page.locator('body').innerText()).toMatch(/Simulated demo \d{4}-\d{2}-\d{2}/);
    await shootAll(page, 'demo-summary', () =>
      expect.poll(() => byTestId('estimate-table').isVisible()).toBe(true),
    );
  });

  it('runs to the end with visible progress, marked simulated', async () => {
    await byTestId('create-and-start').click();
    await expect.poll(() => page.url()).toMatch(/#\/experiments\/\d+$/);
    experimentId = Number(/#\/experiments\/(\d+)$/.exec(page.url())![1]);
    await expect.poll(() => banner().isVisible()).toBe(true);
    const status = byTestId('run-status').locator('[data-status]');
    // The simulated provider's latency and rate limit make the run take a while: seen running first.
    await expect.poll(() => status.getAttribute('data-status')).toBe('running');
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('finished');
    await shootAll(page, 'demo-run');
  });

  it('shows the simulated banner on the dashboard, with every judge and language in its tables', async () => {
    await byTestId('run-results').click();
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await banner().innerText()).toMatch(/Simulated results\. .*No real model was called/);
    expect(await byTestId('table-quality').getByTestId('results-row').count()).toBe(6);
    await shootAll(page, 'demo-results', () =>
      expect.poll(() => byTestId('results-page').isVisible()).toBe(true),
    );
  });

  it('shows the banner on the flips page, with flips to browse', async () => {
    await page.evaluate((id) => (location.hash = `#/experiments/${id}/flips`), experimentId);
    await expect.poll(() => byTestId('flip-browser').isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => banner().isVisible()).toBe(true);
    await expect.poll(() => byTestId('flip-row').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await shootAll(page, 'demo-flips');
  });

  it('shows the banner on the translations page: visibly another language', async () => {
    await page.evaluate((id) => (location.hash = `#/experiments/${id}/variants`), experimentId);
    await expect.poll(() => byTestId('variant-item-row').count()).toBeGreaterThan(0);
    await expect.poll(() => banner().isVisible()).toBe(true);
  });

  it('badges the experiment in the list as simulated', async () => {
    await byTestId('nav-experiments').click();
    const row = page.locator(`[data-testid="experiment-row"][data-experiment-id="${experimentId}"]`);
    await expect.poll(() => row.getByTestId('simulated-badge').isVisible()).toBe(true);
    expect(await row.getByTestId('simulated-badge').innerText()).toBe('Simulated');
    await expect.poll(() => banner().count()).toBe(0);
    await shootAll(page, 'demo-experiments');
  });

  it('marks the export: manifest, table captions and figure titles', async () => {
    await page.evaluate((id) => (location.hash = `#/experiments/${id}/results`), experimentId);
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await byTestId('export-all').first().click();
    const zip = unzipSync(await downloadBytes(await downloading));
    const names = Object.keys(zip);
    const manifestName = names.find((n) => n.endsWith('/manifest.json'))!;
    const manifest = JSON.parse(strFromU8(zip[manifestName])) as { simulated: boolean };
    expect(manifest.simulated).toBe(true);
    const texs = names.filter((n) => /\/tables\/[^/]+\.tex$/.test(n));
    const svgs = names.filter((n) => /\/figures\/[^/]+\.svg$/.test(n));
    expect(texs.length).toBeGreaterThan(0);
    expect(svgs.length).toBeGreaterThan(0);
    for (const f of texs) expect(strFromU8(zip[f]), f).toContain('\\caption{Simulated --- ');
    for (const f of svgs) expect(strFromU8(zip[f]), f).toContain('Simulated — ');
  });

  it('threw no page error along the way', () => {
    expect(pageErrors).toEqual([]);
  });
});

// Issue 14 in Chromium: the wizard's Batch API switch with its estimate (batch prices, the live
// price, the 24 h window), and a batch run still in progress after the app was closed and
// `judge-lab serve` reopened on the same data folder (it resumes polling the open batches).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { Item } from '../../src/shared/domain';
import { launchChromium } from '../helpers/browser';
import { assertBuilt } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { switchLanguage, type UiLanguage } from './helpers/screens';
import { saveScreenshot } from '../helpers/screenshots';
import { startServeWithEnv, type ServeHandle } from './helpers/serve';

let browser: Browser;
let page: Page;
let server: ServeHandle;
let mock: MockProvider;
let cleanup: () => void;
let dir: string;
let experimentId: number;

/**
 * The page in English and Chinese, light and dark, in docs/screenshots
 * (what the issue asks to show); `ready` runs after each language switch. Left in English, light.
 */
async function shot(
  name: string,
  opts: { fullPage?: boolean; ready?: (lang: UiLanguage) => Promise<void> } = {},
): Promise<void> {
  for (const lang of ['en', 'zh'] as const) {
    await switchLanguage(page, lang);
    await opts.ready?.(lang);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await saveScreenshot(page, `${name}-${lang}-${scheme}`, { fullPage: opts.fullPage ?? true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await switchLanguage(page, 'en');
}

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }),
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = await core.call('items.list', { datasetId: dataset.id });
  const items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  // The provider takes its time: the batches stay open while the app is closed and reopened.
  mock = await startMockProvider({
    respond: judgeLsResponder(items).respond,
    wrapText: false,
    batchTurnaroundMs: 600_000,
  });
  const batch = { mode: 'batch', batchPollSeconds: 1 };
  const exp = core.experiments.createOrUpdate({
    name: 'batch study',
    protocol: 'judge-ls',
    dataset: dataset.id,
    limit: 40,
    providers: {
      o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', ...batch },
      a: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_API_KEY', ...batch },
    },
    transform: { provider: 'o', model: 'gpt-4.1-mini' },
    judges: [
      { label: 'GPT-4.1 mini', provider: 'o', model: 'gpt-4.1-mini' },
      { label: 'Claude Haiku 4.5', provider: 'a', model: 'claude-haiku-4-5' },
    ],
  });
  experimentId = exp.id;
  core.experiments.runs.start(exp.id);
  for (let i = 0; mock.batches.created().length < 2; i++) {
    if (i > 400) throw new Error('no batches were submitted');
    await new Promise((r) => setTimeout(r, 50));
  }
  // Quitting: the batches stay with the provider.
  await core.shutdown();
  server = await startServeWithEnv(dir, { MOCK_API_KEY: 'sk-test', MOCK_BASE_URL: mock.url });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  cleanup?.();
});

describe('batch mode in Chromium', () => {
  it('shows the batch run still in progress after reopening, polled again, nothing submitted twice', async () => {
    const created = mock.batches.created().length;
    await page.goto(`${server.url}#/experiments/${experimentId}`);
    await switchLanguage(page, 'en');
    const batches = page.getByTestId('run-batch');
    await expect.poll(() => batches.count(), { timeout: 60_000 }).toBe(created);
    await expect.poll(() => page.getByTestId('run-status').innerText()).toMatch(/running/i);
    // The reopened serve process polls the batches the closed app had submitted.
    const ids = mock.batches.created().map((b) => b.id);
    await expect
      .poll(() => mock.batches.log.filter((e) => e.op === 'retrieve' && ids.includes(e.id)).length, {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    expect(mock.batches.created()).toHaveLength(created);
    expect(await page.getByTestId('run-batches').innerText()).toMatch(/batch_\d+[\s\S]*gpt-4\.1-mini/);
    await shot('batch-run-reopened', {
      ready: () => expect.poll(() => page.getByTestId('run-batches').isVisible()).toBe(true),
    });
  });

  it('offers a Batch API switch per judge and for the translator; the summary shows batch prices, the live price and the 24 h window', async () => {
    await page.goto(`${server.url}#/experiments/new`);
    await expect.poll(() => page.getByTestId('wizard-dataset').inputValue()).not.toBe('');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    const judge = page.getByTestId('judge-row').nth(0);
    await judge.getByTestId('judge-provider-preset').selectOption('openai');
    await judge.getByTestId('judge-batch').check();
    await page.getByTestId('add-judge').click();
    const second = page.getByTestId('judge-row').nth(1);
    await second.getByTestId('judge-provider-preset').selectOption('anthropic');
    await second.getByTestId('judge-batch').check();
    await shot('wizard-batch-switch', { fullPage: false });
    await page.getByTestId('wizard-next').click();
    // The translator has its own switch.
    await page.getByTestId('transform-batch').check();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('option-limit').fill('100');
    await page.getByTestId('wizard-next').click();
    const line = page.getByTestId('estimate-batch');
    await expect.poll(() => line.isVisible(), { timeout: 60_000 }).toBe(true);
    // 100 items: 200 translations, and 6 verdicts + 2 tie probes per item and judge, all batched.
    expect(await line.innerText()).toMatch(/^1,800 calls/);
    expect(await line.innerText()).toMatch(
      /calls go through Batch APIs at batch prices \(\$[\d.,]+ instead of \$[\d.,]+ live\)[\s\S]*24 hours/,
    );
    // Tall enough to show the judges, the estimate and the batch line together.
    await page.setViewportSize({ width: 1280, height: 1250 });
    const before = await line.innerText();
    await shot('wizard-batch-estimate', {
      fullPage: false,
      // The batch line is re-rendered in the new language before the shots.
      ready: (lang) =>
        lang === 'zh'
          ? expect.poll(() => line.innerText(), { timeout: 60_000 }).not.toBe(before)
          : expect.poll(() => line.innerText(), { timeout: 60_000 }).toBe(before),
    });
  });
  it('offers the switch for a custom OpenAI-compatible server once Test connection found its Batch API', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // A new draft: the wizard keeps the last one (and its step) in the page's storage.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${server.url}#/experiments/new`);
    await page.reload();
    await expect.poll(() => page.getByTestId('wizard-dataset').inputValue()).not.toBe('');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    const judge = page.getByTestId('judge-row').nth(0);
    await judge.getByTestId('judge-provider-preset').selectOption('custom');
    await page.getByTestId('provider-baseurl').fill(`${mock.url}/v1`);
    await page.getByTestId('provider-apikeyenv').fill('MOCK_API_KEY');
    await judge.getByTestId('judge-model').fill('gpt-4.1-mini');
    // Not offered before the server was asked (a custom server may have no Batch API).
    expect(await judge.getByTestId('judge-batch').count()).toBe(0);
    const listsBefore = mock.batches.log.filter((e) => e.op === 'list').length;
    await page.getByTestId('test-connection').click();
    await expect
      .poll(() => page.getByTestId('test-connection-batch').innerText(), { timeout: 60_000 })
      .toMatch(/offers the Batch API/);
    // Asked by listing its batches (free), through the core with the key the server holds.
    expect(mock.batches.log.filter((e) => e.op === 'list').length).toBeGreaterThan(listsBefore);
    await judge.getByTestId('judge-batch').check();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('option-limit').fill('100');
    await page.getByTestId('wizard-next').click();
    const line = page.getByTestId('estimate-batch');
    await expect.poll(() => line.isVisible(), { timeout: 60_000 }).toBe(true);
    // 100 items × (6 verdicts + 2 tie probes) of the custom server's judge go as a batch; the
    // translations stay live.
    expect(await line.innerText()).toMatch(/^800 calls/);
  });
});

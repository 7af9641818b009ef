// Issue 15 item 4 in Chromium: while a run goes, the failed answers of a judge whose prompt
// does not work show up live on the run page; the early warning pauses that judge (the other
// one goes on), and "Resume this judge" sends the rest once the cause is fixed.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import { launchChromium } from '../helpers/browser';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

const BROKEN_MODEL = 'claude-haiku-4-5';
let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let mock: MockProvider;
let cleanup: () => void;
let experimentId: number;

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = await core.call('items.list', { datasetId: dataset.id });
  const items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  mock = await startMockProvider({
    respond: judgeLsResponder(items).respond,
    wrapText: false,
    latencyMs: [150, 250],
    faultFor: (req) => (req.model === BROKEN_MODEL ? 'malformed' : undefined),
  });
  // One call at a time per model: the healthy judge is still going when the warning comes.
  const exp = core.experiments.createOrUpdate({
    name: 'broken judge',
    protocol: 'judge-ls',
    dataset: dataset.id,
    limit: 6,
    maxParseRetries: 0,
    providers: {
      o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 1 },
    },
    transform: { provider: 'o', model: 'gpt-4.1-mini' },
    judges: [
      { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' },
      { label: 'Broken', provider: 'o', model: BROKEN_MODEL },
    ],
  });
  experimentId = exp.id;
  await core.shutdown();
  // The serve process has the key, and may send it to the mock (a key goes only where it is meant).
  process.env.MOCK_API_KEY = 'sk-test';
  process.env.MOCK_BASE_URL = `${mock.url}/v1`;
  server = await startServe(t.dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  delete process.env.MOCK_API_KEY;
  delete process.env.MOCK_BASE_URL;
  cleanup?.();
});

describe('live failure inspector', () => {
  it('shows failed answers as they come, pauses the broken judge only, and resumes it', async () => {
    await page.goto(`${server.url}#/experiments/${experimentId}`);
    await page.getByTestId('run-start').click();
    // Opened at the first failure, the inspector fills in by itself as more arrive.
    await page.getByTestId('show-failed').click({ timeout: 60_000 });
    const broken = page.locator(
      '[data-testid="failure-group"][data-who="Broken"] [data-testid="failed-answer"]',
    );
    await expect.poll(() => broken.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const first = await broken.count();
    const lane = page.locator('[data-testid="paused-lane"][data-kind="early_warning"]');
    await expect.poll(() => lane.isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await lane.innerText()).toMatch(/Broken: 11 of its first 11 answers could not be used/);
    await expect.poll(() => broken.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(11);
    expect(await broken.count()).toBeGreaterThan(first);
    // Mid-run: the other judge still goes.
    expect(await page.getByTestId('run-status').locator('[data-status]').getAttribute('data-status')).toBe(
      'running',
    );
    await broken.first().locator('summary').click();
    expect(await broken.first().getByTestId('failed-raw').innerText()).not.toBe('');
    expect(await page.getByTestId('run-results').innerText()).toBe('Results so far');
    await page.getByTestId('paused-lanes').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await saveScreenshot(page, 'failure-inspector-en-light');

    mock.setBehavior({ faultFor: undefined });
    await page.getByTestId('resume-judge').click();
    await expect.poll(() => lane.count(), { timeout: 60_000 }).toBe(0);
    await expect
      .poll(() => page.getByTestId('run-status').locator('[data-status]').getAttribute('data-status'), {
        timeout: 60_000,
      })
      .toBe('finished');
  }, 120_000);
});

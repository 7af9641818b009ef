// Issue 15 in Chromium: a judge whose English verdicts all failed shows a banner and "no valid
// verdicts" rows on the results page, and Export all in the browser downloads one zip.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
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

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let mock: MockProvider;
let cleanup: () => void;
let dir: string;
let experimentId: number;
const LIMIT = 6;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  // The run, through the CLI door: every English quality verdict comes back as text that is not JSON.
  const core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }),
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = await core.call('items.list', { datasetId: dataset.id });
  const items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  const responder = judgeLsResponder(items);
  mock = await startMockProvider({
    respond: responder.respond,
    wrapText: false,
    faultFor: (req) =>
      req.schemaName === 'pairwise_verdict' && !/[\u4e00-\u9fff]/.test(req.lastUser)
        ? 'malformed'
        : undefined,
  });
  const exp = core.experiments.createOrUpdate({
    name: 'english failed',
    protocol: 'judge-ls',
    dataset: dataset.id,
    limit: LIMIT,
    maxParseRetries: 0,
    // A finished run with mass failure is the point here, not the early warning's pause.
    earlyWarningAnswers: 0,
    providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
    transform: { provider: 'o', model: 'gpt-4.1-mini' },
    judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
  });
  experimentId = exp.id;
  expect((await core.experiments.runToEnd(exp.id)).status).toBe('finished');
  await core.shutdown();
  server = await startServe(dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  cleanup?.();
});

describe('first-hour problems in Chromium', () => {
  it('shows a banner and "no valid verdicts" rows when every English verdict failed', async () => {
    await page.goto(`${server.url}#/experiments/${experimentId}/results`);
    const banner = page.getByTestId('failure-banner');
    await expect.poll(() => banner.isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await banner.innerText()).toContain(`GPT · EN: 0 usable verdicts of ${LIMIT * 2}`);
    const quality = page.getByTestId('table-quality');
    expect(await quality.innerText()).toContain(`no valid verdicts (${LIMIT * 2} failed, see failures)`);
    expect(await page.getByTestId('table-invariance').innerText()).toContain('no valid verdicts in EN');
    await saveScreenshot(page, 'results-mass-failure-banner');
  });

  it('downloads Export all as one zip in the browser', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-all').first().click();
    // An export that fails says why on the page: that message, not a timeout, is the failure.
    const failed = page
      .locator('.results-export-all [role="alert"], [data-testid="export-all-result"]')
      .first()
      .waitFor({ timeout: 60_000 })
      .then(async () => {
        throw new Error(`no download: ${await page.locator('.results-export-all').first().innerText()}`);
      });
    failed.catch(() => undefined);
    const download = await Promise.race([downloading, failed]);
    expect(download.suggestedFilename()).toBe('english failed.zip');
    const path = join(dir, 'downloaded.zip');
    await download.saveAs(path);
    expect(statSync(path).size).toBeGreaterThan(1000);
    const files = Object.keys(unzipSync(readFileSync(path)));
    expect(files).toEqual(
      expect.arrayContaining(['english failed/metrics.json', 'english failed/tables/quality.tex']),
    );
    await expect.poll(() => page.getByTestId('export-downloaded').isVisible()).toBe(true);
    await saveScreenshot(page, 'results-export-zip-download');
  });
});

// Bias probes answered by the built-in simulated provider (no key, no mock server), opened in
// Chromium through `judge-lab serve`: every page of the experiment says it is simulated — the
// banner on the results page, each chart's title, the badge in the experiment list.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import { launchChromium } from '../helpers/browser';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let cleanup: () => void;
let experimentId: number;

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  ({ id: experimentId } = await core.call('experiments.create', {
    config: {
      name: 'Bias probes (simulated)',
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      limit: 12,
      providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
      rewriter: { provider: 'sim', model: 'sim-rewriter' },
      judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
    },
  }));
  expect((await core.experiments.runToEnd(experimentId)).status).toBe('finished');
  await core.shutdown();
  server = await startServe(t.dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cleanup?.();
});

const byTestId = (id: string) => page.getByTestId(id);

describe('bias probes, simulated, in Chromium', () => {
  it('marks the results page and every chart simulated', async () => {
    await page.goto(`${server.url}#/experiments/${experimentId}/results`);
    await byTestId('bias-profiles').waitFor();
    await expect.poll(() => byTestId('simulated-banner').isVisible()).toBe(true);
    const titles = page.locator('[data-testid^="chart-"] .results-chart__title');
    await expect.poll(() => titles.count()).toBeGreaterThan(0);
    for (const title of await titles.allInnerTexts()) expect(title).toMatch(/^Simulated — /);
  });

  it('badges the experiment in the list', async () => {
    await page.goto(`${server.url}#/experiments`);
    const row = page.getByRole('row').filter({ hasText: 'Bias probes (simulated)' });
    await expect.poll(() => row.getByTestId('simulated-badge').isVisible()).toBe(true);
  });
});

// Bias probes in Chromium through `judge-lab serve`: a pointwise run against the mock provider
// with planted biases (+0.8 longer, +0.3 Markdown, +0.4 shown first), then the results page:
// the bias profile shows each planted effect within sampling error, the length scatter draws,
// and the variant browser shows an original beside its variant with a diff and both scores.
// Screenshots EN/中文 × light/dark of the profile, the scatter and the variant browser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import { launchChromium } from '../helpers/browser';
import { assertBuilt, ROOT, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { biasResponder, PLANTED, type PairRecord } from '../mock-provider/bias-responder';
import { startMockProvider } from '../mock-provider/server';
import { shootAll } from './helpers/screens';

const LIMIT = 60;
const all: PairRecord[] = readFileSync(join(ROOT, 'resources/samples/llmbar.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let cleanup: () => void;
let experimentId: number;
let metrics: BiasMetrics;

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  const core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }),
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const mock = await startMockProvider({
    respond: biasResponder(all).respond,
    latencyMs: [0, 0],
    logBodies: false,
  });
  ({ id: experimentId } = await core.call('experiments.create', {
    config: {
      name: 'Bias probes (mock)',
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      limit: LIMIT,
      providers: {
        mock: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 16 },
      },
      rewriter: { provider: 'mock', model: 'rewriter-model' },
      judges: [{ label: 'Mock judge', provider: 'mock', model: 'judge-model' }],
    },
  }));
  expect((await core.experiments.runToEnd(experimentId)).status).toBe('finished');
  metrics = (await core.call('experiments.results', { experimentId })).metrics as BiasMetrics;
  await core.shutdown();
  await mock.close();
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

describe('bias probes in Chromium', () => {
  it('shows the planted biases in the bias profile, the scatter and the tables', async () => {
    await page.goto(`${server.url}#/experiments/${experimentId}/results`);
    await byTestId('bias-profiles').waitFor();
    // The bias profile table on the page holds the same numbers as metrics.json, each planted
    // effect within sampling error.
    const table = byTestId('section-bias_profile');
    for (const [effect, label, planted] of [
      ['longer', 'Longer − original', PLANTED.longer],
      ['markdown', 'Markdown − plain', PLANTED.markdown],
      ['position', 'Shown first − second', PLANTED.pairFirst],
    ] as const) {
      const row = metrics.probes.find((r) => r.category === 'all' && r.effect === effect)!;
      const se = Math.sqrt((planted * (1 - planted)) / row.n);
      expect(Math.abs(row.mean - planted)).toBeLessThan(3.5 * se);
      const cells = table.locator('tr', { hasText: label }).first().locator('td');
      expect(await cells.allTextContents()).toEqual(expect.arrayContaining([row.mean.toFixed(3), '*']));
    }
    const profileSvg = byTestId('bias-profiles').locator('svg').first();
    expect(await profileSvg.locator('text', { hasText: 'Longer − original' }).count()).toBe(1);
    await byTestId('chart-length_scatter').waitFor();
    await byTestId('bias-profiles').scrollIntoViewIfNeeded();
    await shootAll(page, 'bias-profile');
    await byTestId('chart-length_scatter').scrollIntoViewIfNeeded();
    await shootAll(page, 'bias-scatter');
  });

  it('browses a variant beside its original with a diff and both scores, as text', async () => {
    const browserSection = byTestId('bias-variant-browser');
    await browserSection.scrollIntoViewIfNeeded();
    await byTestId('bias-variant-filter').selectOption('longer');
    const detail = byTestId('bias-variant-detail');
    await detail.waitFor();
    const base = await byTestId('bias-base-text').textContent();
    const variant = await byTestId('bias-variant-text').textContent();
    expect(variant!.startsWith(base!.trim().slice(0, 20))).toBe(true);
    expect(await byTestId('bias-diff').locator('ins').count()).toBeGreaterThan(0);
    const cells = await byTestId('bias-judgments').locator('tbody td').allTextContents();
    expect(cells[0]).toBe('Mock judge');
    expect(cells[1]).toMatch(/^[1-5] · mock original$/);
    expect(cells[2]).toMatch(/^[1-5] · mock longer$/);
    await shootAll(page, 'bias-variants', async () => browserSection.scrollIntoViewIfNeeded());
  });
});

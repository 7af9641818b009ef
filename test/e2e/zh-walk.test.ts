// Issue 15 items 2/9/16 in Chromium: a walk through an experiment's pages in 中文 (run,
// results with its failures table, flips, variants) finds no English sentence left on screen;
// so do the other protocols' results (reference sensitivity and bias probes with the noise floor
// on, self-consistency with its unstable items and one question opened; issue 23).
// Visible text is scanned for runs of four or more ASCII words; what may stay English is
// listed (model text, judge labels, ids, file names). The EN verdicts all fail, so the results
// page has its failure banner and failures table to check too.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import { launchChromium } from '../helpers/browser';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { englishOnScreen } from './helpers/english';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let mock: MockProvider;
let cleanup: () => void;
let experimentId: number;
let biasId: number;
let refsensId: number;
let scId: number;
const scReasons: string[] = [];
let items: Item[];
const qaText: string[] = [];

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  const core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }),
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = await core.call('items.list', { datasetId: dataset.id });
  items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  mock = await startMockProvider({
    respond: judgeLsResponder(items).respond,
    wrapText: false,
    faultFor: (req) =>
      req.schemaName === 'pairwise_verdict' && !/[\u4e00-\u9fff]/.test(req.lastUser)
        ? 'malformed'
        : undefined,
  });
  const exp = core.experiments.createOrUpdate({
    name: 'zh walk',
    protocol: 'judge-ls',
    dataset: dataset.id,
    limit: 4,
    maxParseRetries: 0,
    earlyWarningAnswers: 0,
    providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
    transform: { provider: 'o', model: 'gpt-4.1-mini' },
    judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
  });
  experimentId = exp.id;
  await core.experiments.runToEnd(experimentId);
  // The other protocols' results pages, answered by the simulated provider.
  const sim = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };
  biasId = core.experiments.createOrUpdate({
    name: 'zh walk bias',
    protocol: 'bias-probes',
    dataset: dataset.id,
    limit: 6,
    providers: sim,
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
    mode: 'pointwise',
    noiseFloor: true,
  }).id;
  await core.experiments.runToEnd(biasId);
  // Self-consistency: a judge that flips on 30 % of its asks, so there are unstable items to open.
  scId = core.experiments.createOrUpdate({
    name: 'zh walk sc',
    protocol: 'self-consistency',
    dataset: dataset.id,
    limit: 6,
    repeats: 3,
    providers: sim,
    judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge-flip30' }],
  }).id;
  await core.experiments.runToEnd(scId);
  // The judge's reasons are model text; the word diff shows pieces of them.
  const questions = (await core.call('experiments.protocolView', {
    experimentId: scId,
    view: 'repeats',
    query: { unstableOnly: false },
  })) as { rows: { repeats: { reason: string | null }[] }[] };
  scReasons.push(...questions.rows.flatMap((q) => q.repeats.map((r) => r.reason ?? '')));
  const { dataset: qa } = await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  const qaRows = await core.call('items.list', { datasetId: qa.id });
  for (const r of qaRows) {
    const item = (await core.call('items.get', { itemId: r.id })) as unknown as Record<string, unknown>;
    // Questions, contexts and gold answers are data, shown as they are.
    qaText.push(...stringsIn(item).map((q) => q.slice(0, 40)));
  }
  refsensId = core.experiments.createOrUpdate({
    name: 'zh walk refsens',
    protocol: 'reference-sensitivity',
    dataset: qa.id,
    limit: 6,
    providers: sim,
    generators: [{ label: 'Sim gen', provider: 'sim', model: 'sim-generator' }],
    judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge-flip30' }],
    noiseFloor: true,
  }).id;
  await core.experiments.runToEnd(refsensId);
  await core.shutdown();
  server = await startServe(t.dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  cleanup?.();
});

/** Every string inside a value (an item's fields, however nested). */
function stringsIn(v: unknown): string[] {
  if (typeof v === 'string') return v.length >= 12 ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (v && typeof v === 'object') return Object.values(v).flatMap(stringsIn);
  return [];
}

describe('an experiment in 中文', () => {
  it('shows no English sentences on the run, results, flips and variants pages, nor on the other protocols’ results and item views', async () => {
    // Model text (the dataset's English items and the models' answers) stays as it is.
    const modelText = items.flatMap((i) =>
      [i.instruction, i.output1, i.output2].map((s) => (s ?? '').slice(0, 40)),
    );
    // The simulated judges' reasons are model text too (they end in "(simulated)").
    const allowed = [
      ...modelText,
      ...qaText,
      '(simulated)',
      'Judge Lab',
      'gpt-4.1-mini',
      'judge-lab serve',
      'LLMBar',
    ];
    await page.goto(`${server.url}#/experiments/${experimentId}`);
    await page.getByTestId('lang-switch').selectOption('zh');
    const found: Record<string, string[]> = {};
    const visit = async (name: string, hash: string, ready: string) => {
      await page.goto(`${server.url}#${hash}`);
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      await page.waitForTimeout(300);
      found[name] = await englishOnScreen(page, allowed);
    };
    await visit('run', `/experiments/${experimentId}`, '[data-testid="run-status"], .run-view, h1');
    await visit('results', `/experiments/${experimentId}/results`, '[data-testid="section-failures"]');
    await page.getByTestId('section-failures').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'results-failures-zh-light');
    await visit('flips', `/experiments/${experimentId}/flips`, 'h1');
    await visit('variants', `/experiments/${experimentId}/variants`, 'h1');
    await visit('bias results', `/experiments/${biasId}/results`, '[data-testid="section-usage"]');
    // The variant browser's opened item (the second, so a click opened it): the original, the
    // rewrite and their diff are model or dataset text; the rest is the page's.
    await page.getByTestId('bias-variant-list').locator('button').nth(1).click();
    await page.getByTestId('bias-variant-detail').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('bias-variant-list').locator('button').nth(1).getAttribute('aria-pressed'))
      .toBe('true');
    const texts = [
      await page.getByTestId('bias-base-text').innerText(),
      await page.getByTestId('bias-variant-text').innerText(),
    ].map((x) => x.replace(/\s+/g, ' '));
    found['bias variant'] = (await englishOnScreen(page, allowed)).filter(
      (x) => !texts.some((t) => t.includes(x.replace(/\s+/g, ' ').trim())),
    );
    await visit('refsens results', `/experiments/${refsensId}/results`, '[data-testid="section-usage"]');
    await visit('refsens flips', `/experiments/${refsensId}/refsens-flips`, 'h1');
    await page.getByTestId('refsens-filter-all').check();
    await page.getByTestId('repeat-flipped').first().waitFor({ timeout: 60_000 });
    found['refsens flips, every answer'] = await englishOnScreen(page, allowed);
    await visit('sc results', `/experiments/${scId}/results`, '[data-testid="section-stability"]');
    await visit('sc unstable', `/experiments/${scId}/sc-unstable`, '[data-testid="sc-unstable-row"]');
    await page.getByTestId('sc-unstable-row').first().click();
    await page.getByTestId('sc-question-detail').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(300);
    found['sc question'] = (await englishOnScreen(page, allowed)).filter(
      (s) => !scReasons.some((r) => r.includes(s)),
    );
    expect(found).toEqual({
      run: [],
      results: [],
      flips: [],
      variants: [],
      'bias results': [],
      'bias variant': [],
      'refsens results': [],
      'refsens flips': [],
      'refsens flips, every answer': [],
      'sc results': [],
      'sc unstable': [],
      'sc question': [],
    });
  }, 90_000);
});

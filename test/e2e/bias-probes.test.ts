// Bias probes in Chromium through `judge-lab serve`: a pointwise run against the mock provider
// with planted biases (+0.8 longer, +0.3 Markdown, +0.4 shown first), then the results page:
// the bias profile shows each planted effect within sampling error, the length scatter draws,
// and the variant browser shows an original beside its variant with a diff and both scores.
// Screenshots EN/中文 × light/dark of the profile, the scatter and the variant browser. Then the
// wizard lists every registered probe (from the registry, so a probe merged later is checked with
// no change here), and a small second run shows a code-made text (format's plain) and a prompt-only
// change (score_order's descending options) beside what each is compared with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import { biasProbes } from '../../src/shared/protocols/bias-probes/probe-registry';
import { scoreOptions } from '../../src/shared/protocols/bias-probes/probes/score-order';
import { stripMarkdown } from '../../src/shared/protocols/bias-probes/strip-markdown';
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
/** The small run with a derived and a prompt-only condition (format and score_order). */
let smallId: number;
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
  ({ id: smallId } = await core.call('experiments.create', {
    config: {
      name: 'Bias probes, derived and prompt-only (mock)',
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      limit: 4,
      providers: {
        mock: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 16 },
      },
      rewriter: { provider: 'mock', model: 'rewriter-model' },
      judges: [{ label: 'Mock judge', provider: 'mock', model: 'judge-model' }],
      probes: ['format', 'score_order'],
    },
  }));
  expect((await core.experiments.runToEnd(smallId)).status).toBe('finished');
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

  it('lists every registered probe in the wizard, each under its own words', async () => {
    await page.goto(`${server.url}#/experiments/new`);
    await byTestId('wizard-next').waitFor();
    await page.getByRole('button', { name: 'Start over' }).click();
    const dataset = byTestId('wizard-dataset');
    await dataset.waitFor();
    const value = await dataset
      .locator('option', { hasText: 'LLMBar (sample)' })
      .first()
      .getAttribute('value');
    await dataset.selectOption(value!);
    await byTestId('wizard-next').click();
    await page.locator('input[name="protocol"][value="bias-probes"]').check();
    await byTestId('wizard-next').click();
    await byTestId('judge-provider-preset').first().selectOption('simulated');
    await byTestId('wizard-next').click();
    await byTestId(`probe-${biasProbes()[0].id}`).waitFor();
    const probes = biasProbes();
    expect(probes.length).toBeGreaterThanOrEqual(5);
    for (const p of probes) {
      const box = byTestId(`probe-${p.id}`);
      expect(await box.count(), p.id).toBe(1);
      const label = page.locator('label', { has: box });
      expect(await label.innerText()).toContain((p.texts.choice ?? p.texts.name).en);
    }
    // Nothing listed that the registry does not hold.
    expect(await page.locator('[data-testid^="probe-"]').count()).toBe(probes.length);
  });

  it('shows a code-made text and a prompt-only change beside what each is compared with', async () => {
    await page.goto(`${server.url}#/experiments/${smallId}/results`);
    const section = byTestId('bias-variant-browser');
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    const filter = byTestId('bias-variant-filter');
    // Derived by code (format's plain text): the original beside it, Markdown stripped.
    await filter.selectOption('plain');
    await byTestId('bias-variant-detail').waitFor();
    const original = await byTestId('bias-base-text').textContent();
    const derived = await byTestId('bias-variant-text').textContent();
    const item = await byTestId('bias-variant-list').locator('button').first().innerText();
    const record = all.find((r) => item.startsWith(`${r.id} ·`))!;
    expect([record.output_1, record.output_2]).toContain(original);
    expect(derived).toBe(stripMarkdown(original!));
    expect(await byTestId('bias-variant-detail').innerText()).toContain('made by code from the original');
    // Prompt-only (score_order's descending options): the judge's prompt beside the ascending one.
    await filter.selectOption('score_descending');
    await expect.poll(() => byTestId('bias-variant-text').textContent()).toContain(scoreOptions(5, true));
    expect(await byTestId('bias-base-text').textContent()).toContain(scoreOptions(5, false));
    expect(await byTestId('bias-diff').locator('ins').count()).toBeGreaterThan(0);
    // Rewritten (length's longer) is the walk above; here the same browser lists it for this run's Markdown.
    await filter.selectOption('markdown');
    await expect
      .poll(() => byTestId('bias-variant-detail').innerText())
      .toContain('Plain (Markdown stripped)');
  });
});

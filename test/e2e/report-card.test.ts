// Issue 25 §1 in Chromium: one judge model (gpt-4.1-mini) judged in three protocols against the
// mock provider (Judge-LS, reference sensitivity, bias probes) and once more from a recorded
// file of its bias-probe answers; a simulated demo judge beside it. The report card page shows
// every experiment with its rows linked to its results, the recorded one badged, the gates the
// store's settings plant to pass, warn and fail with their thresholds, in English and 中文.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { Item } from '../../src/shared/domain';
import type { ReportCard } from '../../src/shared/report-card/types';
import { downloadBytes, launchChromium } from '../helpers/browser';
import { assertBuilt, CHILD_WAIT_MS, ROOT, startServe } from '../helpers/cli';
import { saveScreenshot } from '../helpers/screenshots';
import { tempDir } from '../helpers/tmp';
import { biasResponder, type PairRecord } from '../mock-provider/bias-responder';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { refSensResponder, type QaRecord } from '../mock-provider/refsens-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { switchLanguage } from './helpers/screens';

const SAMPLES = join(ROOT, 'resources/samples');
const MODEL = 'openai:gpt-4.1-mini';
const jsonl = <T>(f: string) =>
  readFileSync(join(SAMPLES, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

/** The whole card: the page scrolls inside the frame, so the window grows to its height first. */
async function shootWhole(p: Page, name: string): Promise<void> {
  const height = await p.evaluate(() => {
    const main = document.getElementById('main')!;
    return main.getBoundingClientRect().top + main.scrollHeight;
  });
  await p.setViewportSize({ width: 1280, height: Math.ceil(height) + 16 });
  await saveScreenshot(p, name);
  await p.setViewportSize({ width: 1280, height: 900 });
}

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
const mocks: MockProvider[] = [];
let cleanup: () => void;
let card: ReportCard;
const ids: Record<string, number> = {};

beforeAll(async () => {
  assertBuilt();
  let dir: string;
  ({ dir, cleanup } = tempDir());
  const core = new Core({
    dataDir: join(dir, 'data'),
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  const items = (await Promise.all(
    (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
  const start = async (respond: (r: never) => unknown) => {
    const m = await startMockProvider({ latencyMs: [0, 1], respond: respond as never, logBodies: false });
    mocks.push(m);
    return {
      openai: { kind: 'openai', baseURL: `${m.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
    };
  };
  const run = async (config: Record<string, unknown>) => {
    const { id } = await core.call('experiments.create', { config });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    ids[String(config.name)] = id;
    return id;
  };
  const judge = { label: 'GPT mini', provider: 'openai', model: 'gpt-4.1-mini' };
  await run({
    name: 'Judge-LS on LLMBar',
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 12,
    providers: await start(judgeLsResponder(items).respond as never),
    transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH'] },
    judges: [judge],
  });
  await run({
    name: 'Reference sensitivity on TyDi QA',
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    limit: 9,
    providers: await start(refSensResponder(jsonl<QaRecord>('tydiqa-en-ar-te.jsonl')).respond as never),
    generators: [{ label: 'Gen', provider: 'openai', model: 'gen-openai' }],
    judges: [judge],
  });
  const biasStudy = {
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 8,
    rewriter: { provider: 'openai', model: 'rewriter-model' },
    judges: [judge],
    mode: 'pairwise',
  };
  const live = await run({
    name: 'Bias probes, live',
    ...biasStudy,
    providers: await start(biasResponder(jsonl<PairRecord>('llmbar.jsonl')).respond as never),
  });
  // The same answers, audited again from a recorded file (judgments made elsewhere).
  const exported = await core.call('experiments.exportAnswers', { experimentId: live, format: 'jsonl' });
  const file = join(dir, 'bias-answers.jsonl');
  writeFileSync(file, exported.text);
  await run({
    name: 'Bias probes, recorded',
    ...biasStudy,
    providers: { openai: { kind: 'recorded', file } },
  });
  // A simulated demo judge: another card, badged simulated in the list.
  await run({
    name: 'Simulated demo',
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
    judges: [{ label: 'Sim', provider: 'sim', model: 'sim-judge-strong' }],
  });

  // Plant the gates from what was measured: position consistency with a threshold just under the
  // worst value (passes, or warns where its interval reaches below), flips with a ceiling under
  // the worst flip rate (fails).
  const measured = await core.call('judges.reportCard', { model: MODEL });
  const values = (id: string) =>
    measured.gates
      .find((g) => g.definition.id === id)!
      .checks.map((c) => c.value)
      .filter((v): v is number => v !== null);
  await core.call('judges.setGates', {
    settings: {
      position_consistency: { threshold: Math.max(0, Math.min(...values('position_consistency')) - 0.01) },
      language_flip: { threshold: Math.max(0, Math.max(...values('language_flip')) - 0.001) },
    },
  });
  card = await core.call('judges.reportCard', { model: MODEL });
  await core.shutdown();
  server = await startServe(join(dir, 'data'));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  for (const m of mocks) await m.close();
  cleanup?.();
});

describe('the judge report card in Chromium', () => {
  it('opens from the header, lists the judges and shows the card of one', async () => {
    await page.goto(`${server.url}#/experiments`);
    await page.getByTestId('nav-judges').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/judges');
    // The judges come from the core after the page is drawn: wait for the list, not its first frame.
    const options = () => page.getByTestId('card-judge').locator('option').allTextContents();
    await expect.poll(options).toContain('openai:gpt-4.1-mini — 4 experiments · Recorded');
    expect(await options()).toContain('simulated:sim-judge-strong — 1 experiment · Simulated');
    await page.getByTestId('card-judge').selectOption(MODEL);
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/judges?model=openai%3Agpt-4.1-mini');
    await page.getByTestId('report-card').waitFor();

    // Every experiment of the judge, its rows as the core computed them, linked to its results.
    const sections = page.getByTestId('card-experiment');
    await expect.poll(() => sections.count()).toBe(4);
    for (const e of card.experiments) {
      const s = page.locator(`[data-testid="card-experiment"][data-experiment-id="${e.experimentId}"]`);
      await expect.poll(() => s.getByTestId('card-row').count()).toBe(e.rows.length);
      expect(await s.getByTestId('card-experiment-link').getAttribute('href')).toBe(
        `#/experiments/${e.experimentId}/results`,
      );
      expect(await s.getByTestId('card-recorded').count()).toBe(e.recorded ? 1 : 0);
    }
    const recorded = page.locator(
      `[data-testid="card-experiment"][data-experiment-id="${ids['Bias probes, recorded']}"]`,
    );
    expect(await recorded.getByTestId('card-recorded').textContent()).toBe('Recorded');
    // The recorded audit of the same answers shows the same figures as the live one.
    const live = page.locator(
      `[data-testid="card-experiment"][data-experiment-id="${ids['Bias probes, live']}"]`,
    );
    expect(await recorded.getByTestId('card-row').allTextContents()).toEqual(
      await live.getByTestId('card-row').allTextContents(),
    );
    expect(await page.getByTestId('report-card').textContent()).not.toMatch(/NaN/);

    // Gates as planted, each with its rule and the experiment it rests on.
    const status = (id: string) => page.getByTestId(`gate-${id}`).getByTestId('gate-status').textContent();
    const planted = Object.fromEntries(card.gates.map((g) => [g.definition.id, g.status]));
    expect(planted.language_flip).toBe('fail');
    expect(['pass', 'warn']).toContain(planted.position_consistency);
    expect(planted.human_rho).toBe('not_measured');
    expect(await status('language_flip')).toBe('fail');
    expect(await status('position_consistency')).toBe(planted.position_consistency);
    expect(await status('human_rho')).toBe('not measured');
    expect(await page.getByTestId('gate-language_flip').textContent()).toContain('set by the researcher');
    expect(await page.getByTestId('gate-language_flip').getByRole('link').textContent()).toBe(
      'Judge-LS on LLMBar',
    );
    expect(await page.getByTestId('gate-length_effect').textContent()).toContain('Cohen (1988)');
    await shootWhole(page, 'report-card-en');

    // A row's link opens the experiment's results.
    await page.getByTestId('gate-language_flip').getByRole('link').click();
    await expect
      .poll(() => page.evaluate(() => location.hash))
      .toBe(`#/experiments/${ids['Judge-LS on LLMBar']}/results`);
  }, 300_000);

  it('speaks 中文 and downloads the card as PNG', async () => {
    await page.goto(`${server.url}#/judges?model=${encodeURIComponent(MODEL)}`);
    await page.getByTestId('report-card').waitFor();
    await switchLanguage(page, 'zh');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('评审模型成绩单');
    expect(await page.getByTestId('gate-language_flip').getByTestId('gate-status').textContent()).toBe(
      '未通过',
    );
    expect(await page.getByTestId('gate-human_rho').getByTestId('gate-status').textContent()).toBe('未测量');
    expect(await page.getByTestId('gate-language_flip').textContent()).toContain('研究者设定');
    // Conditions and reasons in 中文 too: only codes (EN, ZH, NR…) stay Latin, never a word.
    const conditions = await page.getByTestId('card-condition').allTextContents();
    expect(conditions.length).toBeGreaterThan(card.experiments.length);
    const words = (texts: string[]) =>
      texts.flatMap((c) => c.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => w !== 'Markdown');
    expect(words(conditions)).toEqual([]);
    expect(conditions).toContain('长度：加长（成对比较）');
    expect(words(await page.getByTestId('card-ci').allTextContents())).toEqual([]);
    expect(await page.getByTestId('report-card').textContent()).toContain('无区间：不计算 d_z 的区间');
    await shootWhole(page, 'report-card-zh');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: CHILD_WAIT_MS }),
      page.getByTestId('card-download-png').click(),
    ]);
    expect(download.suggestedFilename()).toBe('report-card-openai-gpt-4.1-mini.png');
    const png = await downloadBytes(download);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await switchLanguage(page, 'en');
  }, 300_000);

  it('changes a gate on the page: the card is held to the new threshold', async () => {
    await page.goto(`${server.url}#/judges?model=${encodeURIComponent(MODEL)}`);
    await page.getByTestId('report-card').waitFor();
    await page.getByTestId('gates-editor').locator('summary').click();
    await page.getByTestId('gate-threshold-language_flip').waitFor();
    await saveScreenshot(page.getByTestId('gates-editor'), 'report-card-gates-editor');
    await page.getByTestId('gate-threshold-language_flip').fill('100');
    await page.getByTestId('gates-save').click();
    await expect
      .poll(() => page.getByTestId('gate-language_flip').getByTestId('gate-status').textContent(), {
        timeout: CHILD_WAIT_MS,
      })
      .toBe('pass');
    expect(await page.getByTestId('gate-language_flip').getByTestId('gate-rule').textContent()).toBe(
      '≤ 100.0%',
    );
  }, 300_000);
});

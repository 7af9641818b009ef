// Issue 5 end to end: a non-programmer loads the sample, sets up a run with two judges in the
// wizard, watches it finish, reads the dashboard, follows a flip-rate bar to the flips behind it,
// reads one flip in both languages, switches to Chinese and exports, all in real Chromium against
// `judge-lab serve`, with the providers played by the loopback mock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatasetFile } from '../../src/main/import';
import type { Item } from '../../src/shared/domain';
import type { JudgmentView } from '../../src/shared/protocols/judge-ls/views';
import { downloadBytes, launchChromium } from '../helpers/browser';
import { assertBuilt, ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { judgeLsResponder, LS_TAG, ZH_TAG } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { shootAll, switchLanguage } from './helpers/screens';
import { callApi, startServeWithEnv, type ServeHandle } from './helpers/serve';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
const LIMIT = 40;
const KEYS = { MOCK_OPENAI_KEY: 'sk-e2e-openai', MOCK_ANTHROPIC_KEY: 'sk-e2e-anthropic' };
const GPT = 'gpt-4.1-mini';
const CLAUDE = 'claude-haiku-4-5';
const JUDGES = [GPT, CLAUDE];
const EXPERIMENT = 'e2e workspace';
/** Every figure of the dashboard, and those that draw one bar group per judge. */
const FIGURES = [
  'accuracy_by_language',
  'accuracy_by_language_tie_half',
  'accuracy_drop',
  'flip_rates',
  'subset_flip_heatmap',
  'position_inconsistency',
  'tie_probe_preference',
  'subset_quality_heatmap',
];
const PER_JUDGE_FIGURES = [
  'accuracy_by_language',
  'flip_rates',
  'position_inconsistency',
  'tie_probe_preference',
];
/** The Okabe–Ito orange of the "Flip EN-ZH" series (src/shared/protocols/judge-ls/report/figures.ts). */
const FLIP_EN_ZH_FILL = '#E69F00';

// The mock needs Item-shaped records to know which item and output a prompt shows.
const items: Item[] = parseDatasetFile('llmbar.jsonl', readFileSync(SAMPLE)).items.map((it, i) => ({
  ...it,
  id: i + 1,
  datasetId: 1,
  position: i + 1,
}));

let browser: Browser;
let page: Page;
let mock: MockProvider;
let server: ServeHandle;
let cleanup: () => void;
let experimentId: number;
let flippedJudge: string;
const dialogs: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  const responder = judgeLsResponder(items);
  mock = await startMockProvider({ respond: responder.respond, latencyMs: [1, 6], wrapText: false });
  // The web app sends a key only to a known API or to the server its <NAME>_BASE_URL names.
  server = await startServeWithEnv(join(tmp.dir, 'data'), {
    ...KEYS,
    MOCK_OPENAI_BASE_URL: `${mock.url}/v1`,
    MOCK_ANTHROPIC_BASE_URL: mock.url,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  cleanup?.();
});

const byTestId = (id: string) => page.getByTestId(id);
const providerCard = (name: string) => page.locator(`[data-testid="provider-card"][data-provider="${name}"]`);
const cellText = (row: Locator, col: number) => row.locator('td').nth(col).innerText();

/** Flips of one judge and comparison, counted straight from the stored judgments. */
function expectedFlips(judgments: JudgmentView[], judge: string, target: 'ZH' | 'LS'): number {
  const choice = (j: JudgmentView) => {
    if (j.winner === 'tie') return 'tie';
    const aIsOutput1 = j.order === 'orig';
    return (j.winner === 'A') === aIsOutput1 ? '1' : '2';
  };
  const valid = (lang: string) =>
    new Map(
      judgments
        .filter(
          (j) =>
            j.judge === judge &&
            j.kind === 'quality' &&
            j.language === lang &&
            j.status === 'ok' &&
            j.winner !== null,
        )
        .map((j) => [`${j.itemId}|${j.order}`, choice(j)]),
    );
  const en = valid('EN');
  const other = valid(target);
  let n = 0;
  for (const [key, c] of en) if (other.has(key) && other.get(key) !== c) n++;
  return n;
}

describe('results workspace in Chromium via judge-lab serve (issue 5)', () => {
  it('loads the LLMBar sample', async () => {
    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await byTestId('load-sample').click();
    await expect
      .poll(() => byTestId('dataset-row').first().getByTestId('dataset-item-count').innerText())
      .toMatch(/419/);
    await shootAll(page, 'datasets');
  });

  it('walks the setup wizard to the summary with the expected estimate', async () => {
    await byTestId('nav-experiments').click();
    await byTestId('new-experiment').click();

    // Dataset: the sample is preselected.
    await expect.poll(() => byTestId('wizard-dataset').inputValue()).not.toBe('');
    await byTestId('wizard-next').click();
    // Protocol: Judge-LS is the only one.
    await byTestId('wizard-next').click();

    // Judge 1: an OpenAI-compatible custom endpoint (the mock).
    const first = byTestId('judge-row').nth(0);
    await first.getByTestId('judge-provider-preset').selectOption('custom');
    await first.getByTestId('judge-model').fill(GPT);
    const custom = providerCard('custom');
    await custom.getByTestId('provider-kind').selectOption('openai');
    await custom.getByTestId('provider-baseurl').fill(`${mock.url}/v1`);
    await custom.getByTestId('provider-apikeyenv').fill('MOCK_OPENAI_KEY');

    // Judge 2: the Anthropic preset, pointed at the mock, without the preset's 50 rpm.
    await byTestId('add-judge').click();
    const second = byTestId('judge-row').nth(1);
    await second.getByTestId('judge-provider-preset').selectOption('anthropic');
    expect(await second.getByTestId('judge-model').inputValue()).toBe(CLAUDE);
    const anthropic = providerCard('anthropic');
    await anthropic.getByTestId('provider-apikeyenv').fill('MOCK_ANTHROPIC_KEY');
    await anthropic.locator('details > summary').click();
    await anthropic.getByTestId('provider-baseurl').fill(mock.url);
    await anthropic.getByTestId('provider-rpm').fill('');
    await anthropic.getByTestId('provider-concurrency').fill('8');

    expect(await first.getByTestId('judge-label').inputValue()).toBe(GPT);
    expect(await second.getByTestId('judge-label').inputValue()).toBe(CLAUDE);
    // The serve process has both keys in its environment; the page only learns that they are set.
    await expect.poll(() => custom.getByTestId('key-status').getAttribute('data-status')).toBe('set');
    await expect.poll(() => anthropic.getByTestId('key-status').getAttribute('data-status')).toBe('set');
    await byTestId('wizard-next').click();

    // Transformer: follows judge 1's provider and model.
    expect(await byTestId('transform-provider').inputValue()).toBe('custom');
    expect(await byTestId('transform-model').inputValue()).toBe(GPT);
    expect(await byTestId('language-ZH').isChecked()).toBe(true);
    expect(await byTestId('language-LS').isChecked()).toBe(true);
    await byTestId('wizard-next').click();

    // Options: 40 items, tie probes on.
    await byTestId('option-limit').fill(String(LIMIT));
    await byTestId('option-tie-probes').check();
    await byTestId('experiment-name').fill(EXPERIMENT);
    await byTestId('wizard-next').click();

    // Summary: 2 translations per item; 6 verdicts + 2 tie probes per item and judge.
    const table = byTestId('estimate-table');
    await expect.poll(() => table.isVisible(), { timeout: 60_000 }).toBe(true);
    const rows = table.getByTestId('estimate-row');
    const transform = rows.and(page.locator('[data-kind="transform"]'));
    expect(await transform.count()).toBe(1);
    expect(await cellText(transform, 3)).toBe(String(LIMIT * 2));
    for (const judge of JUDGES) {
      const own = rows.filter({ has: page.locator('td', { hasText: judge }) });
      const quality = own.and(page.locator('[data-kind="quality"]'));
      const probes = own.and(page.locator('[data-kind="tie_probe"]'));
      expect(Number(await cellText(quality, 3)) + Number(await cellText(probes, 3))).toBe(LIMIT * 8);
      expect(await cellText(quality, 3)).toBe(String(LIMIT * 6));
      expect(await cellText(probes, 3)).toBe(String(LIMIT * 2));
    }
    expect(await byTestId('estimate-total-calls').innerText()).toBe(String(LIMIT * 2 + LIMIT * 8 * 2));
    await shootAll(page, 'wizard-summary', () =>
      expect.poll(() => byTestId('estimate-table').isVisible()).toBe(true),
    );
  });

  it('creates and starts the run and shows it finishing', async () => {
    await byTestId('create-and-start').click();
    await expect.poll(() => page.url()).toMatch(/#\/experiments\/\d+$/);
    experimentId = Number(/#\/experiments\/(\d+)$/.exec(page.url())![1]);
    const status = byTestId('run-status').locator('[data-status]');
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 90_000, interval: 500 })
      .toBe('finished');
    expect(await byTestId('run-status').innerText()).toMatch(/finished/);
    // Exactly the planned calls reached the providers, each judge on its own API.
    const kinds = mock.countBy((e) => `${e.api}|${e.model}|${e.path.endsWith('/messages') ? 'm' : 'c'}`);
    expect(kinds).toEqual({
      [`openai|${GPT}|c`]: LIMIT * 2 + LIMIT * 8,
      [`anthropic|${CLAUDE}|m`]: LIMIT * 8,
    });
    expect(mock.log.every((e) => e.status === 200)).toBe(true);
    await expect.poll(() => byTestId('run-phase-judge').getAttribute('data-done')).toBe(String(LIMIT * 16));
    await shootAll(page, 'run');
  });

  it('shows the translations for review', async () => {
    await byTestId('run-variants').click();
    await expect.poll(() => byTestId('variant-item-row').count()).toBeGreaterThan(0);
    await shootAll(page, 'variants');
    await page.goBack();
    await expect.poll(() => byTestId('run-results').isVisible()).toBe(true);
  });

  it('opens the dashboard: tables have rows, every chart is drawn', async () => {
    await byTestId('run-results').click();
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);

    const rowsOf = (id: string) => byTestId(`table-${id}`).getByTestId('results-row').count();
    expect(await rowsOf('quality')).toBe(JUDGES.length * 3);
    expect(await rowsOf('invariance')).toBe(JUDGES.length * 2);
    expect(await rowsOf('position')).toBe(JUDGES.length * 3);
    expect(await rowsOf('tie_probe')).toBe(JUDGES.length);
    expect(await rowsOf('usage')).toBeGreaterThanOrEqual(JUDGES.length);

    for (const id of FIGURES) {
      const chart = byTestId(`chart-${id}`);
      await chart.scrollIntoViewIfNeeded();
      await expect.poll(() => chart.locator('svg path').count(), { timeout: 60_000 }).toBeGreaterThan(0);
      if (PER_JUDGE_FIGURES.includes(id)) {
        const svgText = (await chart.locator('svg text').allTextContents()).join('\n');
        for (const judge of JUDGES) expect(svgText, `${id} names ${judge}`).toContain(judge);
      }
    }
    // Flip rates: four series in the legend and one "Flip EN-ZH" bar per judge.
    const flip = byTestId('chart-flip_rates').locator('svg');
    const legend = (await flip.locator('text').allTextContents()).filter((t) =>
      /^(Correctness flip|Flip) EN-/.test(t),
    );
    expect(legend.sort()).toEqual([
      'Correctness flip EN-LS',
      'Correctness flip EN-ZH',
      'Flip EN-LS',
      'Flip EN-ZH',
    ]);
    expect(await flipBars().count()).toBe(JUDGES.length);

    // The frame's main element is the scroller, not the window.
    await page.evaluate(() => {
      document.getElementById('main')?.scrollTo(0, 0);
      window.scrollTo(0, 0);
    });
    await shootAll(page, 'results');
    await byTestId('chart-flip_rates').scrollIntoViewIfNeeded();
    await shootAll(page, 'results-flip-chart');
  });

  it('clicking a flip-rate bar opens the flip browser with the matching count', async () => {
    const bars = flipBars();
    const boxes = await Promise.all(
      Array.from({ length: await bars.count() }, (_, i) => bars.nth(i).boundingBox()),
    );
    const bar = boxes.filter((b) => b !== null).sort((a, b) => a.x - b.x)[0];
    // The judge whose axis label sits under the bar.
    const labels = await Promise.all(
      JUDGES.map(async (judge) => {
        const box = await byTestId('chart-flip_rates')
          .locator('svg text', { hasText: judge })
          .first()
          .boundingBox();
        return { judge, x: box!.x + box!.width / 2 };
      }),
    );
    const barX = bar.x + bar.width / 2;
    flippedJudge = labels.sort((a, b) => Math.abs(a.x - barX) - Math.abs(b.x - barX))[0].judge;

    await page.mouse.click(barX, bar.y + bar.height / 2);
    await expect.poll(() => byTestId('flip-browser').isVisible(), { timeout: 60_000 }).toBe(true);
    const hash = new URL(page.url()).hash;
    expect(hash).toMatch(new RegExp(`^#/experiments/${experimentId}/flips\\?`));
    const query = new URLSearchParams(hash.slice(hash.indexOf('?') + 1));
    expect(query.get('judge')).toBe(flippedJudge);
    expect(query.get('comparison')).toBe('EN-ZH');
    expect(await byTestId('filter-judge').inputValue()).toBe(flippedJudge);
    expect(await byTestId('filter-comparison').inputValue()).toBe('EN-ZH');

    const judgments = await callApi<JudgmentView[]>(server, 'experiments.protocolView', {
      experimentId,
      view: 'judgments',
    });
    expect(judgments).toHaveLength(LIMIT * 8 * JUDGES.length);
    const expected = expectedFlips(judgments, flippedJudge, 'ZH');
    expect(expected).toBeGreaterThan(0);
    await expect
      .poll(() => byTestId('flip-count').innerText())
      .toMatch(new RegExp(`^${expected} of \\d+ flips?$`));
    // The dashboard's flip rate counts the same pairs.
    const results = await callApi<{
      metrics: { language_invariance: { judge: string; comparison: string; flip_rate: number; n: number }[] };
    }>(server, 'experiments.results', { experimentId });
    const row = results.metrics.language_invariance.find(
      (r) => r.judge === flippedJudge && r.comparison === 'EN-ZH',
    )!;
    expect(Math.round(row.flip_rate * row.n)).toBe(expected);
    // The rows in view (the list is virtualized) are all of that judge and comparison.
    const shown = byTestId('flip-row');
    expect(await shown.count()).toBeGreaterThan(0);
    expect(await shown.count()).toBeLessThanOrEqual(expected);
    for (let i = 0; i < (await shown.count()); i++) {
      const cells = await shown.nth(i).getByRole('cell').allInnerTexts();
      expect(cells[1]).toBe(flippedJudge);
      expect(cells[2]).toBe('EN-ZH');
    }
    await shootAll(page, 'flips');
  });

  it('opens a flip: both languages, both reasons as plain text', async () => {
    await byTestId('flip-row').first().click();
    const detail = byTestId('flip-detail');
    await expect.poll(() => detail.isVisible()).toBe(true);
    await expect
      .poll(() => byTestId('text-target-output1').innerText(), { timeout: 60_000 })
      .toMatch(new RegExp(`^(${ZH_TAG}|${LS_TAG})`));
    const english = await byTestId('text-en-output1').innerText();
    expect(english.length).toBeGreaterThan(0);
    expect(english).not.toContain(ZH_TAG);
    expect(await byTestId('text-target-instruction').innerText()).toContain(ZH_TAG);

    // The mock's reasons carry <b>…</b>: shown as text, never as markup.
    for (const id of ['verdict-en-reason', 'verdict-target-reason']) {
      const reason = byTestId(id);
      expect(await reason.innerText()).toMatch(/<b>(EN|ZH)<\/b>/);
      expect(await reason.locator('b').count()).toBe(0);
    }
    expect(await byTestId('verdict-en-reason').innerText()).toContain('<b>EN</b>');
    expect(await byTestId('verdict-target-reason').innerText()).toContain('<b>ZH</b>');
    expect(await detail.locator('b').count()).toBe(0);
    expect(await byTestId('reason-diff').innerText()).toContain('<b>');
    await shootAll(page, 'flip-item');
  });

  it('switches the UI to Chinese', async () => {
    await switchLanguage(page, 'zh');
    await expect.poll(() => page.locator('.breadcrumb').innerText()).toContain('结果');
    expect(await page.locator('.breadcrumb').innerText()).toContain('翻转');
    await page.goBack();
    await expect.poll(() => byTestId('flip-browser').isVisible()).toBe(true);
    await expect.poll(() => page.locator('h1').innerText()).toBe('翻转');
    await switchLanguage(page, 'en');
  });

  it('exports everything from the dashboard as one zip download', async () => {
    // Experiments / experiment / Results / Flips: the last link goes back to the results.
    await page.locator('.breadcrumb a').last().click();
    await expect.poll(() => byTestId('results-page').isVisible()).toBe(true);
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await byTestId('export-all').first().click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${EXPERIMENT}.zip`);
    const zip = unzipSync(await downloadBytes(download));
    const file = (rel: string) => zip[`${EXPERIMENT}/${rel}`];
    for (const f of ['metrics.json', 'judgments.csv', 'manifest.json']) expect(file(f), f).toBeDefined();
    const names = Object.keys(zip);
    expect(
      names.filter((f) => f.startsWith(`${EXPERIMENT}/tables/`) && f.endsWith('.tex')).length,
    ).toBeGreaterThanOrEqual(5);
    for (const id of ['flip_rates', 'accuracy_by_language']) {
      expect(file(`figures/${id}.svg`)).toBeDefined();
      expect(file(`figures/${id}.png`).length).toBeGreaterThan(1000);
    }
    const metrics = JSON.parse(strFromU8(file('metrics.json'))) as Record<string, unknown>;
    expect(Object.keys(metrics)).toEqual(
      expect.arrayContaining(['quality', 'language_invariance', 'tie_probe']),
    );
    // judgments.csv: BOM, header, one line per planned judgment.
    const csv = Buffer.from(file('judgments.csv')).toString('utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.trim().split(/\r?\n/)).toHaveLength(1 + LIMIT * 8 * JUDGES.length);
  });

  it('fired no dialog and threw no page error along the way', () => {
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

/** The "Flip EN-ZH" bars of the flip-rate chart; the legend's icon of that colour is placed by a transform. */
function flipBars(): Locator {
  return byTestId('chart-flip_rates').locator(`svg path[fill="${FLIP_EN_ZH_FILL}"]:not([transform])`);
}

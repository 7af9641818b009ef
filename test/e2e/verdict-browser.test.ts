// Issue 26 item 4 in Chromium through `judge-lab serve`: from a number in a results table to the
// verdicts behind it, for every protocol (Judge-LS's accuracy by language and its language flips,
// reference sensitivity's acceptance by setting and its calibration, bias probes' effects,
// self-consistency's stability) on a data folder filled by simulated runs (no key, no
// network). The rows shown must be as many as the cell's n, and the rate cells must be what
// those rows give; a row opens its item with the judge's reason. 中文: no English sentence
// but the model's and the dataset's text, no page error. Screenshots EN/中文 × light/dark.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli';
import { SIM_PROVIDERS, startSeededApp, type AppInBrowser } from './helpers/app';
import { englishOnScreen } from './helpers/english';
import { shootAll, switchLanguage } from './helpers/screens';

let app: AppInBrowser<{ url: string; stop: () => Promise<void> }>;
let page: Page;
let judgeLsId = 0;
let refsensId = 0;
let biasId = 0;
let scId = 0;
/** The demo items' texts: data, shown as they are on a 中文 page. */
const demoText: string[] = [];

beforeAll(async () => {
  assertBuilt();
  app = await startSeededApp(
    async (core) => {
      const { dataset: demo } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      const { dataset: qa } = await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
      for (const r of (await core.call('items.list', { datasetId: demo.id })).slice(0, 4)) {
        const item = await core.call('items.get', { itemId: r.id });
        for (const text of [item.instruction, item.output1, item.output2])
          if (text) demoText.push(...text.split('\n').filter((line) => line.trim().length >= 12));
      }
      judgeLsId = core.experiments.createOrUpdate({
        name: 'Verdicts language study',
        protocol: 'judge-ls',
        dataset: demo.id,
        limit: 6,
        providers: SIM_PROVIDERS,
        transform: { provider: 'sim', model: 'sim-translator' },
        // The weak judge errs now and then, so accuracy is not 100% everywhere.
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge-weak' }],
      }).id;
      await core.experiments.runToEnd(judgeLsId);
      refsensId = core.experiments.createOrUpdate({
        name: 'Verdicts reference study',
        protocol: 'reference-sensitivity',
        dataset: qa.id,
        limit: 8,
        providers: SIM_PROVIDERS,
        generators: [{ label: 'Sim gen', provider: 'sim', model: 'sim-generator' }],
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
      }).id;
      await core.experiments.runToEnd(refsensId);
      biasId = core.experiments.createOrUpdate({
        name: 'Verdicts bias study',
        protocol: 'bias-probes',
        dataset: demo.id,
        limit: 6,
        providers: SIM_PROVIDERS,
        rewriter: { provider: 'sim', model: 'sim-rewriter' },
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
        mode: 'pointwise',
      }).id;
      await core.experiments.runToEnd(biasId);
      scId = core.experiments.createOrUpdate({
        name: 'Verdicts repeats study',
        protocol: 'self-consistency',
        dataset: demo.id,
        limit: 4,
        providers: SIM_PROVIDERS,
        // Planted instability, so not every question is unanimous.
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge-flip40' }],
        repeats: 3,
      }).id;
      await core.experiments.runToEnd(scId);
    },
    { width: 1280, height: 900 },
  );
  page = app.page;
}, 240_000);

afterAll(async () => {
  await app?.close();
});

const go = async (hash: string, ready: string) => {
  await page.goto(`${app.server.url}#${hash}`);
  await page.locator(ready).first().waitFor();
};

/** A row's cell of a column (SortableTable marks each cell with its column key). */
const cell = (row: Locator, column: string) => row.locator(`td[data-column="${column}"]`);

/** Opens the results, clicks `column` of the table's `index`-th row, waits for the list. */
async function openCell(experimentId: number, tableId: string, index: number, column: string, count = 'n') {
  await go(`/experiments/${experimentId}/results`, `[data-testid="table-${tableId}"]`);
  const row = page.getByTestId(`table-${tableId}`).getByTestId('results-row').nth(index);
  const link = cell(row, column).getByTestId('cell-verdicts');
  await link.waitFor();
  const text = (await link.innerText()).trim();
  const n = Number((await cell(row, count).innerText()).replace(/[^\d]/g, ''));
  await link.click();
  await page.getByTestId('verdicts-page').waitFor();
  await expect.poll(() => page.getByTestId('verdict-count').getAttribute('data-count')).not.toBeNull();
  return { text, n };
}

const shownRows = () => page.getByTestId('verdict-row');
const pct = (k: number, n: number) => ((100 * k) / n).toFixed(1);

describe('the verdicts behind a table cell, in Chromium', () => {
  it('Judge-LS: an accuracy cell opens exactly the n verdicts of its judge and language', async () => {
    // Every row of the quality table: the rows shown match its n, and its strict accuracy is the
    // share of them graded correct. (The language switch needs a page: on the blank page the
    // browser opens with, it waited out its whole timeout.)
    const rows = await (async () => {
      await go(`/experiments/${judgeLsId}/results`, '[data-testid="table-quality"]');
      await switchLanguage(page, 'en');
      await page.getByTestId('table-quality').waitFor();
      return page.getByTestId('table-quality').getByTestId('results-row').count();
    })();
    expect(rows).toBe(3); // EN, ZH, LS for one judge
    for (let i = 0; i < rows; i++) {
      const { text, n } = await openCell(judgeLsId, 'quality', i, 'accuracy_strict');
      expect(n).toBeGreaterThan(0);
      expect(Number(await page.getByTestId('verdict-count').getAttribute('data-count'))).toBe(n);
      await expect.poll(() => shownRows().count()).toBe(n);
      const correct = await page
        .getByTestId('verdict-list')
        .locator('tbody tr')
        .filter({ has: page.locator('td:nth-last-child(2)', { hasText: /^yes$/ }) })
        .count();
      expect(text).toBe(pct(correct, n));
    }
  }, 240_000);

  it('opens a verdict with Enter: its item and the judge’s reason, as text', async () => {
    await openCell(judgeLsId, 'quality', 0, 'n');
    const first = shownRows().first();
    const reason = (await first.locator('.verdicts-table__reason').innerText()).trim();
    await first.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('verdict-detail').waitFor();
    expect((await page.getByTestId('verdict-reason').innerText()).trim()).toBe(reason);
    await page.getByTestId('item-viewer').waitFor();
    await shootAll(page, 'verdict-browser-item', () => page.getByTestId('item-viewer').waitFor());
  }, 120_000);

  it('a filter widens the list to every language, and back', async () => {
    const { n } = await openCell(judgeLsId, 'quality', 0, 'n');
    await page.getByTestId('verdict-filter-language').selectOption('');
    await expect
      .poll(async () => Number(await page.getByTestId('verdict-count').getAttribute('data-count')))
      .toBeGreaterThan(n);
    await page.getByTestId('verdict-filter-language').selectOption('EN');
    await expect
      .poll(async () => Number(await page.getByTestId('verdict-count').getAttribute('data-count')))
      .toBe(n);
  }, 120_000);

  it('reference sensitivity: an acceptance cell opens exactly its verdicts, each with the answer shown', async () => {
    await go(`/experiments/${refsensId}/results`, '[data-testid="table-acceptance"]');
    const rows = await page.getByTestId('table-acceptance').getByTestId('results-row').count();
    expect(rows).toBeGreaterThan(0);
    // The first rows and the last (one generator: its rows once, no pooled "all" copy).
    for (const i of new Set([0, 1, rows - 1])) {
      const { text, n } = await openCell(refsensId, 'acceptance', i, 'accept_rate');
      expect(Number(await page.getByTestId('verdict-count').getAttribute('data-count'))).toBe(n);
      await expect.poll(() => shownRows().count()).toBe(n);
      const accepted = await page
        .getByTestId('verdict-value')
        .filter({ hasText: /^CORRECT$/ })
        .count();
      expect(text).toBe(pct(accepted, n));
    }
    await shownRows().first().click();
    await page.getByTestId('verdict-shown').waitFor();
    expect((await page.getByTestId('verdict-shown').innerText()).trim().length).toBeGreaterThan(0);
  }, 240_000);

  it('bias probes: an effect’s cell opens exactly its paired differences, their mean the cell’s, in 中文 too', async () => {
    await go(`/experiments/${biasId}/results`, '[data-testid="table-bias_profile"]');
    const rows = await page.getByTestId('table-bias_profile').getByTestId('results-row').count();
    expect(rows).toBeGreaterThan(2);
    for (const i of new Set([0, rows - 1])) {
      const { text, n } = await openCell(biasId, 'bias_profile', i, 'mean');
      await expect.poll(() => shownRows().count()).toBe(n);
      const changes = (await page.getByTestId('verdict-value').allInnerTexts()).map((v) => {
        const [before, after] = v.split(' → ').map(Number);
        return after - before;
      });
      expect(changes).toHaveLength(n);
      expect((changes.reduce((a, b) => a + b, 0) / n).toFixed(3)).toBe(text.replace('−', '-'));
    }
    await switchLanguage(page, 'zh');
    await expect.poll(() => page.getByTestId('verdict-count').innerText()).toMatch(/条判决$/);
    const reasons = await page.locator('.verdicts-table__reason').allInnerTexts();
    expect(await englishOnScreen(page, [...reasons, 'Judge Lab', 'Verdicts bias study'])).toEqual([]);
    await switchLanguage(page, 'en');
  }, 240_000);

  it('Judge-LS: a language flip cell opens exactly its n pairs, both verdicts side by side', async () => {
    const { text, n } = await openCell(judgeLsId, 'invariance', 0, 'flip_rate');
    expect(n).toBeGreaterThan(0);
    await expect.poll(() => shownRows().count()).toBe(n);
    const pairs = (await page.getByTestId('verdict-value').allInnerTexts()).map((v) =>
      v.split(' → ').map((side) => side.split(' ')[0]),
    );
    expect(pairs).toHaveLength(n);
    expect(text).toBe(pct(pairs.filter(([a, b]) => a !== b).length, n));
  }, 120_000);

  it('reference sensitivity: a calibration cell opens exactly its n pairs of C1 and C2 verdicts', async () => {
    const { text, n } = await openCell(refsensId, 'calibration', 0, 'c1_accept');
    expect(n).toBeGreaterThan(0);
    await expect.poll(() => shownRows().count()).toBe(n);
    const c1 = (await page.getByTestId('verdict-value').allInnerTexts()).map((v) => v.split(' → ')[0]);
    expect(text).toBe(pct(c1.filter((v) => v === 'CORRECT').length, n));
  }, 120_000);

  it('self-consistency: a stability cell opens exactly its questions, their repeats giving the share, in 中文 too', async () => {
    const { text, n } = await openCell(scId, 'stability', 0, 'unanimous_rate', 'questions');
    expect(n).toBe(8); // 4 items × 2 orders
    await expect.poll(() => shownRows().count()).toBe(n);
    const repeats = (await page.getByTestId('verdict-value').allInnerTexts()).map((v) => v.split(' '));
    expect(repeats.every((r) => r.length === 3)).toBe(true);
    expect(text).toBe(pct(repeats.filter((r) => new Set(r).size === 1).length, n));
    await switchLanguage(page, 'zh');
    await expect.poll(() => page.getByTestId('verdict-count').innerText()).toMatch(/条判决$/);
    const reasons = await page.locator('.verdicts-table__reason').allInnerTexts();
    expect(await englishOnScreen(page, [...reasons, 'Judge Lab', 'Verdicts repeats study'])).toEqual([]);
    await shownRows().first().click();
    await page.getByTestId('item-viewer').waitFor();
    const reason = await page.getByTestId('verdict-reason').innerText();
    const allowed = [...reason.split('\n'), ...demoText, 'Judge Lab', 'Verdicts repeats study'];
    expect(await englishOnScreen(page, allowed)).toEqual([]);
    await switchLanguage(page, 'en');
  }, 180_000);

  it('speaks 中文 with no English sentence but the model’s and the dataset’s text, and no page error', async () => {
    await openCell(refsensId, 'acceptance', 0, 'n');
    await shootAll(page, 'verdict-browser', () => shownRows().first().waitFor());
    await switchLanguage(page, 'zh');
    await expect.poll(() => page.getByTestId('verdict-count').innerText()).toMatch(/条判决$/);
    // Model text (reasons) and table titles carried from the results page are data here.
    const reasons = await page.locator('.verdicts-table__reason').allInnerTexts();
    expect(await englishOnScreen(page, [...reasons, 'Judge Lab', 'Verdicts reference study'])).toEqual([]);
    await switchLanguage(page, 'en');
    expect(app.pageErrors).toEqual([]);
  }, 120_000);
});

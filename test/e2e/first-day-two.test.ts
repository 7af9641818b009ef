// Issue 26 in Chromium through `judge-lab serve`, on a data folder filled by simulated runs of
// three protocols: every dataset kind with its own columns and item view (item 1), the
// experiments list with its protocol column, and the walk's polish (item 8): the significance
// table's headers in 中文, breadcrumbs naming the experiment, Enter opening a flip, the export
// box saying "zip" in the browser. No English sentence on the 中文 pages, no page error.
// Screenshots EN/中文 × light/dark of each changed page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli';
import { SIM_PROVIDERS, startSeededApp, type AppInBrowser } from './helpers/app';
import { englishOnScreen } from './helpers/english';
import { shootAll, switchLanguage } from './helpers/screens';

let app: AppInBrowser<{ url: string; stop: () => Promise<void> }>;
let page: Page;
let judgeLsId = 0;
let refsensId = 0;
let qaDatasetId = 0;
let pointwiseDatasetId = 0;
let pointwiseItemId = 0;
const dataText: string[] = [];

const POINTWISE = [
  {
    id: 'pw-1',
    instruction: 'Name a prime number.',
    response: 'Seven is prime.',
    human_score: 5,
    category: 'math',
  },
  { id: 'pw-2', instruction: 'Greet me.', response: 'Hello!', human_score: 3, category: 'chat' },
];

beforeAll(async () => {
  assertBuilt();
  app = await startSeededApp(
    async (core) => {
      const { dataset: demo } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      const { dataset: qa } = await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
      qaDatasetId = qa.id;
      const { dataset: pw } = await core.call('datasets.import', {
        fileName: 'scores.jsonl',
        contentBase64: Buffer.from(POINTWISE.map((r) => JSON.stringify(r)).join('\n')).toString('base64'),
      });
      pointwiseDatasetId = pw.id;
      pointwiseItemId = (await core.call('items.list', { datasetId: pw.id }))[0].id;
      for (const ds of [demo, qa, pw]) {
        for (const r of await core.call('items.list', { datasetId: ds.id })) {
          const item = await core.call('items.get', { itemId: r.id });
          // Dataset text (questions, answers, outputs) stays as it is in any UI language.
          for (const v of [item.instruction, item.output1, item.output2, ...Object.values(item.extra ?? {})])
            for (const s of [v].flat())
              if (typeof s === 'string' && s.length >= 12) dataText.push(s.slice(0, 40));
        }
      }
      judgeLsId = core.experiments.createOrUpdate({
        name: 'Pilot language study',
        protocol: 'judge-ls',
        dataset: demo.id,
        limit: 6,
        providers: SIM_PROVIDERS,
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge-weak' }],
      }).id;
      await core.experiments.runToEnd(judgeLsId);
      refsensId = core.experiments.createOrUpdate({
        name: 'Reference pilot',
        protocol: 'reference-sensitivity',
        dataset: qa.id,
        limit: 6,
        providers: SIM_PROVIDERS,
        generators: [{ label: 'Sim gen', provider: 'sim', model: 'sim-generator' }],
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
      }).id;
      await core.experiments.runToEnd(refsensId);
      const bias = core.experiments.createOrUpdate({
        name: 'Bias pilot',
        protocol: 'bias-probes',
        dataset: pw.id,
        providers: SIM_PROVIDERS,
        rewriter: { provider: 'sim', model: 'sim-rewriter' },
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
        mode: 'pointwise',
      }).id;
      await core.experiments.runToEnd(bias);
    },
    { width: 1280, height: 900 },
  );
  page = app.page;
  page.setDefaultTimeout(20_000);
}, 240_000);

afterAll(async () => {
  await app?.close();
});

const go = async (hash: string, ready: string) => {
  await page.goto(`${app.server.url}#${hash}`);
  await page.locator(ready).first().waitFor();
};
const allowed = () => [
  ...dataText,
  'Judge Lab',
  'Pilot language study',
  'Reference pilot',
  'Bias pilot',
  'LLMBar',
  'TyDi',
  '(simulated)',
];

describe('issue 26 in Chromium', () => {
  it('lists each dataset with its kind and format, and opens QA and pointwise items in their own views', async () => {
    await go('/datasets', '[data-testid="dataset-row"]');
    await switchLanguage(page, 'en');
    const kinds = await page.getByTestId('dataset-kind').allInnerTexts();
    expect(kinds).toEqual(['Pairwise', 'QA', 'Pointwise']);
    const formats = await page.getByTestId('dataset-format').allInnerTexts();
    expect(formats).toEqual(['LLMBar JSONL', 'JSONL', 'JSONL']);
    await shootAll(page, 'datasets-kinds');

    await go(`/datasets/${qaDatasetId}`, '[data-testid="item-row"]');
    const headers = await page.locator('.item-table__row--head [role="columnheader"]').allInnerTexts();
    expect(headers.map((h) => h.toLowerCase())).toEqual(['id', 'language', 'question', 'gold answers']);
    const first = page.getByTestId('item-row').first();
    expect(await first.locator('[data-column="language"]').innerText()).toBe('en');
    expect(await first.locator('[data-column="answers"]').innerText()).toBe('Amos and Wilfrid Ayre');
    await shootAll(page, 'dataset-qa');
    // An Arabic question opens in the QA view: answers listed, read right to left.
    await page.getByTestId('item-search').fill('عاصمة');
    const arabic = page.getByTestId('item-row').first();
    await expect.poll(() => arabic.locator('[data-column="language"]').innerText()).toBe('ar');
    await arabic.click();
    await page.getByTestId('item-question').waitFor();
    expect(await page.getByTestId('item-question').getAttribute('dir')).toBe('auto');
    expect(await page.getByTestId('item-answer').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('item-language').innerText()).toMatch(/^Language: ar \(Arabic\)$/);
    await shootAll(page, 'item-qa');

    await go(`/datasets/${pointwiseDatasetId}/items/${pointwiseItemId}`, '[data-testid="item-response"]');
    expect(await page.getByTestId('item-response').innerText()).toBe('Seven is prime.');
    expect(await page.getByTestId('item-human-score').innerText()).toBe('Human score: 5');
    await shootAll(page, 'item-pointwise');
  }, 180_000);

  it('lists each experiment with its protocol', async () => {
    await go('/experiments', '[data-testid="experiment-row"]');
    const protocols = (await page.getByTestId('experiment-protocol').allInnerTexts()).map((p) =>
      p.replace(/^Protocol:\s*/, ''),
    );
    expect([...protocols].sort()).toEqual([
      'Bias probes',
      'Judge-LS: language sensitivity',
      'Reference sensitivity',
    ]);
    await shootAll(page, 'experiments-protocols');
  }, 120_000);

  it('names the experiment in the breadcrumbs, opens a flip with Enter, and says the export is a zip', async () => {
    await go(`/experiments/${judgeLsId}/flips`, '[data-testid="flip-row"]');
    await expect
      .poll(() => page.getByTestId('breadcrumb-experiment').innerText())
      .toBe('Pilot language study');
    await page.getByTestId('flip-list').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('flip-detail').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('flip-list').waitFor();
    // Enter with the focus on the page (not on a control) opens the row under the cursor too.
    await page.locator('h1').click();
    await page.keyboard.press('Enter');
    await page.getByTestId('flip-detail').waitFor();
    await go(`/experiments/${judgeLsId}/variants`, 'h1');
    await expect
      .poll(() => page.getByTestId('breadcrumb-experiment').innerText())
      .toBe('Pilot language study');
    await shootAll(page, 'variants-breadcrumb');

    await go(`/experiments/${refsensId}/refsens-flips`, '[data-testid="refsens-flip-row"]');
    await page.getByTestId('refsens-flip-list').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('refsens-flip-detail').waitFor();

    await go(`/experiments/${judgeLsId}`, '[data-testid="export-intro"]');
    expect(await page.getByTestId('export-intro').innerText()).toMatch(/zip/);
    await page.getByTestId('export-intro').scrollIntoViewIfNeeded();
    await shootAll(page, 'run-export-zip');
  }, 180_000);

  it('shows the 中文 pages without an English sentence or an untranslated header, and no page error', async () => {
    await go('/datasets', '[data-testid="dataset-row"]');
    await switchLanguage(page, 'zh');
    const found: Record<string, string[]> = {};
    const visit = async (name: string, hash: string, ready: string) => {
      await go(hash, ready);
      await page.waitForTimeout(300);
      found[name] = await englishOnScreen(page, allowed());
    };
    await visit('datasets', '/datasets', '[data-testid="dataset-row"]');
    await visit('qa list', `/datasets/${qaDatasetId}`, '[data-testid="item-row"]');
    await visit('experiments', '/experiments', '[data-testid="experiment-row"]');
    await visit(
      'judge-ls results',
      `/experiments/${judgeLsId}/results`,
      '[data-testid="table-significance"]',
    );
    const headers = await page.getByTestId('table-significance').locator('th').allInnerTexts();
    expect(headers.filter((h) => /^(Test|Favours)/.test(h.trim()))).toEqual([]);
    await page.getByTestId('table-significance').scrollIntoViewIfNeeded();
    await shootAll(page, 'significance-table', async () => {
      await page.getByTestId('table-significance').scrollIntoViewIfNeeded();
    });
    await switchLanguage(page, 'zh');
    await visit('run', `/experiments/${judgeLsId}`, '[data-testid="export-intro"]');
    await visit(
      'refsens flips',
      `/experiments/${refsensId}/refsens-flips`,
      '[data-testid="refsens-flip-row"]',
    );
    expect(found).toEqual({
      datasets: [],
      'qa list': [],
      experiments: [],
      'judge-ls results': [],
      run: [],
      'refsens flips': [],
    });
    await switchLanguage(page, 'en');
    expect(app.pageErrors).toEqual([]);
  }, 180_000);
});

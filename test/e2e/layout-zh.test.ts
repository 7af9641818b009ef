// Issue 15 item 9 in Chromium: at 1280 px the experiments table fits with Delete in view and
// the delete confirmation wraps a long name; in 中文 the status pills stay on one line; the
// charts' titles, axes and legends are Chinese in the 中文 UI (screenshots).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt } from '../helpers/cli';
import { SIM_PROVIDERS, startSeededApp, type AppInBrowser } from './helpers/app';

const SIM = SIM_PROVIDERS;
const LONG = 'Cross-lingual judge audit with a long descriptive name for the November replication';
// A name with nowhere to break a line (no space, no hyphen): how scripts and configs name runs.
const UNBROKEN = 'judge_ls_llmbar_natural_gpt4o_mini_20240718_vs_claude35_sonnet_20241022_replication03';

let app: AppInBrowser<{ url: string; stop: () => Promise<void> }>;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let finished: number;
let unbroken: number;
let ids: number[];

beforeAll(async () => {
  assertBuilt();
  app = await startSeededApp(
    async (core) => {
      const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
      const config = (name: string) => ({
        name,
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 6,
        providers: SIM,
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [
          { label: 'sim-judge-strong with a long label', provider: 'sim', model: 'sim-judge-strong' },
          { label: 'sim-judge-weak', provider: 'sim', model: 'sim-judge-weak' },
        ],
      });
      finished = core.experiments.createOrUpdate(config(LONG)).id;
      expect((await core.experiments.runToEnd(finished)).status).toBe('finished');
      unbroken = core.experiments.createOrUpdate(config(UNBROKEN)).id;
      expect((await core.experiments.runToEnd(unbroken)).status).toBe('finished');
      const draft = core.experiments.createOrUpdate(config(`${LONG} (draft)`)).id;
      ids = [finished, unbroken, draft];
    },
    { width: 1280, height: 800 },
  );
  ({ server, page } = app);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

async function setLanguage(lang: 'en' | 'zh') {
  await page.getByTestId('lang-switch').selectOption(lang);
}

/** Where the experiments table and its scroll box are, and whether anything overflows. */
function tableFit() {
  return page.evaluate(() => {
    const wrap = document.querySelector('.table-wrap') as HTMLElement;
    const table = wrap.querySelector('table') as HTMLElement;
    const w = wrap.getBoundingClientRect();
    return {
      wrapScroll: wrap.scrollWidth,
      wrapClient: wrap.clientWidth,
      scrollLeft: wrap.scrollLeft,
      tableRight: table.getBoundingClientRect().right,
      wrapLeft: w.left,
      wrapRight: w.right,
      pageScroll: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    };
  });
}

/** True when the element is what a click at its centre reaches (nothing covers or clips it). */
function reachable(testId: string, selector: string) {
  return page.evaluate(
    ([rowId, sel]) => {
      const el = document.querySelector(`[data-experiment-id="${rowId}"] ${sel}`) as HTMLElement;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && (hit === el || el.contains(hit));
    },
    [testId, selector] as const,
  );
}

async function expectTableFits(lang: string) {
  const fit = await tableFit();
  expect(fit.wrapScroll, `${lang}: table scrolls sideways`).toBeLessThanOrEqual(fit.wrapClient);
  expect(fit.scrollLeft).toBe(0);
  expect(fit.tableRight, `${lang}: table wider than its box`).toBeLessThanOrEqual(fit.wrapRight + 0.5);
  expect(fit.pageScroll, `${lang}: page scrolls sideways`).toBeLessThanOrEqual(fit.viewport);
}

for (const lang of ['en', 'zh'] as const)
  describe(`layout at 1280 × 800 (${lang})`, () => {
    const DELETE = lang === 'en' ? 'Delete' : '删除';
    const CANCEL = lang === 'en' ? 'Cancel' : '取消';

    it('fits the experiments table: no sideways scroll, every Delete in view and clickable', async () => {
      await page.goto(`${server.url}#/experiments`);
      await setLanguage(lang);
      await page.getByTestId('experiment-row').first().waitFor();
      await expect.poll(() => page.getByTestId('experiment-row').count()).toBe(ids.length);
      await expectTableFits(lang);
      for (const id of ids) {
        const row = page.locator(`[data-experiment-id="${id}"]`);
        const del = row.getByRole('button', { name: DELETE, exact: true });
        const box = (await del.boundingBox())!;
        expect(box.x, `${lang}: Delete of ${id} left of the viewport`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${lang}: Delete of ${id} cut off`).toBeLessThanOrEqual(1280);
        await del.scrollIntoViewIfNeeded();
        expect(
          await reachable(String(id), '.row-actions .btn--ghost'),
          `${lang}: Delete of ${id} covered`,
        ).toBe(true);
      }
    });

    it('shows the whole name in the delete confirmation, without scrolling it off the left edge', async () => {
      await page.goto(`${server.url}#/experiments`);
      await setLanguage(lang);
      for (const id of [finished, unbroken]) {
        const row = page.locator(`[data-experiment-id="${id}"]`);
        await row.getByRole('button', { name: DELETE, exact: true }).click();
        const text = row.locator('.confirm__text');
        await text.waitFor();
        await expectTableFits(`${lang} confirming`);
        const box = (await text.boundingBox())!;
        expect(box.x, `${lang}: confirmation of ${id} off the left edge`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(1280);
        // All of the name is laid out inside the text's box (nothing clipped or scrolled away).
        const clipped = await text.evaluate((e) => e.scrollWidth > e.clientWidth + 1);
        expect(clipped, `${lang}: confirmation text of ${id} clipped`).toBe(false);
        const name = id === finished ? LONG : UNBROKEN;
        expect(await text.innerText()).toContain(name);
        // The row's own name stays in view too.
        const link = (await row.locator('a.dataset-name').boundingBox())!;
        expect(link.x).toBeGreaterThanOrEqual(0);
        expect(await reachable(String(id), '.confirm .btn--danger')).toBe(true);
        if (id === unbroken) await saveScreenshot(page, `experiments-delete-1280-${lang}-light`);
        await row.getByRole('button', { name: CANCEL }).click();
      }
    });

    it('renders each status pill on one line', async () => {
      await page.goto(`${server.url}#/experiments`);
      await setLanguage(lang);
      await page.getByTestId('experiment-row').first().waitFor();
      const pills = await page.locator('.badge.status').evaluateAll((els) =>
        els.map((e) => {
          // One rectangle per line of text: a pill broken per character gives one per character.
          const range = document.createRange();
          range.selectNodeContents(e);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          const cs = getComputedStyle(e);
          const lineHeight = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.2;
          const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
          const border = parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth);
          return {
            text: e.textContent,
            lines: tops.size,
            height: e.getBoundingClientRect().height,
            one: lineHeight + pad + border,
          };
        }),
      );
      expect(pills.length).toBe(ids.length);
      for (const p of pills) {
        expect(p.lines, `${lang}: pill "${p.text}" on ${p.lines} lines`).toBe(1);
        expect(p.height, `${lang}: pill "${p.text}" ${p.height}px tall`).toBeLessThanOrEqual(p.one + 1);
      }
      if (lang === 'zh') await saveScreenshot(page, 'experiments-1280-zh-light');
    });
  });

describe('charts in 中文', () => {
  it('draws chart titles, axes and legends in Chinese in the 中文 UI', async () => {
    await page.goto(`${server.url}#/experiments/${finished}/results`);
    await setLanguage('zh');
    const chart = page.getByTestId('chart-accuracy_by_language');
    await chart.waitFor();
    // Charts are drawn when they come into view (800 px tall: below the fold).
    await chart.scrollIntoViewIfNeeded();
    await expect.poll(() => chart.locator('svg').innerHTML()).toContain('各语言的评审准确率');
    const svg = await chart.locator('svg').innerHTML();
    expect(svg).toContain('准确率（%）');
    expect(svg).toContain('评审模型');
    expect(svg).not.toContain('Judge accuracy');
    await chart.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'results-charts-zh-light');
    const flips = page.getByTestId('chart-flip_rates');
    await flips.scrollIntoViewIfNeeded();
    expect(await flips.locator('svg').innerHTML()).toContain('判断翻转 EN-ZH');
    await saveScreenshot(page, 'results-flip-chart-zh-light');
    // The export follows the UI language unless another is chosen.
    expect(await page.getByTestId('export-language').first().inputValue()).toBe('zh');
    await setLanguage('en');
  });
});

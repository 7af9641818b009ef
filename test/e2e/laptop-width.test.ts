// Issue 38 item 6 in Chromium at a laptop's widths (1280 and 1366 × 850): on every results page
// of a simulated Judge-LS run with the noise floor (results, exports, the wizard's power plan),
// no title or heading breaks a word or is cut, no table cell is cut, and a table wider than its
// box scrolls in a region that is named, focusable (the arrow keys scroll it) and whose
// scrollbar is on screen. Screenshots EN/中文 × light/dark; axe-core clean.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAxeClean } from '../helpers/axe';
import { assertBuilt } from '../helpers/cli';
import { SIM_PROVIDERS, startSeededApp, type AppInBrowser } from './helpers/app';
import { saveScreenshot } from '../helpers/screenshots';
import { shootAll, switchLanguage } from './helpers/screens';

let app: AppInBrowser<{ url: string; stop: () => Promise<void> }>;
let page: Page;
let judgeLsId = 0;
let datasetId = 0;

beforeAll(async () => {
  assertBuilt();
  app = await startSeededApp(
    async (core) => {
      const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      datasetId = dataset.id;
      judgeLsId = core.experiments.createOrUpdate({
        name: 'Pilot language study',
        protocol: 'judge-ls',
        dataset: dataset.id,
        providers: SIM_PROVIDERS,
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [
          { label: 'Sim judge strong', provider: 'sim', model: 'sim-judge-strong' },
          { label: 'Simulated weak judge (flips 20 %)', provider: 'sim', model: 'sim-judge-weak-flip20' },
        ],
        noiseFloor: true,
      }).id;
      await core.experiments.runToEnd(judgeLsId);
    },
    { width: 1366, height: 850 },
  );
  page = app.page;
  page.setDefaultTimeout(30_000);
}, 300_000);

afterAll(async () => {
  await app?.close();
});

interface LayoutProblem {
  what: string;
  text: string;
}

/**
 * Everything on the page a reader cannot read whole: a heading or title one of whose words does
 * not fit its box (measured with word breaking off, so "Resul/ts" counts), a table cell whose
 * content is wider than the cell, and a scroll region wider than its box that is not a named,
 * focusable region or whose bottom edge (its scrollbar) is below the window while its top is on it.
 */
async function layoutProblems(): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const out: { what: string; text: string }[] = [];
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    for (const el of document.querySelectorAll<HTMLElement>(
      'h1, h2, h3, .page__title, .results-section__title, .results-chart__title, caption:not(.visually-hidden), table th, table td',
    )) {
      if (!visible(el)) continue;
      // A Latin word (or number) drawn on two lines was broken inside: "Resul/ts". Chinese may
      // wrap between any two characters, so only runs with a Latin letter or digit count.
      let cut = el.scrollWidth > el.clientWidth + 1;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node && !cut; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const m of text.matchAll(/[A-Za-z0-9<>=.,'’]+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) cut = true;
        }
      }
      if (cut) out.push({ what: 'word broken or cut', text: el.innerText.slice(0, 60) });
    }
    for (const table of document.querySelectorAll<HTMLElement>('table')) {
      if (!visible(table)) continue;
      // The nearest box that scrolls sideways (or clips) around the table.
      let box: HTMLElement | null = table.parentElement;
      while (box && !['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(box).overflowX))
        box = box.parentElement;
      if (!box) continue;
      if (box.scrollWidth <= box.clientWidth + 1) continue;
      const name = table.querySelector('caption')?.textContent ?? table.getAttribute('data-testid') ?? '';
      if (getComputedStyle(box).overflowX === 'hidden' || getComputedStyle(box).overflowX === 'clip')
        out.push({ what: 'table cut', text: name });
      else if (box.tabIndex < 0 || box.getAttribute('role') !== 'region' || !box.getAttribute('aria-label'))
        out.push({ what: 'scroll region not focusable', text: name });
      else if (box.getBoundingClientRect().height > window.innerHeight)
        out.push({ what: 'scrollbar below the window', text: name });
    }
    // A chart's texts (titles, facet titles, axis names) inside the drawn figure, and the figure
    // inside its card's visible box: a text past the SVG's edge is cut on screen and in the PNG.
    for (const card of document.querySelectorAll<HTMLElement>('[data-testid^="chart-"]')) {
      const svg = card.querySelector('svg');
      if (!svg || !visible(svg)) continue;
      const drawn = svg.getBoundingClientRect();
      const frame = (card.querySelector('.results-chart__frame') ?? svg).getBoundingClientRect();
      // What is seen: the drawn figure inside its frame (which hides what sticks out).
      const box = {
        left: Math.max(drawn.left, frame.left),
        right: Math.min(drawn.right, frame.right),
        top: Math.max(drawn.top, frame.top),
        bottom: Math.min(drawn.bottom, frame.bottom),
      };
      for (const text of svg.querySelectorAll('text')) {
        const r = text.getBoundingClientRect();
        if (r.width === 0) continue;
        if (
          r.left < box.left - 1 ||
          r.right > box.right + 1 ||
          r.top < box.top - 1 ||
          r.bottom > box.bottom + 1
        )
          out.push({ what: 'chart text cut', text: `${card.dataset.testid}: ${text.textContent ?? ''}` });
      }
    }
    return out;
  });
}

async function axeClean(state: string): Promise<void> {
  // Scanned from the page's top, as the app-wide scan (a11y.test.ts) does; the figures too in the
  // dark scheme (white paper with dark ink in both).
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await assertAxeClean(page, `${state} (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const byId = (id: string) => page.getByTestId(id);

const WIDTHS = [1280, 1366] as const;

async function checkAt(ready: () => Promise<void>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 850 });
    for (const lang of ['en', 'zh'] as const) {
      await switchLanguage(page, lang);
      await ready();
      expect(await layoutProblems(), `${width} px, ${lang}`).toEqual([]);
    }
  }
  await switchLanguage(page, 'en');
  await page.setViewportSize({ width: 1366, height: 850 });
}

describe('laptop widths (issue 38 item 6)', () => {
  it('Judge-LS results: every table and title whole, wide tables in a focusable region', async () => {
    await page.goto(`${app.server.url}#/experiments/${judgeLsId}/results`);
    await byId('table-quality').first().waitFor();
    await checkAt(async () => {
      await byId('table-quality').first().waitFor();
      // Charts are drawn once they come into view: bring each in, so each is measured drawn.
      const charts = page.locator('[data-testid^="chart-"]');
      for (let i = 0; i < (await charts.count()); i++) {
        await charts.nth(i).scrollIntoViewIfNeeded();
        await charts.nth(i).locator('svg text').first().waitFor();
      }
    });
    const heatmap = byId('chart-subset_flip_heatmap');
    await heatmap.scrollIntoViewIfNeeded();
    await saveScreenshot(heatmap, 'laptop-flip-heatmap-en-light');
    const noise = page.locator('section', { has: page.locator('[data-testid="table-noise_floor"]') }).first();
    if (await noise.count()) await noise.scrollIntoViewIfNeeded();
    await shootAll(page, 'laptop-judge-ls-results');
    await axeClean('laptop Judge-LS results');
  }, 240_000);

  it('Export → Methods keeps the results title whole', async () => {
    await page.goto(`${app.server.url}#/experiments/${judgeLsId}/results`);
    await byId('table-quality').first().waitFor();
    await page
      .getByRole('button', { name: /Methods/ })
      .first()
      .click();
    await byId('export-methods-result').waitFor();
    await checkAt(async () => {
      await byId('export-methods-result').waitFor();
    });
    await shootAll(page, 'laptop-methods-export');
    await axeClean('laptop Export → Methods');
  }, 240_000);

  it('the wizard’s power plan shows every column', async () => {
    await page.goto(`${app.server.url}#/experiments/new`);
    await byId('wizard-next').waitFor();
    await page.getByRole('button', { name: 'Start over' }).click();
    const select = byId('wizard-dataset');
    await select.selectOption(String(datasetId));
    await byId('wizard-next').click();
    await byId('wizard-next').click();
    await byId('judge-provider-preset').first().selectOption('simulated');
    for (let i = 0; i < 3 && (await byId('wizard-next').count()); i++) await byId('wizard-next').click();
    await byId('power-row').first().waitFor({ timeout: 120_000 });
    await checkAt(async () => {
      await byId('power-row').first().waitFor();
    });
    await page.locator('.power-table').first().scrollIntoViewIfNeeded();
    await shootAll(page, 'laptop-power-plan');
    await axeClean('laptop power plan');
    expect(app.pageErrors).toEqual([]);
  }, 240_000);
});

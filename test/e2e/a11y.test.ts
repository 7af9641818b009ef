// Issue 15 item 15: an axe-core WCAG 2 A/AA scan of the app's pages in Chromium finds nothing
// (datasets, dataset, experiments, wizard, run, variants, results, flips, and the reference-
// sensitivity results), in both schemes; and one flow works with the keyboard alone, with a
// visible focus on every stop.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAxeClean, axeStats, axeViolations } from '../helpers/axe';
import { assertBuilt } from '../helpers/cli';
import { SIM_PROVIDERS, startSeededApp, type AppInBrowser } from './helpers/app';

const SIM = SIM_PROVIDERS;

let app: AppInBrowser<{ url: string; stop: () => Promise<void> }>;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let datasetId: number;
let judgeLs: number;
let refSens: number;

beforeAll(async () => {
  assertBuilt();
  app = await startSeededApp(
    async (core) => {
      const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
      datasetId = dataset.id;
      const qa = await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
      judgeLs = core.experiments.createOrUpdate({
        name: 'a11y judge-ls',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 6,
        providers: SIM,
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [
          { label: 'strong', provider: 'sim', model: 'sim-judge-strong' },
          { label: 'weak', provider: 'sim', model: 'sim-judge-weak' },
        ],
      }).id;
      refSens = core.experiments.createOrUpdate({
        name: 'a11y refsens',
        protocol: 'reference-sensitivity',
        dataset: qa.dataset.id,
        languages: ['te'],
        limit: 6,
        providers: SIM,
        generators: [{ label: 'gen', provider: 'sim', model: 'sim-generator' }],
        judges: [{ label: 'judge', provider: 'sim', model: 'sim-judge-strong' }],
      }).id;
      expect((await core.experiments.runToEnd(judgeLs)).status).toBe('finished');
      expect((await core.experiments.runToEnd(refSens)).status).toBe('finished');
    },
    { width: 1280, height: 900 },
  );
  ({ server, page } = app);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const PAGES: { name: string; hash: () => string; ready: string; open?: string }[] = [
  { name: 'datasets', hash: () => '#/datasets', ready: 'dataset-row' },
  { name: 'dataset', hash: () => `#/datasets/${datasetId}`, ready: 'item-row' },
  { name: 'experiments', hash: () => '#/experiments', ready: 'experiment-row' },
  { name: 'wizard', hash: () => '#/experiments/new', ready: 'wizard-next' },
  { name: 'run', hash: () => `#/experiments/${judgeLs}`, ready: 'run-status' },
  { name: 'variants', hash: () => `#/experiments/${judgeLs}/variants`, ready: 'variant-item-row' },
  { name: 'results', hash: () => `#/experiments/${judgeLs}/results`, ready: 'table-quality' },
  {
    name: 'statistics glossary',
    hash: () => `#/experiments/${judgeLs}/results`,
    ready: 'table-quality',
    open: 'glossary-link',
  },
  { name: 'flips', hash: () => `#/experiments/${judgeLs}/flips`, ready: 'flip-row' },
  {
    name: 'reference-sensitivity results',
    hash: () => `#/experiments/${refSens}/results`,
    ready: 'results-row',
  },
];

/** The focused element, and whether its focus shows (an outline or a ring of box-shadow). */
async function focused(): Promise<{
  testId: string | null;
  href: string | null;
  tag: string;
  visible: boolean;
}> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { testId: null, href: null, tag: 'body', visible: true };
    const cs = getComputedStyle(el);
    const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
    const ring = cs.boxShadow !== 'none';
    return {
      testId: el.getAttribute('data-testid'),
      href: el.getAttribute('href'),
      tag: `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ').join('.') : ''}`,
      visible: outline || ring,
    };
  });
}

/** Presses Tab until `want` holds for the focused element; every stop on the way must show its focus. */
async function tabTo(want: (f: Awaited<ReturnType<typeof focused>>) => boolean, unseen: string[]) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const f = await focused();
    if (!f.visible) unseen.push(f.tag);
    if (want(f)) return;
  }
  throw new Error('not reached with Tab');
}

describe('accessibility (axe-core, WCAG 2 A/AA)', () => {
  for (const [scheme, lang] of [
    ['light', 'en'],
    ['dark', 'en'],
    ['light', 'zh'],
    ['dark', 'zh'],
  ] as const)
    it(`finds no violation on any page (${scheme}, ${lang})`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.url}#/datasets`);
      await page.getByTestId('lang-switch').selectOption(lang);
      const found: string[] = [];
      for (const p of PAGES) {
        await page.goto(`${server.url}${p.hash()}`);
        await page.getByTestId(p.ready).first().waitFor({ timeout: 60_000 });
        if (p.open) await page.getByTestId(p.open).first().click();
        found.push(...(await axeViolations(page, `${p.name} (${scheme}, ${lang})`)));
      }
      expect(found).toEqual([]);
    }, 120_000);

  it('opens an experiment and its results with the keyboard alone, the focus visible at every stop', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}#/datasets`);
    await page.getByTestId('lang-switch').selectOption('en');
    await page.goto(`${server.url}#/experiments`);
    await page.getByTestId('experiment-row').first().waitFor();
    const unseen: string[] = [];
    await tabTo((f) => f.href === `#/experiments/${judgeLs}`, unseen);
    await page.keyboard.press('Enter');
    await page.getByTestId('run-status').waitFor();
    await tabTo((f) => f.testId === 'run-results', unseen);
    await page.keyboard.press('Enter');
    await page.getByTestId('table-quality').waitFor();
    expect(page.url()).toContain(`#/experiments/${judgeLs}/results`);
    // Every control of the results page, in order, shows where the focus is.
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const f = await focused();
      if (!f.visible) unseen.push(f.tag);
    }
    expect(unseen).toEqual([]);
  }, 60_000);

  it('fails a state with a violation, naming the state, the rule and the node, each time it recurs', async () => {
    // saveScreenshot runs this scan at every picture the e2e suite takes; here it is shown to
    // fail, on a page of its own in the same browser.
    const bare = await app.browser.newPage();
    try {
      await bare.setContent('<html lang="en"><title>t</title><main><img src="data:,"></main></html>');
      const rejects = /a bare image: image-alt \(critical\): img/;
      await expect(assertAxeClean(bare, 'a bare image')).rejects.toThrow(rejects);
      // Not remembered as scanned: the same state fails again.
      await expect(assertAxeClean(bare, 'a bare image')).rejects.toThrow(rejects);
      // A clean state is scanned once; the very same state again (markup, scheme, size) is not.
      await bare.setContent('<html lang="en"><title>t</title><main><img src="data:," alt="x"></main></html>');
      await assertAxeClean(bare, 'an image with its text');
      const before = { ...axeStats };
      await assertAxeClean(bare, 'an image with its text');
      expect(axeStats).toEqual({ ...before, skipped: before.skipped + 1 });
      // The other scheme is another state: colours differ.
      await bare.emulateMedia({ colorScheme: 'dark' });
      await assertAxeClean(bare, 'an image with its text, dark');
      expect(axeStats.scans).toBe(before.scans + 1);
    } finally {
      await bare.close();
    }
  }, 60_000);
});

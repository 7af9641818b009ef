// Issue 24 in Chromium through `judge-lab serve`, on the keyless simulated demo: the results page's
// Export → Methods shows the Methods text (as text) in the page's language with a download per
// file, and Export → Study bundle saves a `.judgelab` that `bundles.verify` recomputes identical.
// Issue 38 item 8: the study has a locked plan, and the bundle opened in the app (its study and
// dataset deleted from the store first) shows the figures, a flip with both languages, the
// translations and the plan with its confirmatory marks, at 1366 × 850, axe-clean.
// Screenshots EN/中文 × light/dark.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleVerifyReport } from '../../src/shared/paper/bundle';
import type { PreregistrationView } from '../../src/shared/paper/preregistration';
import { assertAxeClean } from '../helpers/axe';
import { assertBuilt } from '../helpers/cli';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import { shootAll, switchLanguage } from './helpers/screens';
import { createSimJudgeLs, runToFinished } from './helpers/sim-study';
import { callApi, type ServeHandle } from './helpers/serve';
import { downloadBytes } from '../helpers/browser';

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;
let pageErrors: string[] = [];
let experimentId: number;
/** The bundle the results page saved (the next test opens it in the app). */
let bundleBytes: Buffer;
/** What `bundles.verify` found in those bytes: the page that opens them must say the same. */
let bundleReport: BundleVerifyReport;
/** The plan locked before the run: the opened bundle shows it. */
let lock: NonNullable<PreregistrationView['active']>;
/** Model-like text in the plan: shown as text, never made into elements. */
const HYPOTHESES = 'Verdicts hold across languages <em>and</em> orders.';

/**
 * WCAG 2 A and AA rules of axe-core on the page as it is now, in both schemes. Through the suite's
 * scan (test/helpers/axe.ts), which remembers a clean state: the pictures taken next show the same
 * English states and are not scanned twice.
 */
async function axeClean(state: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await assertAxeClean(page, `${state} (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  assertBuilt();
  app = await startKeylessApp({ viewport: { width: 1280, height: 1100 }, timeoutMs: 60_000 });
  ({ server, page, pageErrors } = app);
});

afterAll(async () => {
  await app?.close();
});

const byTestId = (id: string) => page.getByTestId(id);

describe('Export → Methods and Export → Study bundle (issue 24)', () => {
  it('runs a simulated Judge-LS study with a locked plan to the end', async () => {
    // A noisy second judge: its verdicts flip between languages, so the bundle has flips to browse.
    experimentId = await createSimJudgeLs(server, 'methods-e2e', 4, [
      { label: 'Sim noisy', provider: 'sim', model: 'sim-judge-weak-flip20' },
    ]);
    const plan = await callApi<PreregistrationView>(server, 'experiments.preregistration', { experimentId });
    const ids = plan.comparisons.map((c) => c.id);
    const flips = ids.find((id) => id.startsWith('flip_rate:'))!;
    expect(flips).toBeTruthy();
    ({ active: lock } = (await callApi<PreregistrationView>(server, 'experiments.preregister', {
      experimentId,
      plan: {
        confirmatory: [flips],
        hypotheses: HYPOTHESES,
        alpha: 0.05,
        correction: 'holm',
        exclusions: 'Items the audit flags are left out.',
        stopping: 'All planned items; no interim look.',
      },
    })) as { active: NonNullable<PreregistrationView['active']> });
    await runToFinished(server, experimentId);
  }, 300_000);

  it('shows the Methods text written from the run, in the page language, as text', async () => {
    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await page.evaluate((id) => (location.hash = `#/experiments/${id}/results`), experimentId);
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);
    const results = await callApi<{ counts: { planned: number } }>(server, 'experiments.results', {
      experimentId,
    });
    await byTestId('export-methods').click();
    const text = byTestId('export-methods-text');
    await expect.poll(() => text.isVisible(), { timeout: 60_000 }).toBe(true);
    const md = await text.innerText();
    expect(md).toMatch(/^# Methods: methods-e2e/);
    expect(md).toContain(`The plan held ${results.counts.planned} answers`);
    // Markdown is shown as text: its heading marks are on screen, not turned into headings.
    expect(await text.locator('h1, h2').count()).toBe(0);
    // The download is the same text the core wrote.
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await byTestId('export-methods-latex').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('methods.tex');
    const files = await callApi<{ latex: string }>(server, 'experiments.methods', {
      experimentId,
      lang: 'en',
    });
    expect((await downloadBytes(download)).toString('utf8')).toBe(files.latex);

    await shootAll(page, 'methods-export', async (lang) => {
      await byTestId('export-methods').click();
      await expect
        .poll(() => byTestId('export-methods-text').innerText(), { timeout: 60_000 })
        .toMatch(lang === 'zh' ? /^# 方法：methods-e2e/ : /^# Methods: methods-e2e/);
      await byTestId('export-methods-text').scrollIntoViewIfNeeded();
    });
  }, 240_000);

  it('saves the study bundle, which verify recomputes byte-identical', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const downloading = page.waitForEvent('download', { timeout: 120_000 });
    await byTestId('export-bundle').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('methods-e2e.judgelab');
    await expect.poll(() => byTestId('export-bundle-result').isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await byTestId('export-bundle-result').innerText()).toContain(
      'judge-lab bundle verify methods-e2e.judgelab',
    );
    const report = await callApi<BundleVerifyReport>(server, 'bundles.verify', {
      fileName: download.suggestedFilename(),
      contentBase64: (await downloadBytes(download)).toString('base64'),
    });
    expect(report.identical, JSON.stringify(report.checks.filter((c) => !c.equal))).toBe(true);
    expect(report.checks.length).toBeGreaterThan(5);
    bundleBytes = await downloadBytes(download);
    bundleReport = report;
    await shootAll(page, 'study-bundle-export', async (lang) => {
      await expect
        .poll(() => byTestId('export-bundle').innerText())
        .toBe(lang === 'zh' ? '导出 → 研究包' : 'Export → Study bundle');
    });
  }, 300_000);

  it('opens the bundle in the app, read-only: every recomputed file equal, the tables shown; a changed byte refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bundle-e2e-'));
    try {
      const file = join(dir, 'methods-e2e.judgelab');
      writeFileSync(file, bundleBytes);
      // The study and its dataset leave the store: all the opened bundle shows is its own.
      const { datasetId } = await callApi<{ datasetId: number }>(server, 'experiments.get', { experimentId });
      await callApi(server, 'experiments.delete', { experimentId });
      await callApi(server, 'datasets.delete', { datasetId });
      const before = await callApi<unknown[]>(server, 'experiments.list', undefined);
      await page.evaluate(() => (location.hash = '#/experiments'));
      await byTestId('open-bundle').click();
      await expect.poll(() => byTestId('bundle-page').isVisible(), { timeout: 60_000 }).toBe(true);
      await byTestId('bundle-file').setInputFiles(file);
      await expect.poll(() => byTestId('bundle-report').isVisible(), { timeout: 120_000 }).toBe(true);
      // The same bytes the previous test verified: its report is what the page must show.
      const report = bundleReport;
      expect(await byTestId('bundle-verdict').innerText()).toBe(
        `Every recomputed file equals the stored one (${report.checks.length} compared).`,
      );
      expect(await byTestId('bundle-experiment').innerText()).toBe('methods-e2e');
      expect(await byTestId('bundle-checks').locator('tbody tr[data-equal="true"]').count()).toBe(
        report.checks.length,
      );
      // Every recomputed table is on the page, row for row (an empty one says so in one row).
      expect(report.tables.length).toBeGreaterThan(0);
      for (const table of report.tables)
        expect(await byTestId(`bundle-table-${table.id}`).locator('tbody tr').count()).toBe(
          Math.max(table.rows.length, 1),
        );
      expect(report.tables.some((table) => table.rows.length > 0)).toBe(true);
      // Read-only: opening it added nothing to the user's experiments.
      expect(await callApi<unknown[]>(server, 'experiments.list', undefined)).toHaveLength(before.length);
      await shootAll(page, 'study-bundle-open', async (lang) => {
        await expect
          .poll(() => byTestId('bundle-read-only').innerText())
          .toMatch(lang === 'zh' ? /^只读：从研究包打开/ : /^Read-only: opened from a bundle/);
      });

      await page.setViewportSize({ width: 1366, height: 850 });
      // The results, drawn by the results page's own figure code from the replay; the plan's
      // comparison marks its rows confirmatory.
      await byTestId('bundle-tab-results').click();
      const results = byTestId('bundle-results');
      await expect.poll(() => results.isVisible(), { timeout: 60_000 }).toBe(true);
      const figure = results.getByTestId('chart-flip_rates');
      // Figures are drawn once near the screen.
      await figure.scrollIntoViewIfNeeded();
      await expect.poll(() => figure.locator('svg').count(), { timeout: 60_000 }).toBeGreaterThan(0);
      expect(await figure.innerText()).toMatch(/^Simulated — /);
      const invariance = results.getByTestId('table-invariance');
      expect(await invariance.innerText()).toContain('Confirmatory');
      expect(await invariance.innerText()).toContain('Exploratory');
      // Read-only: no export button, no link to the user's experiments.
      expect(await results.getByRole('button', { name: 'CSV' }).count()).toBe(0);
      await figure.scrollIntoViewIfNeeded();
      await axeClean('study-bundle-results');
      await shootAll(page, 'study-bundle-results', async (lang) => {
        await expect
          .poll(() => byTestId('bundle-tab-results').innerText())
          .toBe(lang === 'zh' ? '结果与图' : 'Results and figures');
        await figure.scrollIntoViewIfNeeded();
      });

      // A cell opens the verdicts behind it, inside the bundle: the app's address stays the bundle's.
      await results.getByTestId('table-quality').getByTestId('cell-verdicts').first().click();
      await expect.poll(() => byTestId('bundle-page-verdicts').isVisible(), { timeout: 60_000 }).toBe(true);
      await expect
        .poll(async () => Number(await byTestId('verdict-count').getAttribute('data-count')), {
          timeout: 60_000,
        })
        .toBeGreaterThan(0);
      expect(await byTestId('verdict-row').count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => location.hash)).toBe('#/bundle');

      // The flip browser: a flip opened shows the English item and its translation, as text.
      await page.evaluate(() => window.scrollTo(0, 0));
      await byTestId('bundle-tab-page-flips').click();
      await expect.poll(() => byTestId('flip-row').count(), { timeout: 60_000 }).toBeGreaterThan(0);
      await byTestId('flip-row').first().click();
      await expect.poll(() => byTestId('flip-detail').isVisible(), { timeout: 60_000 }).toBe(true);
      const en = byTestId('text-en-instruction');
      const target = byTestId('text-target-instruction');
      await expect.poll(() => en.innerText(), { timeout: 60_000 }).not.toBe('');
      await expect.poll(() => target.innerText(), { timeout: 60_000 }).not.toBe('');
      expect(await target.innerText()).not.toBe(await en.innerText());
      expect(await byTestId('verdict-en-winner').isVisible()).toBe(true);
      expect(await byTestId('verdict-target-winner').isVisible()).toBe(true);
      await axeClean('study-bundle-flip');
      await shootAll(page, 'study-bundle-flip', async () => {
        await expect.poll(() => target.innerText()).not.toBe('');
        await target.scrollIntoViewIfNeeded();
      });

      // The translations, read-only: no edit button.
      await byTestId('bundle-tab-page-variants').click();
      await expect.poll(() => byTestId('variant-count').isVisible(), { timeout: 60_000 }).toBe(true);
      expect(await byTestId('variant-count').innerText()).toBe('4 items');
      expect(await page.locator('.variant-table td').first().innerText()).not.toBe('');
      expect(await page.locator('[data-testid^="edit-variant-"]').count()).toBe(0);
      expect(await page.locator('.variants .page__intro').innerText()).toMatch(
        /as the study bundle holds them/,
      );
      await axeClean('study-bundle-variants');
      await shootAll(page, 'study-bundle-variants', async (lang) => {
        await expect
          .poll(() => byTestId('variant-count').innerText())
          .toBe(lang === 'zh' ? '4 条' : '4 items');
      });

      // The plan: the locked text and its SHA-256, the manifest naming it, the rows it marks.
      await byTestId('bundle-tab-plan').click();
      await expect.poll(() => byTestId('bundle-plan').isVisible(), { timeout: 60_000 }).toBe(true);
      expect(await byTestId('prereg-sha256').innerText()).toBe(lock.sha256);
      expect(await byTestId('bundle-plan-manifest').getAttribute('data-matches')).toBe('true');
      expect(await byTestId('prereg-lock').innerText()).toContain(HYPOTHESES);
      expect(await byTestId('prereg-lock').locator('em').count()).toBe(0);
      expect(await byTestId('bundle-plan-analysis').innerText()).toMatch(/[1-9]\d* confirmatory/);
      await axeClean('study-bundle-plan');
      await shootAll(page, 'study-bundle-plan', async (lang) => {
        await expect
          .poll(() => byTestId('bundle-tab-plan').innerText())
          .toBe(lang === 'zh' ? '预注册计划' : 'Preregistered plan');
        // The comparison named in the page's words, its id as locked.
        expect(await byTestId('prereg-lock-confirmatory').innerText()).toMatch(
          lang === 'zh' ? /^翻转率 EN-ZH（每个评审模型）/ : /^Flip rate EN-ZH \(per judge\)/,
        );
      });
      await page.setViewportSize({ width: 1280, height: 1100 });

      // One byte changed inside an entry: refused, naming the entry.
      const { unzipSync, zipSync } = await import('fflate');
      const entries = unzipSync(new Uint8Array(bundleBytes));
      const answers = entries['answers.jsonl'];
      answers[answers.length - 2] ^= 1;
      writeFileSync(file, zipSync(entries));
      await byTestId('bundle-file').setInputFiles(file);
      await expect.poll(() => byTestId('bundle-error').isVisible(), { timeout: 60_000 }).toBe(true);
      expect(await byTestId('bundle-error').innerText()).toMatch(/answers\.jsonl/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('threw no page error along the way', () => {
    expect(pageErrors).toEqual([]);
  });
});

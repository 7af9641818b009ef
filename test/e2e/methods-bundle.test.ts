// Issue 24 in Chromium through `judge-lab serve`, on the keyless simulated demo: the results page's
// Export → Methods shows the Methods text (as text) in the page's language with a download per
// file, and Export → Study bundle saves a `.judgelab` that `bundles.verify` recomputes identical.
// Screenshots EN/中文 × light/dark.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleVerifyReport } from '../../src/shared/paper/bundle';
import { assertBuilt } from '../helpers/cli';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import { shootAll, switchLanguage } from './helpers/screens';
import { createSimJudgeLs, runToFinished } from './helpers/sim-study';
import { callApi, type ServeHandle } from './helpers/serve';

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;
let pageErrors: string[] = [];
let experimentId: number;
/** The bundle the results page saved (the next test opens it in the app). */
let bundleBytes: Buffer;

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
  it('runs a simulated Judge-LS study to the end', async () => {
    experimentId = await createSimJudgeLs(server, 'methods-e2e');
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
    expect(readFileSync((await download.path())!, 'utf8')).toBe(files.latex);

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
      contentBase64: readFileSync((await download.path())!).toString('base64'),
    });
    expect(report.identical, JSON.stringify(report.checks.filter((c) => !c.equal))).toBe(true);
    expect(report.checks.length).toBeGreaterThan(5);
    bundleBytes = readFileSync((await download.path())!);
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
      const before = await callApi<unknown[]>(server, 'experiments.list', undefined);
      await page.evaluate(() => (location.hash = '#/experiments'));
      await byTestId('open-bundle').click();
      await expect.poll(() => byTestId('bundle-page').isVisible(), { timeout: 60_000 }).toBe(true);
      await byTestId('bundle-file').setInputFiles(file);
      await expect.poll(() => byTestId('bundle-report').isVisible(), { timeout: 120_000 }).toBe(true);
      const report = await callApi<BundleVerifyReport>(server, 'bundles.verify', {
        fileName: 'methods-e2e.judgelab',
        contentBase64: bundleBytes.toString('base64'),
      });
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

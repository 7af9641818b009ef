// Issue 24 part 2 in Chromium through `judge-lab serve`, on a keyless simulated Judge-LS study:
// the run page's Preregistration panel locks a plan chosen from the power plan's comparisons
// (its checks first, then the core's), shows the lock read-only after the run, supersedes it only
// with a reason (an "amended" deviation), saves preregistration.md equal to the API's text in the
// page language; the results page lists the confirmatory comparisons and the deviations.
// Screenshots EN/中文 × light/dark.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreregistrationView } from '../../src/shared/paper/preregistration';
import { assertBuilt } from '../helpers/cli';
import { saveScreenshot } from '../helpers/screenshots';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import { englishOnScreen } from './helpers/english';
import { switchLanguage, type UiLanguage } from './helpers/screens';
import { createSimJudgeLs, runToFinished } from './helpers/sim-study';
import { callApi, type ServeHandle } from './helpers/serve';
import { downloadBytes } from '../helpers/browser';

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;
let pageErrors: string[] = [];
let experimentId: number;

beforeAll(async () => {
  assertBuilt();
  app = await startKeylessApp({ viewport: { width: 1280, height: 1100 }, timeoutMs: 60_000 });
  ({ server, page, pageErrors } = app);
});

afterAll(async () => {
  await app?.close();
});

const byTestId = (id: string) => page.getByTestId(id);
const view = (lang: UiLanguage = 'en') =>
  callApi<PreregistrationView & { markdown: string }>(server, 'experiments.preregistration', {
    experimentId,
    lang,
  });

/** The element in EN and 中文, light and dark; left in English, light. */
async function shootPanel(name: string, testId: string, ready: (lang: UiLanguage) => Promise<void>) {
  for (const lang of ['en', 'zh'] as const) {
    await switchLanguage(page, lang);
    await ready(lang);
    await byTestId(testId).scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await saveScreenshot(byTestId(testId), `${name}-${lang}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await switchLanguage(page, 'en');
}

const HYPOTHESES = 'The judge is <em>less</em> accurate on the ZH pairs than on EN.';
const EXCLUSIONS = 'Items the audit flags are left out.';
const STOPPING = 'All planned items; no interim look.';
const REASON = 'FR was dropped from the confirmatory family before any result was read.';

describe('Preregistration panel (issue 24 part 2)', () => {
  it('locks a plan through the run page before the run, refusing an incomplete one by field', async () => {
    experimentId = await createSimJudgeLs(server, 'prereg-e2e');
    const before = await view();
    expect(before.active).toBeNull();
    const ids = before.comparisons.map((c) => c.id);
    const change = ids.find((id) => id.startsWith('accuracy_change:'))!;
    const flips = ids.find((id) => id.startsWith('flip_rate:'))!;
    expect(change && flips).toBeTruthy();

    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await page.evaluate((id) => (location.hash = `#/experiments/${id}`), experimentId);
    const form = byTestId('prereg-form');
    await expect.poll(() => form.isVisible(), { timeout: 60_000 }).toBe(true);
    await form.scrollIntoViewIfNeeded();

    // Nothing chosen, no rules: the form names each field and asks nothing of the core.
    await byTestId('prereg-alpha').fill('0');
    await byTestId('prereg-submit').click();
    for (const f of ['confirmatory', 'alpha', 'exclusions', 'stopping'])
      await expect.poll(() => byTestId(`prereg-error-${f}`).isVisible()).toBe(true);
    expect((await view()).active).toBeNull();

    await byTestId('prereg-confirmatory').locator(`input[value="${change}"]`).check();
    await byTestId('prereg-confirmatory').locator(`input[value="${flips}"]`).check();
    await byTestId('prereg-primary').selectOption(change);
    await byTestId('prereg-alpha').fill('0.05');
    await byTestId('prereg-correction').selectOption('holm');
    await byTestId('prereg-hypotheses').fill(HYPOTHESES);
    await byTestId('prereg-exclusions').fill(EXCLUSIONS);
    await shootPanel('preregistration-form', 'prereg-panel', async (lang) => {
      await expect
        .poll(() => byTestId('prereg-submit').innerText())
        .toBe(lang === 'zh' ? '锁定计划' : 'Lock the plan');
    });
    await byTestId('prereg-stopping').fill(STOPPING);
    await byTestId('prereg-submit').click();
    await expect.poll(() => byTestId('prereg-lock').isVisible(), { timeout: 60_000 }).toBe(true);

    const locked = await view();
    expect(locked.active).toMatchObject({
      version: 1,
      plan: {
        confirmatory: [change, flips],
        primary: change,
        hypotheses: HYPOTHESES,
        alpha: 0.05,
        correction: 'holm',
        exclusions: EXCLUSIONS,
        stopping: STOPPING,
      },
    });
    expect(locked.active!.snapshot.answersAtLock).toBe(0);
    expect(await byTestId('prereg-sha256').innerText()).toBe(locked.active!.sha256);
    // The typed text is shown as text: its tags on screen, no element made of them.
    expect(await byTestId('prereg-lock').innerText()).toContain(HYPOTHESES);
    expect(await byTestId('prereg-lock').locator('em').count()).toBe(0);
  }, 300_000);

  it('after the run: the lock, a supersede that needs a reason, the deviation, preregistration.md', async () => {
    await runToFinished(server, experimentId);
    await page.reload();
    await expect.poll(() => byTestId('prereg-lock').isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await byTestId('prereg-lock').getAttribute('data-version')).toBe('1');

    await byTestId('prereg-supersede').click();
    await byTestId('prereg-confirmatory').locator('input:checked').nth(1).uncheck();
    await byTestId('prereg-submit').click();
    await expect.poll(() => byTestId('prereg-error-reason').isVisible()).toBe(true);
    expect(await byTestId('prereg-error-reason').innerText()).toBe(
      'Say why the new version supersedes the plan in force.',
    );
    expect((await view()).locks).toHaveLength(1);
    await byTestId('prereg-reason').fill(REASON);
    await byTestId('prereg-submit').click();
    await expect
      .poll(() => byTestId('prereg-lock').getAttribute('data-version'), { timeout: 60_000 })
      .toBe('2');

    const now = await view();
    expect(now.locks).toHaveLength(2);
    expect(now.active!.reason).toBe(REASON);
    expect(now.active!.plan.confirmatory).toHaveLength(1);
    const amended = now.deviations.find((d) => d.kind === 'amended')!;
    expect(amended).toBeTruthy();
    const shown = byTestId('prereg-deviations').locator('li');
    expect(await shown.count()).toBe(now.deviations.length);
    // In English the page words each deviation as the core does (the Methods text, the manifest).
    expect(await shown.allInnerTexts()).toEqual(now.deviations.map((d) => d.text));
    expect(await byTestId('prereg-earlier').innerText()).toContain(now.locks[0].sha256);

    // preregistration.md, in the page's language, is the core's text byte for byte.
    for (const lang of ['en', 'zh'] as const) {
      await switchLanguage(page, lang);
      const downloading = page.waitForEvent('download', { timeout: 60_000 });
      await byTestId('prereg-download').click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('preregistration.md');
      expect((await downloadBytes(download)).toString('utf8')).toBe((await view(lang)).markdown);
    }
    await switchLanguage(page, 'en');

    await shootPanel('preregistration-locked', 'prereg-panel', async (lang) => {
      await expect
        .poll(() => byTestId('prereg-download').innerText())
        .toBe(lang === 'zh' ? '下载 preregistration.md' : 'Download preregistration.md');
      if (lang === 'zh')
        expect(await englishOnScreen(page, [HYPOTHESES, EXCLUSIONS, STOPPING, REASON])).toEqual([]);
    });
  }, 400_000);

  it('the results page names the confirmatory comparisons and the deviations', async () => {
    await page.evaluate((id) => (location.hash = `#/experiments/${id}/results`), experimentId);
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);
    const note = byTestId('prereg-note');
    await expect.poll(() => note.isVisible(), { timeout: 60_000 }).toBe(true);
    const now = await view();
    const items = byTestId('prereg-note-confirmatory').locator('li');
    expect(await items.count()).toBe(now.active!.plan.confirmatory.length);
    expect(await items.first().innerText()).toContain(now.active!.plan.confirmatory[0]);
    expect(await note.innerText()).toContain('Every other comparison and table on this page is exploratory.');
    expect(await note.locator('[data-kind="amended"]').count()).toBe(1);
    await shootPanel('preregistration-results', 'prereg-note', async (lang) => {
      await expect
        .poll(() => byTestId('prereg-note').innerText())
        .toContain(lang === 'zh' ? '验证性比较：' : 'Confirmatory:');
      if (lang === 'zh') expect(await englishOnScreen(page, [REASON])).toEqual([]);
    });
    expect(pageErrors).toEqual([]);
  }, 240_000);
});

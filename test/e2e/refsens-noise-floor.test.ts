// Reference sensitivity's noise floor in Chromium through a keyless `judge-lab serve` (its own
// data folder and port): the demo's judges (judge B is `sim-judge-weak-flip20`, so its verdicts
// change on repeat), the answers step's "Measure the noise floor" box, the estimate's NR-repeat
// row, the run, the noise-floor table and the grey NR-NR bar on the flips chart, and the flip
// browser's "flipped on repeat as well" marker. Screenshots EN/中文 × light/dark.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli';
import { shootAll, switchLanguage } from './helpers/screens';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import { callApi, type ServeHandle } from './helpers/serve';

const QUESTIONS = 20;

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;
let pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  app = await startKeylessApp({ viewport: { width: 1280, height: 1000 }, timeoutMs: 60_000 });
  ({ server, page, pageErrors } = app);
  await callApi(server, 'datasets.loadSample', { sampleId: 'tydiqa' });
});

afterAll(async () => {
  await app?.close();
});

const byTestId = (id: string) => page.getByTestId(id);
const step = (n: number) => page.locator('.stepper__button').nth(n);
const chartTexts = (id: string) =>
  byTestId(`chart-${id}`).evaluate((el) => [...el.querySelectorAll('svg text')].map((t) => t.textContent));

describe('reference sensitivity noise floor, simulated, in Chromium', () => {
  it('is turned on in the answers step, and the estimate counts the NR repeats apart', async () => {
    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await byTestId('nav-experiments').click();
    await byTestId('try-demo').click();
    await expect.poll(() => byTestId('estimate-table').isVisible(), { timeout: 60_000 }).toBe(true);
    await step(1).click();
    await page.locator('label.choice', { hasText: 'Reference sensitivity' }).click();
    await expect
      .poll(() => page.locator('input[name="protocol"][value="reference-sensitivity"]').isChecked())
      .toBe(true);
    await step(0).click();
    const dataset = byTestId('wizard-dataset');
    const tydi = await dataset.locator('option', { hasText: 'TyDi' }).getAttribute('value');
    await dataset.selectOption(tydi!);
    await page.locator('.stepper__button', { hasText: 'Answers' }).click();
    await byTestId('generator-provider').selectOption('simulated');
    await byTestId('generator-model').fill('sim-generator');
    const box = byTestId('option-noise-floor');
    expect(await box.isChecked()).toBe(false);
    // Without NR there is nothing to repeat: the box is off until NR is judged again.
    await byTestId('setting-NR').uncheck();
    expect(await box.isDisabled()).toBe(true);
    await byTestId('setting-NR').check();
    await box.check();
    await byTestId('part-calibration').uncheck();
    await box.scrollIntoViewIfNeeded();
    await shootAll(page, 'refsens-nf-wizard', (lang) =>
      expect
        .poll(() => page.locator('label.check', { has: box }).innerText())
        .toContain(lang === 'zh' ? '测量噪声底线' : 'Measure the noise floor'),
    );
    await page.locator('.stepper__button', { hasText: 'Options' }).click();
    await byTestId('option-limit').fill(String(QUESTIONS));
    await byTestId('option-sample').selectOption('random');
    await page.locator('.stepper__button').last().click();
    const table = byTestId('estimate-table');
    await expect.poll(() => table.isVisible(), { timeout: 60_000 }).toBe(true);
    // 20 answers; 2 judges × 20 answers × (NR, RV, RC and NR again).
    await expect
      .poll(async () => Number(await byTestId('estimate-total-calls').innerText()), { timeout: 60_000 })
      .toBe(QUESTIONS + 2 * QUESTIONS * 4);
    expect(await table.innerText()).toContain('NR repeat (noise floor)');
  }, 180_000);

  it('runs to the end', async () => {
    await byTestId('create-and-start').click();
    await expect.poll(() => page.url(), { timeout: 60_000 }).toMatch(/#\/experiments\/\d+$/);
    const status = byTestId('run-status').locator('[data-status]');
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 240_000, interval: 500 })
      .toBe('finished');
  }, 300_000);

  it('shows the noise-floor table and the grey NR-NR bar on the flips’ axis', async () => {
    await byTestId('run-results').click();
    await expect.poll(() => byTestId('results-page').isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => chartTexts('flips'), { timeout: 60_000 }).toContain('NR-NR repeat (noise floor)');
    const section = byTestId('section-noise_floor');
    await expect.poll(() => section.isVisible()).toBe(true);
    const rows = await section.locator('tbody tr').allInnerTexts();
    expect(rows.filter((r) => r.includes('NR-NR (repeat)')).length).toBeGreaterThan(0);
    expect(rows.some((r) => r.includes('NR-RV'))).toBe(true);
    // Judge B (`-flip20`) changes its verdict on repeat; judge A never does.
    const repeatOf = (judge: string) =>
      rows.filter((r) => r.startsWith(judge) && r.includes('NR-NR (repeat)'));
    expect(repeatOf('Simulated judge B').some((r) => !/\t0\.0\t/.test(r))).toBe(true);
    await byTestId('chart-flips').scrollIntoViewIfNeeded();
    await shootAll(page, 'refsens-nf-results', async (lang) => {
      await expect
        .poll(() => chartTexts('flips'))
        .toContain(lang === 'zh' ? 'NR-NR 重复提问（噪声底线）' : 'NR-NR repeat (noise floor)');
      await byTestId('chart-flips').scrollIntoViewIfNeeded();
    });
    // The table's title and header at the top of the screen.
    const top = () => section.locator('h2').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await top();
    await shootAll(page, 'refsens-nf-table', async (lang) => {
      await expect
        .poll(() => section.locator('h2').innerText())
        .toMatch(lang === 'zh' ? /噪声底线：/ : /Noise floor: /);
      await top();
    });
  }, 180_000);

  it('marks the answers whose NR verdict flipped on repeat as well in the flip browser', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await byTestId('refsens-browse-flips').click();
    await expect.poll(() => byTestId('refsens-flips-page').isVisible(), { timeout: 60_000 }).toBe(true);
    await byTestId('refsens-filter-all').check();
    await byTestId('refsens-filter-judge').selectOption('Simulated judge B');
    await expect.poll(() => byTestId('refsens-flip-row').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await page.getByRole('columnheader', { name: 'NR repeat' }).isVisible()).toBe(true);
    const marked = byTestId('refsens-flip-row').filter({ has: byTestId('repeat-flipped') });
    await expect.poll(() => marked.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await marked.first().getByTestId('repeat-flipped').innerText()).toBe('flipped on repeat as well');
    await shootAll(page, 'refsens-nf-flips', async (lang) => {
      await expect
        .poll(() => marked.first().getByTestId('repeat-flipped').innerText())
        .toBe(lang === 'zh' ? '重复提问时也翻转' : 'flipped on repeat as well');
    });
    await marked.first().click();
    await expect.poll(() => byTestId('refsens-flip-detail').isVisible()).toBe(true);
    expect(await byTestId('repeat-flipped-detail').innerText()).toBe('flipped on repeat as well');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

// Issue 38 ("The first day, part three") walked in Chromium at a laptop's 1366 × 850 through
// `judge-lab serve`: every study offers the bundled samples it reads in one click and says at
// once when the chosen dataset is the wrong kind (item 2); the wizard checks a step when it is
// left, in words, and its summary shows every bias choice (item 4); a verdict behind a bias
// effect shows the text before and after the probe with a diff (item 7); simulated models are
// "free — simulated" (item 10). Screenshots EN/中文 × light/dark; axe-core clean; no page error.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAxeClean } from '../helpers/axe';
import { assertBuilt } from '../helpers/cli';
import { SIM_PROVIDERS, startSeededApp, type AppInBrowser } from './helpers/app';
import { shootAll } from './helpers/screens';

let app: AppInBrowser<{ url: string; stop: () => Promise<void> }>;
let page: Page;
let biasId = 0;
let pointwiseName = '';
let longerText = '';
const ORIGINAL = 'Seven is prime, because its only divisors are one and seven.';

const POINTWISE = [
  { id: 'pw-1', instruction: 'Name a prime number.', response: ORIGINAL, human_score: 5, category: 'math' },
  { id: 'pw-2', instruction: 'Greet me.', response: 'Hello! Nice to meet you today.', human_score: 3 },
];

beforeAll(async () => {
  assertBuilt();
  app = await startSeededApp(
    async (core) => {
      await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      // Loaded here too, so each test stands alone; a second load (the button) keeps one copy.
      await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
      const { dataset: pw } = await core.call('datasets.import', {
        fileName: 'scores.jsonl',
        contentBase64: Buffer.from(POINTWISE.map((r) => JSON.stringify(r)).join('\n')).toString('base64'),
      });
      pointwiseName = pw.name;
      biasId = core.experiments.createOrUpdate({
        name: 'Bias pilot',
        protocol: 'bias-probes',
        dataset: pw.id,
        providers: SIM_PROVIDERS,
        rewriter: { provider: 'sim', model: 'sim-rewriter' },
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
        mode: 'pointwise',
        probes: ['length'],
      }).id;
      await core.experiments.runToEnd(biasId);
    },
    { width: 1366, height: 850 },
  );
  page = app.page;
  page.setDefaultTimeout(30_000);
}, 300_000);

afterAll(async () => {
  await app?.close();
});

/** WCAG 2 A and AA rules of axe-core on the page as it is now, in both schemes. */
async function axeClean(): Promise<void> {
  // Right after shootAll these states were scanned with its pictures: the shared scan skips them.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await assertAxeClean(page, `${expect.getState().currentTestName ?? ''} (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const byId = (id: string) => page.getByTestId(id);

async function openWizard(): Promise<void> {
  await page.goto(`${app.server.url}#/experiments/new`);
  await byId('wizard-next').waitFor();
  // Each test starts from a fresh draft (the wizard keeps one across reloads).
  await page.getByRole('button', { name: 'Start over' }).click();
  await byId('wizard-dataset').waitFor();
}

async function chooseDataset(name: string): Promise<void> {
  const select = byId('wizard-dataset');
  const value = await select.locator('option', { hasText: name }).first().getAttribute('value');
  await select.selectOption(value!);
}

const chooseProtocol = (id: string) => page.locator(`input[name="protocol"][value="${id}"]`).check();

describe('issue 38 in Chromium', () => {
  it('offers every bundled sample where the dataset is chosen, and checks its kind when the study is picked (item 2)', async () => {
    await openWizard();
    const samples = byId('wizard-dataset-samples');
    await expect.poll(() => samples.getByRole('button').count()).toBeGreaterThanOrEqual(4);
    expect(await samples.getByTestId('sample-tydiqa').innerText()).toMatch(/TyDi QA.*QA.*450 items/);
    expect(await samples.getByTestId('sample-mtbench-human').innerText()).toMatch(/MT-Bench.*Pairwise/);

    await chooseDataset('LLMBar demo');
    await byId('wizard-next').click();
    await chooseProtocol('reference-sensitivity');
    // Said when the study is picked, before Next: a QA study on pairwise data.
    const warning = byId('protocol-dataset-kind');
    await warning.waitFor();
    expect(await warning.innerText()).toMatch(
      /Reference sensitivity reads QA datasets.*LLMBar demo.*Pairwise/s,
    );
    // Only the samples this study reads are offered beside it.
    const offered = await byId('protocol-samples').getByRole('button').allInnerTexts();
    expect(offered).toHaveLength(1);
    expect(offered[0]).toMatch(/^TyDi QA/);
    await byId('wizard-next').click();
    await expect.poll(() => page.locator('.wizard__problems').innerText()).toMatch(/Fix the problem/);
    await shootAll(page, 'wizard-protocol-dataset-kind', async () => {
      await warning.scrollIntoViewIfNeeded();
    });
    await axeClean();

    // One click loads the sample and chooses it: the study fits, and Next goes on.
    await byId('protocol-samples').getByTestId('sample-tydiqa').click();
    await expect.poll(() => warning.count()).toBe(0);
    await byId('wizard-next').click();
    await byId('judge-row').waitFor();
    // Back on the dataset step, only QA samples are offered now that the study is chosen.
    await page.locator('.stepper__button').first().click();
    await expect
      .poll(() => byId('wizard-dataset-samples').getByRole('button').allInnerTexts())
      .toEqual([expect.stringMatching(/^TyDi QA/)]);
    await shootAll(page, 'wizard-dataset-samples');
  }, 240_000);

  it('starts a simulated generator on a label no judge has, and says a clash in words on leaving the step (item 4)', async () => {
    await openWizard();
    await chooseDataset('TyDi');
    await byId('wizard-next').click();
    await chooseProtocol('reference-sensitivity');
    await byId('wizard-next').click();
    await byId('judge-provider-preset').first().selectOption('simulated');
    const judgeLabel = await byId('judge-label').first().inputValue();
    await byId('wizard-next').click();
    await byId('generator-provider').first().selectOption('simulated');
    const generatorModel = await byId('generator-model').first().inputValue();
    expect(generatorModel).toBe('sim-generator');
    expect(generatorModel).not.toBe(judgeLabel);
    // A label typed to the judge's own is refused here, in words, not as config jargon at Summary.
    await byId('generator-label').first().fill(judgeLabel);
    await byId('wizard-next').click();
    const error = page.locator('.field__error, .field-error, [role="alert"]', {
      hasText: `A judge is already called “${judgeLabel}”`,
    });
    await expect.poll(() => error.count()).toBeGreaterThan(0);
    expect(await page.locator('body').innerText()).not.toMatch(/duplicate label|generators\[0\]/);
    await shootAll(page, 'wizard-generator-label-clash', async () => {
      await byId('generator-label').first().waitFor();
    });
    await axeClean();
  }, 240_000);

  it('refuses the position probe on one-response data when the step is left, and shows every bias choice in the summary (item 4, 10)', async () => {
    await openWizard();
    await chooseDataset(pointwiseName);
    await byId('wizard-next').click();
    await chooseProtocol('bias-probes');
    await byId('wizard-next').click();
    await byId('judge-provider-preset').first().selectOption('simulated');
    await byId('wizard-next').click();
    // One response per item: the position probe starts off; turned on, Next says why not.
    const position = byId('probe-position');
    expect(await position.isChecked()).toBe(false);
    await position.check();
    await byId('wizard-next').click();
    await expect
      .poll(() => byId('bias-probes-error').allInnerTexts())
      .toEqual([expect.stringMatching(/position probe swaps two responses.*one response per item/)]);
    await shootAll(page, 'wizard-bias-position-refused', async () => {
      await byId('bias-probes-error').waitFor();
    });
    await axeClean();
    await position.uncheck();
    await byId('option-noise-floor').check();
    await byId('rewriter-provider').selectOption('simulated');
    await byId('wizard-next').click();
    await byId('wizard-next').click();
    await byId('summary-bias-mode').waitFor();
    expect(await byId('summary-bias-mode').innerText()).toMatch(/Pointwise/);
    expect(await byId('summary-bias-scale').innerText()).toBe('1–5');
    expect(await byId('summary-bias-probes').innerText()).toMatch(/^Length .* · Format /);
    expect(await byId('summary-bias-rewriter').innerText()).toMatch(/Simulated .*sim-/);
    expect(await byId('summary-bias-noise-floor').innerText()).toMatch(/^measured/);
    expect(await byId('summary-bias-band').innerText()).toBe('1.3–1.7 ×');
    // Simulated models cost nothing: said so, not "unpriced".
    await byId('estimate-table').waitFor();
    const costs = await byId('estimate-row-cost').allInnerTexts();
    expect(costs.length).toBeGreaterThan(0);
    for (const c of costs) expect(c).toBe('free — simulated');
    expect(await byId('estimate-total-cost').innerText()).toBe('free — simulated');
    expect(await page.locator('body').innerText()).not.toMatch(/unpriced/i);
    await shootAll(page, 'wizard-bias-summary', async (lang) => {
      await expect
        .poll(() => byId('summary-bias-noise-floor').innerText())
        .toMatch(lang === 'zh' ? /^测量/ : /^measured/);
    });
    await axeClean();
  }, 240_000);

  it('shows the text before and after a bias probe, with a diff, in the verdict behind the effect (item 7)', async () => {
    await page.goto(
      `${app.server.url}#/experiments/${biasId}/verdicts?table=bias_profile&f.effect=${encodeURIComponent('Longer − original')}`,
    );
    const row = byId('verdict-row').filter({ hasText: 'pw-1' }).first();
    await row.click();
    await byId('verdict-compared').waitFor();
    expect(await byId('verdict-text-before').innerText()).toBe(ORIGINAL);
    longerText = await byId('verdict-text-after').innerText();
    expect(longerText.length).toBeGreaterThan(ORIGINAL.length);
    expect(await byId('diff-added').count()).toBeGreaterThan(0);
    await shootAll(page, 'verdict-bias-compared', async () => {
      await byId('verdict-compared').waitFor();
    });
    await axeClean();
    expect(app.pageErrors).toEqual([]);
  }, 180_000);

  it('refuses a gate threshold in percent beside its % field, and keeps a gate turned off on the card as "off" (item 10)', async () => {
    await page.goto(`${app.server.url}#/judges?model=${encodeURIComponent('simulated:sim-judge')}`);
    await byId('card-gates').waitFor();
    await byId('gates-editor').locator('summary').click();
    const threshold = byId('gate-threshold-position_consistency');
    await threshold.fill('150');
    await byId('gates-save').click();
    const problem = byId('gate-problem-position_consistency');
    await expect.poll(() => problem.innerText()).toBe('Enter a percentage from 0 to 100 (e.g. 90).');
    await shootAll(page, 'report-card-gate-percent', async (lang) => {
      await byId('gates-save').click();
      await expect.poll(() => problem.innerText()).toMatch(lang === 'zh' ? /百分数/ : /percentage/);
      await problem.scrollIntoViewIfNeeded();
    });
    await axeClean();
    await threshold.fill('90');
    await byId('gate-enabled-language_flip').uncheck();
    await byId('gates-save').click();
    const off = byId('gate-language_flip');
    await expect.poll(() => off.getAttribute('data-status')).toBe('off');
    expect(await off.getByTestId('gate-status').innerText()).toBe('off (turned off)');
    await off.scrollIntoViewIfNeeded();
    await shootAll(page, 'report-card-gate-off', async (lang) => {
      await expect
        .poll(() => off.getByTestId('gate-status').innerText())
        .toBe(lang === 'zh' ? '已关闭' : 'off (turned off)');
    });
    await axeClean();
  }, 180_000);
});

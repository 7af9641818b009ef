// Issue 12 end to end in Chromium against `judge-lab serve`: a Judge-LS run (simulated provider)
// gets an annotation set; alice rates 30 items by keyboard only, with the server killed halfway
// (no given label is lost, the screen resumes where she stopped); bob rates the same 30 items in
// his own copy of the app, opened from an exported package and sent back; the agreement
// dashboard's ICC, kappa and rho equal the values computed here from what was typed.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cohensKappa, icc21, spearmanInterval as spearman } from '../../src/shared/stats';
import type { AgreementReport } from '../../src/shared/annotation/agreement';
import type { LeastSureSelection } from '../../src/shared/annotation/least-sure';
import { agreementTables } from '../../src/shared/annotation/report';
import { launchChromium } from '../helpers/browser';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { shootAll, switchLanguage, type Scheme, type UiLanguage } from './helpers/screens';
import { callApi, startServeWithEnv, type ServeHandle } from './helpers/serve';

const N = 30;
let browser: Browser;
let server: ServeHandle;
let colleagueServer: ServeHandle;
let dataDir: string;
let colleagueDir: string;
let downloads: string;
let cleanup: () => void;
let experimentId: number;
let setId: number;
let setUid: string;
/** The judge's preference per item key ('1' | '2' | 'tie'), from its EN verdicts in both orders. */
const judgePref = new Map<string, string>();
/** What each annotator typed, per unit. */
const typed: Record<string, Map<string, string>> = { alice: new Map(), bob: new Map() };
const pageErrors: string[] = [];

const unitUid = (itemKey: string) =>
  createHash('sha256').update(`${setUid}\u0000${itemKey}`).digest('hex').slice(0, 16);
const keyToValue: Record<string, string> = { '1': '1', '2': '2', '0': 'tie' };
const coding = (v: string) => (v === '1' ? 1 : v === '2' ? -1 : 0);

beforeAll(async () => {
  assertBuilt();
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  dataDir = join(tmp.dir, 'data');
  colleagueDir = join(tmp.dir, 'colleague');
  downloads = join(tmp.dir, 'downloads');
  mkdirSync(downloads, { recursive: true });
  server = await startServeWithEnv(dataDir, {});
  const { dataset } = await callApi<{ dataset: { id: number } }>(server, 'datasets.loadSample', {
    sampleId: 'llmbar',
  });
  ({ id: experimentId } = await callApi<{ id: number }>(server, 'experiments.create', {
    config: {
      name: 'human-ratings-e2e',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: N,
      providers: { demo: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH'] },
      judges: [{ label: 'Sim weak', provider: 'demo', model: 'sim-judge-weak' }],
      tieProbes: false,
    },
  }));
  await callApi(server, 'experiments.start', { experimentId });
  for (let waited = 0; ; waited += 250) {
    const { status } = await callApi<{ status: string }>(server, 'experiments.progress', { experimentId });
    if (status === 'finished') break;
    if (waited > 60_000) throw new Error(`the run did not finish (status ${status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const verdicts = await callApi<{ sourceId: string; language: string; order: string; winner: string }[]>(
    server,
    'experiments.protocolView',
    { experimentId, view: 'judgments', query: { kind: 'quality', status: 'ok' } },
  );
  const choices = new Map<string, string[]>();
  for (const v of verdicts) {
    if (v.language !== 'EN' || v.winner === null) continue;
    const c = v.winner === 'tie' ? 'tie' : (v.winner === 'A') === (v.order === 'orig') ? '1' : '2';
    choices.set(v.sourceId, [...(choices.get(v.sourceId) ?? []), c]);
  }
  for (const [k, cs] of choices) judgePref.set(k, cs.every((c) => c === cs[0]) ? cs[0] : 'tie');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await colleagueServer?.stop();
  cleanup?.();
});

async function newPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  return page;
}

/** The key a person types for a unit: the judge's choice mostly, their own view otherwise. */
function keyFor(annotator: string, unit: string, itemKeyOf: Map<string, string>): string {
  const judge = judgePref.get(itemKeyOf.get(unit)!) ?? 'tie';
  const h = createHash('sha256').update(`${annotator}/${unit}`).digest()[0];
  if (h % 4 !== 0) return judge === 'tie' ? '0' : judge;
  return ['1', '2', '0'][h % 3];
}

/** Rates by keyboard until `stopAfter` labels are given in this session (or the set is done). */
async function rate(
  page: Page,
  annotator: string,
  itemKeyOf: Map<string, string>,
  stopAfter = Infinity,
): Promise<void> {
  let given = 0;
  await expect
    .poll(
      async () =>
        (await page.getByTestId('annotate-item').isVisible()) ||
        (await page.getByTestId('annotate-done').isVisible()),
    )
    .toBe(true);
  while (given < stopAfter) {
    const item = page.getByTestId('annotate-item');
    if (!(await item.isVisible())) break;
    const unit = (await item.getAttribute('data-unit'))!;
    const done = Number(await page.getByTestId('annotate-progress').getAttribute('data-done'));
    const key = keyFor(annotator, unit, itemKeyOf);
    await page.keyboard.press(key);
    await expect
      .poll(() => page.getByTestId('annotate-progress').getAttribute('data-done'))
      .toBe(String(done + 1));
    typed[annotator].set(unit, keyToValue[key]);
    given++;
  }
}

/** Element screenshots of the decision panel in both languages and schemes. */
async function shootElement(page: Page, testId: string, name: string): Promise<void> {
  for (const lang of ['en', 'zh'] as UiLanguage[]) {
    await switchLanguage(page, lang);
    for (const scheme of ['light', 'dark'] as Scheme[]) {
      await page.emulateMedia({ colorScheme: scheme });
      await saveScreenshot(page.getByTestId(testId), `${name}-${lang}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await switchLanguage(page, 'en');
}

describe('human ratings in Chromium (issue 12)', () => {
  let itemKeyOf: Map<string, string>;

  it('creates a stratified annotation set from the experiment page', async () => {
    const page = await newPage();
    await page.goto(`${server.url}#/experiments/${experimentId}`);
    await page.getByTestId('run-annotation').click();
    await page.getByTestId('create-size').fill(String(N));
    await page.getByTestId('create-seed').fill('5');
    await page.getByTestId('create-submit').click();
    await expect.poll(() => page.locator('[data-testid^="annotation-set-"]').count()).toBe(1);
    const sets = await callApi<
      { id: number; uid: string; itemCount: number; strata: { sampled: number }[] }[]
    >(server, 'annotation.listSets', { experimentId });
    expect(sets[0].itemCount).toBe(N);
    ({ id: setId, uid: setUid } = sets[0]);
    itemKeyOf = new Map([...judgePref.keys()].map((k) => [unitUid(k), k]));
    await page.close();
  });

  it('alice rates by keyboard; killing the server halfway loses no label and she resumes where she stopped', async () => {
    let page = await newPage();
    await page.goto(`${server.url}#/experiments/${experimentId}/annotation`);
    await page.getByTestId('annotator-name').fill('alice');
    await page.getByTestId('annotate-start').click();
    await rate(page, 'alice', itemKeyOf, 15);
    await shootAll(page, 'annotation-screen', (lang) =>
      expect
        .poll(() => page.getByTestId('annotate-state').innerText())
        .toMatch(lang === 'zh' ? /尚未评分/ : /Not rated yet/),
    );

    await server.kill();
    // A key typed while the server is gone is not taken as given: the screen says so and stays.
    const unit = await page.getByTestId('annotate-item').getAttribute('data-unit');
    await page.keyboard.press('1');
    await expect
      .poll(() => page.getByTestId('annotate-state').innerText(), { timeout: 60_000 })
      .toMatch(/Not saved/);
    expect(await page.getByTestId('annotate-item').getAttribute('data-unit')).toBe(unit);
    await page.close();

    server = await startServeWithEnv(dataDir, {});
    const session = await callApi<{ resumeAt: number; items: { unitUid: string; value: string | null }[] }>(
      server,
      'annotation.session',
      { setId, annotator: 'alice' },
    );
    expect(session.resumeAt).toBe(15);
    const stored = new Map(session.items.filter((i) => i.value !== null).map((i) => [i.unitUid, i.value]));
    expect(stored).toEqual(typed.alice);

    page = await newPage();
    await page.goto(`${server.url}#/experiments/${experimentId}/annotation?set=${setId}&annotator=alice`);
    await expect.poll(() => page.getByTestId('annotate-progress').getAttribute('data-done')).toBe('15');
    expect(await page.getByTestId('annotate-item').getAttribute('data-index')).toBe('15');
    await rate(page, 'alice', itemKeyOf);
    await expect.poll(() => page.getByTestId('annotate-done').isVisible()).toBe(true);
    expect(typed.alice.size).toBe(N);
    await page.close();
  });

  it('bob rates the same items in his own copy from an exported package, and sends them back', async () => {
    const page = await newPage();
    await page.goto(`${server.url}#/experiments/${experimentId}/annotation`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-package').click(),
    ]);
    const packageFile = join(downloads, 'to-bob.annotation.json');
    await download.saveAs(packageFile);

    colleagueServer = await startServeWithEnv(colleagueDir, {});
    const bobPage = await newPage();
    await bobPage.goto(`${colleagueServer.url}#/annotation`);
    await bobPage.getByTestId('import-package').setInputFiles(packageFile);
    await expect.poll(() => bobPage.locator('[data-testid^="annotation-set-"]').count()).toBe(1);
    await bobPage.getByTestId('annotator-name').fill('bob');
    await bobPage.getByTestId('annotate-start').click();
    await rate(bobPage, 'bob', itemKeyOf);
    expect(typed.bob.size).toBe(N);
    await bobPage.getByRole('button', { name: 'Back to the sets' }).click();
    const [back] = await Promise.all([
      bobPage.waitForEvent('download'),
      bobPage.getByTestId('export-package').click(),
    ]);
    const backFile = join(downloads, 'from-bob.annotation.json');
    await back.saveAs(backFile);
    await bobPage.close();

    await page.getByTestId('import-package').setInputFiles(backFile);
    await expect
      .poll(() => page.getByTestId('annotation-message').innerText())
      .toMatch(/Merged \d+ labels into “/);
    await expect.poll(() => page.getByTestId(`annotation-set-${setId}`).innerText()).toMatch(/bob: 30 rated/);
    await page.close();
  });

  it('shows ICC, kappa and rho equal to the values computed from what was typed', async () => {
    const units = [...typed.alice.keys()].sort();
    const icc = icc21(units.map((u) => [coding(typed.alice.get(u)!), coding(typed.bob.get(u)!)]));
    // The human majority of two people: their common label; items where they differ have none.
    const agreed = units.filter((u) => typed.alice.get(u) === typed.bob.get(u));
    const human = agreed.map((u) => typed.alice.get(u)!);
    const judge = agreed.map((u) => judgePref.get(itemKeyOf.get(u)!)!);
    const kappa = cohensKappa(judge, human, 'none', ['1', '2', 'tie']);
    const rho = spearman(judge.map(coding), human.map(coding));

    const page = await newPage();
    await page.goto(`${server.url}#/experiments/${experimentId}/annotation?set=${setId}&view=agreement`);
    const cell = (table: string, key: string) =>
      page
        .getByTestId(`agreement-table-${table}`)
        .locator(`tbody tr:first-child td[data-key="${key}"]`)
        .innerText();
    await expect.poll(() => cell('inter_annotator', 'icc')).toBe(icc.icc!.toFixed(3));
    expect(await cell('judge_human', 'n')).toBe(String(agreed.length));
    expect(await cell('judge_human', 'kappa')).toBe(kappa.kappa!.toFixed(3));
    expect(await cell('judge_human', 'rho')).toBe(rho.rho!.toFixed(3));
    // Where Fisher z has no interval (ρ = ±1, or fewer than 4 items) the cell says so and why
    // (issue 20 item 4); at ρ = ±1 the point value decides, with a warning.
    expect(await cell('judge_human', 'rho_ci')).toBe(
      rho.ci
        ? `[${rho.ci[0].toFixed(3)}, ${rho.ci[1].toFixed(3)}]`
        : `undefined (${rho.ci_undefined_reason})`,
    );
    // The decision at a threshold, by the panel's rule: the interval clears it, misses it or
    // straddles it; without an interval only ρ = ±1 decides (the jackknife interval is also
    // undefined where ρ does not move without any one item: then no threshold decides).
    const decisionAt = (threshold: number) =>
      rho.ci
        ? rho.ci[0] >= threshold
          ? 'replace'
          : rho.ci[1] < threshold
            ? 'mix'
            : 'undecided'
        : agreed.length >= 4 && Math.abs(rho.rho!) === 1
          ? rho.rho! >= threshold
            ? 'replace'
            : 'mix'
          : 'undecided';
    const decision = decisionAt(0.8);
    expect(
      await page
        .locator('[data-testid="decision-panel"] [data-decision]')
        .first()
        .getAttribute('data-decision'),
    ).toBe(decision);
    // The threshold is editable: at -1 the whole interval clears it.
    await page.getByTestId('agreement-threshold').fill('-1');
    await expect
      .poll(() =>
        page.locator('[data-testid="decision-panel"] [data-decision]').first().getAttribute('data-decision'),
      )
      .toBe(decisionAt(-1));
    await page.getByTestId('agreement-threshold').fill('0.8');
    await expect
      .poll(() =>
        page.locator('[data-testid="decision-panel"] [data-decision]').first().getAttribute('data-decision'),
      )
      .toBe(decision);

    await page
      .locator('[data-testid="chart-judge_vs_human"], .agreement__charts')
      .first()
      .scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    // Back to the top of the page (the threshold field kept focus and scroll), for the screenshots.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      for (const el of [document.scrollingElement, ...document.querySelectorAll('main, #main, .frame__main')])
        if (el) el.scrollTop = 0;
    });
    await shootAll(page, 'agreement-dashboard', (lang) =>
      expect
        .poll(() => page.getByTestId('decision-panel').innerText())
        .toMatch(lang === 'zh' ? /决策/ : /Decision/),
    );
    await shootElement(page, 'decision-panel', 'decision-panel');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("downloads a set's label template with the typed name, and takes it back filled", async () => {
    const set = await callApi<{ id: number; itemCount: number }>(server, 'annotation.createSet', {
      experimentId,
      size: 4,
      seed: 9,
      name: 'template e2e',
    });
    const page = await newPage();
    await page.goto(`${server.url}#/experiments/${experimentId}/annotation`);
    const card = page.getByTestId(`annotation-set-${set.id}`);
    await card.getByTestId('annotator-name').fill('dora');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByTestId('label-template').click(),
    ]);
    const file = join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toBe('template-e2e.dora.labels.csv');

    const rows = parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { columns: true }) as Record<
      string,
      string
    >[];
    const session = await callApi<{ items: { unitUid: string }[] }>(server, 'annotation.session', {
      setId: set.id,
      annotator: 'dora',
    });
    expect(rows.map((r) => r.item_id).sort()).toEqual(session.items.map((i) => i.unitUid).sort());
    expect(rows.every((r) => r.annotator === 'dora' && r.preference === '' && r.response_b !== '')).toBe(
      true,
    );

    const filled = join(downloads, 'filled.csv');
    writeFileSync(
      filled,
      [
        'item_id,annotator,preference',
        ...rows.map((r, i) => `${r.item_id},dora,${['A', 'B', 'tie'][i % 3]}`),
      ].join('\n'),
    );
    await card.getByTestId('import-labels').setInputFiles(filled);
    await expect.poll(() => page.getByTestId('annotation-message').innerText()).toMatch(/Imported 4 labels/);
    await expect.poll(() => card.innerText()).toMatch(/dora: 4 rated/);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('on the MT-Bench human sample with a simulated judge, shows the judge alone, people alone, PPI++ and the corrected estimates with their widths, and sends the least-sure units to people (issue 36)', async () => {
    const { dataset } = await callApi<{ dataset: { id: number } }>(server, 'datasets.loadSample', {
      sampleId: 'mtbench-human',
    });
    const { id } = await callApi<{ id: number }>(server, 'experiments.create', {
      config: {
        name: 'mtbench-ppi-e2e',
        protocol: 'judge-ls',
        dataset: dataset.id,
        providers: { demo: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 16 } },
        transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH'] },
        judges: [{ label: 'Sim strong', provider: 'demo', model: 'sim-judge-strong' }],
        tieProbes: false,
      },
    });
    await callApi(server, 'experiments.start', { experimentId: id });
    for (let waited = 0; ; waited += 250) {
      const { status } = await callApi<{ status: string }>(server, 'experiments.progress', {
        experimentId: id,
      });
      if (status === 'finished') break;
      if (waited > 120_000) throw new Error(`the run did not finish (status ${status})`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // 50 of the 200 items with the human majority vote as people's label; the other 150 unlabelled.
    const set = await callApi<{ id: number }>(server, 'annotation.createSet', {
      experimentId: id,
      size: 50,
      seed: 7,
      goldAsAnnotator: 'majority',
    });
    const report = await callApi<AgreementReport>(server, 'annotation.agreement', { setId: set.id });
    const rows = agreementTables(report).find((t) => t.id === 'estimates')!.rows;
    const page = await newPage();
    await page.goto(`${server.url}#/experiments/${id}/annotation?set=${set.id}&view=agreement`);
    const table = page.getByTestId('judge-people-estimates').getByTestId('agreement-table-estimates');
    const column = (key: string) => table.locator(`tbody td[data-key="${key}"]`).allInnerTexts();
    await expect
      .poll(() => column('method'))
      .toEqual(['Judge alone (naive)', 'People alone', 'PPI', 'PPI++', 'Rogan–Gladen']);
    // The page shows the core's numbers, widths included, and every defined interval has a width.
    for (const key of ['estimate', 'est_ci', 'width', 'n_eff'])
      expect(await column(key), key).toEqual(rows.map((r) => String(r[key])));
    const shown = Object.fromEntries((await column('method')).map((m, i) => [m, rows[i]])) as Record<
      string,
      Record<string, unknown>
    >;
    for (const m of ['Judge alone (naive)', 'People alone', 'PPI', 'PPI++'])
      expect(Number(shown[m].width), m).toBeGreaterThan(0);
    // Rogan–Gladen: the simulated judge's sensitivity + specificity on "response 1 preferred" is ≤ 1,
    // so the correction cannot be inverted and the page says why instead of a number.
    expect(shown['Rogan–Gladen'].note).toContain('undefined (judge no better than chance');
    console.log(
      'MT-Bench, sim-judge-strong, 50 of 200 labelled:',
      JSON.stringify(rows.map((r) => [r.method, r.estimate, r.est_ci, r.width, r.n_eff, r.lambda, r.note])),
    );

    // The same experiment's least-sure units, previewed and sent to people from its page.
    await page.goto(`${server.url}#/experiments/${id}/annotation`);
    const summary = page.getByTestId('least-sure-summary');
    await expect.poll(() => summary.innerText()).toMatch(/The judge is least sure about \d+ of 200 units/);
    const sel = await callApi<LeastSureSelection>(server, 'annotation.leastSure', { experimentId: id });
    expect(await summary.innerText()).toContain(`least sure about ${sel.items.length} of 200 units`);
    await page.getByTestId('least-sure-size').fill('10');
    await page.getByTestId('least-sure-create').click();
    await expect.poll(() => page.getByTestId('least-sure-created').innerText()).toMatch(/with 10 units/);
    const sets = await callApi<{ name: string; selection: string; itemCount: number }[]>(
      server,
      'annotation.listSets',
      { experimentId: id },
    );
    expect(sets.filter((x) => x.selection === 'least-sure').map((x) => x.itemCount)).toEqual([10]);
    await expect.poll(() => page.getByTestId('least-sure-set').count()).toBe(1);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

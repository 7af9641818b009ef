// Issue 15 item 9 in Chromium, the pages zh-walk.test.ts does not visit: datasets (list, a
// dataset, an item, a located import error), the experiments list, the wizard's every step and
// estimate for each protocol, a batch run, the compare page, human ratings (set list, rating
// screen, agreement dashboard with Apply mapping) and the glossary. In 中文 none of them may
// show an English sentence (four or more ASCII words in a row); model text, model names, ids
// and file names stay as they are.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import { listProtocols } from '../../src/main/protocols';
import type { Item } from '../../src/shared/domain';
import { launchChromium } from '../helpers/browser';
import { assertBuilt } from '../helpers/cli';
import { saveScreenshot } from '../helpers/screenshots';
import { tempDir } from '../helpers/tmp';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { englishOnScreen } from './helpers/english';
import { switchLanguage } from './helpers/screens';
import { startServeWithEnv, type ServeHandle } from './helpers/serve';

let browser: Browser;
let page: Page;
let server: ServeHandle;
let mock: MockProvider;
let cleanup: () => void;
let dir: string;
let llmbarId: number;
let qaId: number;
let firstItemId: number;
let simId: number;
let batchId: number;
let setId: number;
const dataText: string[] = [];
let ratedId: number;
let otherId: number;

/** Every string inside a value (an item's fields, however nested). */
function stringsIn(v: unknown): string[] {
  if (typeof v === 'string') return v.length >= 12 ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (v && typeof v === 'object') return Object.values(v).flatMap(stringsIn);
  return [];
}

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }),
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  llmbarId = dataset.id;
  const rows = await core.call('items.list', { datasetId: dataset.id });
  firstItemId = rows[0].id;
  const items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  const { dataset: qa } = await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  qaId = qa.id;
  const qaRows = await core.call('items.list', { datasetId: qa.id });
  // Items' texts are data, shown as they are (the first 40 characters identify them).
  for (const r of [...rows, ...qaRows]) {
    const item = await core.call('items.get', { itemId: r.id });
    dataText.push(...stringsIn(item).map((s) => s.slice(0, 40)));
  }
  // A finished run (simulated) for compare, human ratings and the glossary.
  const sim = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };
  simId = core.experiments.createOrUpdate({
    name: 'zh setup walk',
    protocol: 'judge-ls',
    dataset: llmbarId,
    limit: 8,
    providers: sim,
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
    judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
    tieProbes: false,
  }).id;
  await core.experiments.runToEnd(simId);
  // A second run of the same judge, to compare with.
  otherId = core.experiments.createOrUpdate({
    name: 'zh compare walk',
    protocol: 'judge-ls',
    dataset: llmbarId,
    limit: 8,
    providers: sim,
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
    judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge-weak' }],
    tieProbes: false,
  }).id;
  await core.experiments.runToEnd(otherId);
  // The default prompt templates are the models' input, shown as they are in the editors.
  for (const protocol of listProtocols().map((p) => p.id))
    for (const text of Object.values((await core.call('protocols.defaults', { protocol })).templates))
      dataText.push(
        ...text
          .split('\n')
          .filter((l) => l.trim().length >= 12)
          .map((l) => l.slice(0, 40)),
      );
  // Human ratings on pointwise scores (their agreement dashboard offers Apply mapping to the
  // other run of the same judge).
  const biasRun = (name: string) =>
    core.experiments.createOrUpdate({
      name,
      protocol: 'bias-probes',
      dataset: llmbarId,
      limit: 8,
      providers: sim,
      rewriter: { provider: 'sim', model: 'sim-rewriter' },
      judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
      mode: 'pointwise',
    }).id;
  ratedId = biasRun('zh rated walk');
  await core.experiments.runToEnd(ratedId);
  await core.experiments.runToEnd(biasRun('zh other walk'));
  setId = (await core.call('annotation.createSet', { experimentId: ratedId, size: 8, seed: 1 })).id;
  const keys = (
    core.db
      .prepare('SELECT item_key FROM annotation_items WHERE set_id = ? ORDER BY position')
      .all(setId) as {
      item_key: string;
    }[]
  ).map((r) => r.item_key);
  const csv = [
    'item_id,annotator,score',
    ...keys.flatMap((k, i) => [
      `"${k}",ana,${1 + (i % 5)}`,
      `"${k}",ben,${1 + ((i + Math.floor(i / 3)) % 5)}`,
    ]),
  ].join('\n');
  await core.call('annotation.importLabels', {
    setId,
    fileName: 'labels.csv',
    contentBase64: Buffer.from(csv).toString('base64'),
  });
  // A batch run whose batches stay open with the provider.
  mock = await startMockProvider({
    respond: judgeLsResponder(items).respond,
    wrapText: false,
    batchTurnaroundMs: 600_000,
  });
  const batch = { mode: 'batch', batchPollSeconds: 1 };
  batchId = core.experiments.createOrUpdate({
    name: 'zh batch walk',
    protocol: 'judge-ls',
    dataset: llmbarId,
    limit: 4,
    providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', ...batch } },
    transform: { provider: 'o', model: 'gpt-4.1-mini' },
    judges: [{ label: 'GPT-4.1 mini', provider: 'o', model: 'gpt-4.1-mini' }],
  }).id;
  core.experiments.runs.start(batchId);
  for (let i = 0; mock.batches.created().length < 1; i++) {
    if (i > 400) throw new Error('no batch was submitted');
    await new Promise((r) => setTimeout(r, 50));
  }
  await core.shutdown();
  server = await startServeWithEnv(dir, { MOCK_API_KEY: 'sk-test' });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(15_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  cleanup?.();
});

describe('the rest of the app in 中文', () => {
  it('shows no English sentences on datasets, wizard, batch run, compare, human ratings and glossary', async () => {
    const allowed = [
      ...dataText,
      'Judge Lab',
      'judge-lab serve',
      'LLMBar',
      'TyDi QA',
      'gpt-4.1-mini',
      'GPT-4.1 mini',
      'Sim judge',
      'zh setup walk',
      'zh batch walk',
      'zh rated walk',
      'zh compare walk',
      // The LLMBar sample's subsets.
      'Natural, Neighbor, GPTInst, GPTOut, Manual',
      'zh other walk',
      '(simulated)',
      'https://',
    ];
    const found: Record<string, string[]> = {};
    const kinds: Record<string, (string | null)[]> = {};
    const estimateKindTexts: string[] = [];
    const estimateWho: string[] = [];
    const scan = async (name: string) => {
      await page.waitForTimeout(300);
      found[name] = await englishOnScreen(page, allowed);
    };
    const visit = async (name: string, hash: string, ready: string) => {
      await page.goto(`${server.url}#${hash}`);
      await page.locator(ready).first().waitFor();
      await scan(name);
    };
    await page.goto(`${server.url}#/datasets`);
    await switchLanguage(page, 'zh');

    await visit('datasets', '/datasets', '[data-testid="dataset-row"]');
    const bad = join(dir, 'broken.jsonl');
    writeFileSync(
      bad,
      '{"id":"a","instruction":"i","output_1":"x","output_2":"y","label":1}\n' +
        '{"id":"b","instruction":"i","output_1":"","output_2":"y","label":2}\n',
    );
    await page.getByTestId('import-input').setInputFiles(bad);
    await page.getByTestId('import-error').waitFor();
    await scan('import error');
    await visit('dataset', `/datasets/${llmbarId}`, '[data-testid="item-row"]');
    await visit('item', `/datasets/${llmbarId}/items/${firstItemId}`, '[data-testid="item-output-1"]');
    await visit('experiments', '/experiments', '[data-testid="experiment-row"], table');

    // Every registered protocol's wizard, on the sample it reads (QA for reference sensitivity).
    for (const [protocol, datasetId] of listProtocols().map(
      (p) => [p.id, p.id === 'reference-sensitivity' ? qaId : llmbarId] as const,
    )) {
      await page.goto(`${server.url}#/experiments/new`);
      // The wizard keeps its state across reloads: start over for each protocol.
      await page.locator('.wizard .page__tools button').click();
      await page.getByTestId('wizard-dataset').selectOption(String(datasetId));
      await scan(`wizard ${protocol} 1`);
      await page.getByTestId('wizard-next').click();
      await page.locator(`input[name="protocol"][value="${protocol}"]`).check();
      await scan(`wizard ${protocol} 2`);
      for (let step = 3; step < 12; step++) {
        await page.getByTestId('wizard-next').click();
        if (await page.getByTestId('create-and-start').isVisible()) break;
        await scan(`wizard ${protocol} ${step}`);
      }
      // The summary with its estimate (and its note) loaded.
      await page.getByTestId('estimate-note').waitFor({ timeout: 60_000 });
      await scan(`wizard ${protocol} summary`);
      estimateWho.push(
        ...(await page.locator('[data-testid="estimate-row"] td:nth-child(1)').allInnerTexts()),
      );
      estimateKindTexts.push(
        ...(await page.locator('[data-testid="estimate-row"] td:nth-child(3)').allInnerTexts()),
      );
      kinds[protocol] = await page
        .getByTestId('estimate-row')
        .evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('data-kind')))]);
      if (protocol === 'judge-ls') await saveScreenshot(page, 'wizard-estimate-zh-light', { fullPage: true });
    }

    await visit('batch run', `/experiments/${batchId}`, '[data-testid="run-batch"]');
    await saveScreenshot(page, 'batch-run-zh-light', { fullPage: true });
    await visit('compare', `/compare?a=${simId}&b=${otherId}`, 'h1');
    await page.waitForTimeout(700);
    await scan('compare');
    await visit('annotation sets', '/annotation', `[data-testid="annotation-set-${setId}"]`);
    await visit(
      'experiment annotation',
      `/experiments/${ratedId}/annotation`,
      `[data-testid="annotation-set-${setId}"]`,
    );
    await visit(
      'rating screen',
      `/experiments/${ratedId}/annotation?set=${setId}&annotator=carol`,
      '[data-testid="annotate-item"]',
    );
    await visit(
      'agreement',
      `/experiments/${ratedId}/annotation?set=${setId}&view=agreement`,
      '[data-testid="apply-mapping"]',
    );
    await visit('results', `/experiments/${simId}/results`, '[data-testid="glossary-link"]');
    await page.getByTestId('glossary-link').first().click();
    await page.getByTestId('glossary').waitFor();
    await scan('glossary');

    expect(Object.entries(found).filter(([, v]) => v.length > 0)).toEqual([]);
    // Each summary estimates its own protocol's calls (not the previous draft's: an answer for
    // the draft before "Start over" used to stay on screen).
    expect(kinds).toMatchObject({
      'judge-ls': ['transform', 'quality', 'tie_probe'],
      'reference-sensitivity': ['generate', 'C1', 'C2', 'NR', 'RV', 'RC'],
      'bias-probes': ['longer', 'shorter', 'markdown', 'original', 'plain', 'pair-shown'],
      'self-consistency': ['first-ask', 'repeat'],
    });
    expect(Object.keys(kinds)).toEqual(listProtocols().map((p) => p.id));
    // Their kinds are named in Chinese (the settings' codes C1…RC stay as they are).
    expect(estimateKindTexts).toEqual(
      expect.arrayContaining([
        '翻译',
        '判断',
        '生成回答',
        '加长',
        '缩短',
        '原文',
        '纯文本',
        '位置探针',
        '首次提问',
        '重复提问',
      ]),
    );
    expect(estimateWho).toContain('改写模型');
  }, 240_000);
});

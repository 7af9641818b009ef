// "Apply mapping" in Chromium against `judge-lab serve`: two keyless bias-probes runs (pointwise
// scores, simulated provider) of the same judge; people's scores on a set drawn from the first
// give a calibration mapping, and the agreement page applies it to the second run.
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { saveScreenshot } from '../helpers/screenshots';
import { assertBuilt } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { switchLanguage } from './helpers/screens';
import { callApi, startServeWithEnv, type ServeHandle } from './helpers/serve';

let browser: Browser;
let server: ServeHandle;
let cleanup: () => void;
let dataDir: string;
let rated: number;
let setId: number;

async function runStudy(name: string, datasetId: number, scale: 5 | 10 = 5): Promise<number> {
  const { id } = await callApi<{ id: number }>(server, 'experiments.create', {
    config: {
      name,
      protocol: 'bias-probes',
      dataset: datasetId,
      limit: 20,
      providers: { demo: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
      rewriter: { provider: 'demo', model: 'sim-rewriter' },
      judges: [{ label: 'Sim judge', provider: 'demo', model: 'sim-judge' }],
      mode: 'pointwise',
      scale,
    },
  });
  await callApi(server, 'experiments.start', { experimentId: id });
  for (let waited = 0; ; waited += 250) {
    const { status } = await callApi<{ status: string }>(server, 'experiments.progress', {
      experimentId: id,
    });
    if (status === 'finished') return id;
    if (waited > 60_000) throw new Error(`${name} did not finish (status ${status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  assertBuilt();
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  dataDir = join(tmp.dir, 'data');
  server = await startServeWithEnv(dataDir, {});
  const { dataset } = await callApi<{ dataset: { id: number } }>(server, 'datasets.loadSample', {
    sampleId: 'llmbar',
  });
  rated = await runStudy('rated run', dataset.id);
  await runStudy('new run', dataset.id);
  // Same judge, another scale: the mapping cannot apply, and the panel says why instead of offering it.
  await runStudy('ten-point run', dataset.id, 10);
  ({ id: setId } = await callApi<{ id: number }>(server, 'annotation.createSet', {
    experimentId: rated,
    size: 30,
    seed: 3,
  }));
  // Item ids as a label file names them (the screens and packages show units only).
  const db = new BetterSqlite3(join(dataDir, 'judge-lab.sqlite'), { readonly: true });
  const keys = (
    db.prepare('SELECT item_key FROM annotation_items WHERE set_id = ? ORDER BY position').all(setId) as {
      item_key: string;
    }[]
  ).map((r) => r.item_key);
  db.close();
  const csv = ['item_id,annotator,score', ...keys.map((k, i) => `"${k}",ana,${1 + (i % 5)}`)].join('\n');
  await callApi(server, 'annotation.importLabels', {
    setId,
    fileName: 'labels.csv',
    contentBase64: Buffer.from(csv).toString('base64'),
  });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cleanup?.();
});

describe('Apply mapping in the agreement dashboard', () => {
  it('applies the calibration mapping to another run of the same judge and shows the calibrated scores', async () => {
    const errors: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}#/experiments/${rated}/annotation?set=${setId}&view=agreement`);
    const panel = page.getByTestId('apply-mapping');
    await panel.waitFor();
    const target = page.getByTestId('apply-mapping-target');
    expect(await target.locator('option').allInnerTexts()).toEqual(['rated run', 'new run']);
    const excluded = page.getByTestId('apply-mapping-excluded');
    await excluded.locator('summary').click();
    expect(await page.getByTestId('apply-mapping-excluded-row').allInnerTexts()).toEqual([
      'ten-point run: its prompt templates (the rubric) differ from the rated run’s; another rating scale (1–10; the mapping’s is 1–5)',
    ]);
    // The labels are a pattern of their own (1–5 in turn): the mapping fails on held-out items,
    // so the panel warns and applies nothing until the person insists.
    const warning = page.getByTestId('apply-mapping-warning');
    expect(await warning.innerText()).toMatch(
      /held-out ρ is (-?\d\.\d\d|undefined), below the floor of 0\.3/,
    );
    const button = page.getByTestId('apply-mapping-button');
    expect(await button.isDisabled()).toBe(true);
    await target.selectOption({ label: 'new run' });
    await saveScreenshot(panel, 'apply-mapping-warning-en-light');
    await page.getByTestId('apply-mapping-insist').check();
    await button.click();
    const result = page.getByTestId('apply-mapping-result');
    await expect
      .poll(() => result.innerText())
      .toMatch(/Calibrated \d+ scores with the (overall|per-category) mapping/);
    expect(await page.getByTestId('apply-mapping-forced').innerText()).toMatch(
      /Applied below the floor \(held-out ρ .*\): \d+ of \d+ scores share a calibrated value/,
    );
    expect(await result.locator('tbody tr').count()).toBeGreaterThan(0);
    await saveScreenshot(panel, 'apply-mapping-en-light');
    await switchLanguage(page, 'zh');
    await expect.poll(() => warning.innerText()).toMatch(/低于下限 0\.3/);
    expect(await page.getByTestId('apply-mapping-excluded-row').allInnerTexts()).toEqual([
      'ten-point run: 其提示模板（评分标准）与已评实验不同；评分量表不同（1–10；映射的是 1–5）',
    ]);
    await saveScreenshot(panel, 'apply-mapping-zh-light');
    expect(errors).toEqual([]);
  });
});

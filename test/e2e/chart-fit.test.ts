// Issue 20 item 8: the bias profile on the results page hid its significant dots behind a
// horizontal scrollbar (two judges side by side leave each card narrower than the 820 px figure),
// and its axis printed −0.5, −0.4, … 0.4, 0.5 with a second "0" from the zero line. Measured in
// Chromium: every drawn point lies inside the chart's visible box, nothing scrolls sideways, and
// the axis labels are distinct and evenly spaced.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { ExperimentProgress } from '../../src/shared/experiments';
import { launchChromium } from '../helpers/browser';
import { assertBuilt, startServe } from '../helpers/cli';
import { saveScreenshot } from '../helpers/screenshots';
import { tempDir } from '../helpers/tmp';
import { switchLanguage } from './helpers/screens';

let browser: Browser;
let page: Page;
let server: { url: string; stop: () => Promise<void> };
let cleanup: () => void;
let experimentId: number;
let rows: { judge: string; category: string; effect: string; mean: number }[] = [];
let progress: ExperimentProgress;

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  ({ id: experimentId } = await core.call('experiments.create', {
    config: {
      name: 'Bias profile fit',
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      limit: 16,
      providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
      rewriter: { provider: 'sim', model: 'sim-rewriter' },
      judges: [
        { label: 'Sim judge', provider: 'sim', model: 'sim-judge' },
        { label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak' },
      ],
    },
  }));
  expect((await core.experiments.runToEnd(experimentId)).status).toBe('finished');
  const results = await core.call('experiments.results', { experimentId });
  rows = (results.metrics as { probes: typeof rows }).probes.filter((r) => r.category === 'all');
  progress = await core.call('experiments.progress', { experimentId });
  await core.shutdown();
  server = await startServe(t.dir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cleanup?.();
});

interface Measured {
  box: { left: number; right: number; top: number; bottom: number };
  frameScroll: number;
  frameClient: number;
  pageScroll: number;
  pageClient: number;
  /** Centres of the drawn dots (symbols of the two scatter series, legend left out). */
  dots: { x: number; y: number }[];
  xLabels: { text: string; x: number }[];
}

/** Every bias-profile card's geometry, read from the rendered SVG. */
async function measure(): Promise<Measured[]> {
  return page.$$eval('[data-testid="chart-bias_profile"]', (cards) =>
    cards.map((card) => {
      const frame = card.querySelector('.results-chart__frame') as HTMLElement;
      const svg = card.querySelector('svg')!;
      const r = frame.getBoundingClientRect();
      const dots: { x: number; y: number }[] = [];
      for (const p of svg.querySelectorAll('path')) {
        const fill = (p.getAttribute('fill') ?? '').toLowerCase();
        const stroke = (p.getAttribute('stroke') ?? '').toLowerCase();
        // Significant: filled vermillion; not significant: white with a blue ring (chart-kit's Okabe–Ito).
        if (fill === '#d55e00' || (fill === '#ffffff' && stroke === '#0072b2')) {
          const b = p.getBoundingClientRect();
          if (b.width > 4 && b.width < 20) dots.push({ x: b.left + b.width / 2, y: b.top + b.height / 2 });
        }
      }
      // The value axis's labels sit in one row under the plot: the texts that parse as numbers.
      const texts = [...svg.querySelectorAll('text')]
        .map((t) => ({ text: t.textContent ?? '', b: t.getBoundingClientRect() }))
        .filter((t) => /^[−-]?\d+(\.\d+)?$/.test(t.text.trim()));
      const bottom = Math.max(...texts.map((t) => t.b.top));
      const xLabels = texts
        .filter((t) => Math.abs(t.b.top - bottom) < 2)
        .map((t) => ({ text: t.text.trim(), x: t.b.left + t.b.width / 2 }))
        .sort((a, b) => a.x - b.x);
      return {
        // The legend's two symbols sit under the axis labels; the data's dots above them.
        dots: dots.filter((d) => d.y < bottom),
        box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
        frameScroll: frame.scrollWidth,
        frameClient: frame.clientWidth,
        pageScroll: document.documentElement.scrollWidth,
        pageClient: document.documentElement.clientWidth,
        xLabels,
      };
    }),
  );
}

describe('charts fit their card', () => {
  it('draws every point of each bias profile inside the visible box, with distinct axis labels', async () => {
    // The case the issue saw: some effect reaches past ±0.5 and is significant.
    expect(rows.some((r) => Math.abs(r.mean) > 0.3)).toBe(true);
    await page.goto(`${server.url}#/experiments/${experimentId}/results`);
    await page.getByTestId('bias-profiles').waitFor();
    const cards = page.getByTestId('chart-bias_profile');
    await expect.poll(() => cards.count()).toBe(2);
    for (let i = 0; i < 2; i++) await cards.nth(i).scrollIntoViewIfNeeded();
    await expect
      .poll(async () => (await measure()).every((m) => m.dots.length > 0 && m.xLabels.length > 2))
      .toBe(true);
    const measured = await measure();
    const judges = [...new Set(rows.map((r) => r.judge))];
    for (const [i, m] of measured.entries()) {
      expect(m.frameScroll).toBeLessThanOrEqual(m.frameClient);
      expect(m.pageScroll).toBeLessThanOrEqual(m.pageClient);
      // One dot per probe row of this judge, each inside the card's visible box.
      expect(m.dots.length).toBe(rows.filter((r) => r.judge === judges[i]).length);
      for (const d of m.dots) {
        expect(d.x).toBeGreaterThanOrEqual(m.box.left);
        expect(d.x).toBeLessThanOrEqual(m.box.right);
        expect(d.y).toBeGreaterThanOrEqual(m.box.top);
        expect(d.y).toBeLessThanOrEqual(m.box.bottom);
      }
      const labels = m.xLabels.map((l) => l.text.replace('−', '-'));
      expect(new Set(labels).size).toBe(labels.length);
      expect(labels.filter((l) => Number(l) === 0)).toHaveLength(1);
      // Even steps, symmetric around 0, and wide enough for every mean.
      const values = labels.map(Number);
      const steps = values.slice(1).map((v, k) => v - values[k]);
      for (const s of steps) expect(s).toBeCloseTo(steps[0], 9);
      expect(values[0]).toBeCloseTo(-values[values.length - 1], 9);
      for (const r of rows) expect(Math.abs(r.mean)).toBeLessThanOrEqual(values[values.length - 1]);
      // Every label inside the visible box too.
      for (const l of m.xLabels) {
        expect(l.x).toBeGreaterThanOrEqual(m.box.left);
        expect(l.x).toBeLessThanOrEqual(m.box.right);
      }
    }
    await saveScreenshot(page.getByTestId('bias-profiles'), 'bias-profile-fit-en');
    await switchLanguage(page, 'zh');
    await expect.poll(async () => (await measure()).every((m) => m.dots.length > 0)).toBe(true);
    for (const m of await measure()) expect(m.frameScroll).toBeLessThanOrEqual(m.frameClient);
    await saveScreenshot(page.getByTestId('bias-profiles'), 'bias-profile-fit-zh');
    await switchLanguage(page, 'en');
  });

  it('shows the run view with the protocol’s own stages, counted as the progress API counts them (item 6)', async () => {
    await page.goto(`${server.url}#/experiments/${experimentId}`);
    await page.getByTestId('run-phase-rewrite').waitFor();
    await switchLanguage(page, 'en');
    const rows = await page.$$eval('[data-testid^="run-phase-"]', (els) =>
      els.map((e) => [
        e.getAttribute('data-testid'),
        e.getAttribute('data-done'),
        e.getAttribute('data-total'),
      ]),
    );
    expect(rows.map((r) => r[0])).toEqual(['run-phase-rewrite', 'run-phase-judge']);
    expect(rows.map((r) => [r[1], r[2]])).toEqual(
      ['rewrite', 'judge'].map((s) => [String(progress.phases[s].done), String(progress.phases[s].total)]),
    );
    const judges = await page
      .getByTestId('run-judge')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-total')));
    expect(judges).toEqual(['Sim judge', 'Sim weak'].map((j) => String(progress.judges[j].total)));
    await saveScreenshot(page, 'run-bias-probes-stages-en', { fullPage: true });
    await switchLanguage(page, 'zh');
    await expect.poll(() => page.getByTestId('run-phase-rewrite').innerText()).toContain('改写');
    await saveScreenshot(page, 'run-bias-probes-stages-zh', { fullPage: true });
    await switchLanguage(page, 'en');
  });
});

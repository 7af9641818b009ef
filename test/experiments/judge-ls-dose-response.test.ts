// Judge-LS's dose–response (issue 37), end to end through the real runner and SQLite on the
// simulated provider: Hindi–English code-switching asked at 0, 25, 50, 75 and 100 % of the content
// words; the simulated translator honours the ratio (measured on its answer), and two `-mix<NN>`
// judges flip against English with probability NN % × the measured ratio. The metrics must find
// each judge's planted slope from the measured ratios.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { tempDir } from '../helpers/tmp';

const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };
const RATIOS = [0, 25, 50, 75, 100];
const PLANTED = { 'Mix 40': 0.4, 'Mix 80': 0.8 } as Record<string, number>;

let core: Core;
let cleanup: () => void;
let metrics: JudgeLsMetrics;
let experimentId: number;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({}),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const config = {
    name: 'dose-response',
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 40,
    providers: SIM,
    transform: { provider: 'sim', model: 'sim-translator', languages: RATIOS.map((r) => `LS:hi@${r}`) },
    judges: [
      { label: 'Mix 40', provider: 'sim', model: 'sim-judge-strong-mix40' },
      { label: 'Mix 80', provider: 'sim', model: 'sim-judge-mix80' },
    ],
    tieProbes: false,
    options: { bootstrapB: 400 },
  };
  const { id } = await core.call('experiments.create', { config });
  experimentId = id;
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  metrics = (await core.call('experiments.results', { experimentId: id })).metrics as JudgeLsMetrics;
}, 300_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('dose–response on the simulated provider', () => {
  it('measures on the texts a ratio near the one asked for', () => {
    const levels = metrics.dose_response!.levels.filter((l) => l.judge === 'Mix 40');
    expect(levels.map((l) => l.target)).toEqual(RATIOS.map((r) => `LS:hi@${r}`));
    for (const l of levels) {
      console.log(
        `${l.target}: measured ${(100 * l.measured_ratio).toFixed(1)} % (${(100 * l.measured_min).toFixed(0)}–${(100 * l.measured_max).toFixed(0)}), flips ${l.flips}/${l.n}`,
      );
      expect(Math.abs(l.measured_ratio - l.asked_ratio)).toBeLessThan(0.04);
    }
    // 0 % is the English itself (the judge's same question: no flip), 100 % all Hindi words.
    expect(levels[0].measured_max).toBe(0);
    expect(levels[0].flips).toBe(0);
    expect(levels[4].measured_min).toBeGreaterThan(0.9);
  });

  it('recovers each judge’s planted slope, with an interval holding it and a significant trend', () => {
    for (const row of metrics.dose_response!.trend) {
      const planted = PLANTED[row.judge];
      console.log(
        `${row.judge}: slope ${row.slope!.toFixed(3)} (planted ${planted}), CI ${row.slope_ci!.map((x) => x.toFixed(3)).join('–')}, bootstrap ${row.slope_ci_boot!.map((x) => x.toFixed(3)).join('–')}, intercept ${row.intercept!.toFixed(3)}, Holm p ${row.slope_p_holm!.toExponential(2)}`,
      );
      expect(row).toMatchObject({ series: 'LS:hi', items: 40, levels: 5, n: 400 });
      expect(row.slope_ci![0]).toBeLessThan(planted);
      expect(row.slope_ci![1]).toBeGreaterThan(planted);
      expect(row.slope_ci_boot![0]).toBeLessThan(planted);
      expect(row.slope_ci_boot![1]).toBeGreaterThan(planted);
      expect(Math.abs(row.slope! - planted)).toBeLessThan(0.1);
      expect(Math.abs(row.intercept!)).toBeLessThan(0.05);
      expect(row.slope_p_holm!).toBeLessThan(1e-6);
    }
  });

  it('lists each mixed level in the invariance table like any target', () => {
    const row = metrics.language_invariance.find(
      (r) => r.judge === 'Mix 80' && r.comparison === 'EN-LS:hi@100',
    )!;
    const level = metrics.dose_response!.levels.find(
      (l) => l.judge === 'Mix 80' && l.target === 'LS:hi@100',
    )!;
    expect(level.flip_rate).toBeCloseTo(row.flip_rate, 12);
    expect(level.n).toBe(row.n);
  });

  it('exports the figure as SVG and PNG (中文 too), the tables and a Methods section', async () => {
    const file = (figure: string, format: 'svg' | 'png', lang?: 'zh') =>
      core.call('experiments.exportFile', {
        experimentId,
        target: { figure, format },
        ...(lang ? { lang } : {}),
      });
    const svg = Buffer.from((await file('dose_response', 'svg')).contentBase64, 'base64').toString('utf8');
    expect(svg).toContain('Flip rate against the measured mixing ratio');
    expect(svg).toContain('Mix 40');
    const zh = Buffer.from((await file('dose_response', 'svg', 'zh')).contentBase64, 'base64').toString(
      'utf8',
    );
    expect(zh).toContain('翻转率与实测混合比例');
    expect(zh).not.toContain('Flip rate against');
    const png = Buffer.from((await file('dose_response', 'png')).contentBase64, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const csv = await core.call('experiments.exportFile', {
      experimentId,
      target: { table: 'dose_trend', format: 'csv' },
    });
    const text = Buffer.from(csv.contentBase64, 'base64').toString('utf8');
    expect(text).toContain('LS:hi');
    const methods = await core.call('experiments.methods', { experimentId });
    expect(JSON.stringify(methods)).toContain('Dose–response (mixing ratio)');
  });
});

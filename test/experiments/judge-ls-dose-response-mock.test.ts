// Judge-LS's dose–response (issue 37) against the mock provider through the official OpenAI client:
// the mock's translator honours the asked Hindi mixing ratio with its own cipher, and its judge
// flips against English with probability 0.6 × the share of Devanagari words it is shown. The
// app measures the ratio on the stored texts itself; its trend must find the planted slope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { Item } from '../../src/shared/domain';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { tempDir } from '../helpers/tmp';
import { mixingResponder } from '../mock-provider/mixing-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

const LIMIT = 30;
const SLOPE = 0.6;
let core: Core;
let cleanup: () => void;
let mock: MockProvider;
let responder: ReturnType<typeof mixingResponder>;
let metrics: JudgeLsMetrics;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
    engine: { progressIntervalMs: 200 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const items = (await Promise.all(
    (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
  responder = mixingResponder(items, { slopes: { 'judge-mix': SLOPE } });
  mock = await startMockProvider({ latencyMs: [0, 1], respond: responder.respond, logBodies: false });
  const { id } = await core.call('experiments.create', {
    config: {
      name: 'dose-mock',
      protocol: 'judge-ls',
      dataset: 'LLMBar (sample)',
      limit: LIMIT,
      providers: {
        openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
      },
      transform: { provider: 'openai', model: 'translator', languages: ['LS:hi@0', 'LS:hi@50', 'LS:hi@100'] },
      judges: [{ label: 'Mock judge', provider: 'openai', model: 'judge-mix' }],
      tieProbes: false,
      options: { bootstrapB: 400 },
    },
  });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  metrics = (await core.call('experiments.results', { experimentId: id })).metrics as JudgeLsMetrics;
}, 180_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

describe('dose–response on the mock provider (OpenAI wire format)', () => {
  it('measures the ratios the mock wrote, and counts the flips its judge planted', () => {
    expect(responder.calls['openai:language_variant']).toBe(LIMIT * 3);
    const levels = metrics.dose_response!.levels;
    expect(levels.map((l) => [l.target, l.n])).toEqual([
      ['LS:hi@0', 2 * LIMIT],
      ['LS:hi@50', 2 * LIMIT],
      ['LS:hi@100', 2 * LIMIT],
    ]);
    expect(levels[0].measured_ratio).toBe(0);
    expect(levels[2].measured_min).toBe(1);
    // The app's measure and the mock's own count agree on the mixed texts.
    const mockMean = (lo: number, hi: number) => {
      const rs = responder.verdicts.filter((v) => v.r > lo && v.r < hi).map((v) => v.r);
      return rs.reduce((a, b) => a + b, 0) / rs.length;
    };
    expect(levels[1].measured_ratio).toBeCloseTo(mockMean(0, 1), 2);
    // Flips are exactly the verdicts the mock made wrong (EN is never wrong: r = 0 there).
    for (const l of levels) {
      const planted = responder.verdicts.filter(
        (v) => (l.asked_ratio === 1 ? v.r === 1 : v.r > 0 && v.r < 1) && v.wrong,
      );
      if (l.asked_ratio > 0) expect(l.flips).toBe(planted.length);
      else expect(l.flips).toBe(0);
    }
  });

  it('recovers the planted slope', () => {
    const [row] = metrics.dose_response!.trend;
    console.log(
      `mock: slope ${row.slope!.toFixed(3)} (planted ${SLOPE}), CI ${row.slope_ci!.map((x) => x.toFixed(3)).join('–')}, p ${row.slope_p!.toExponential(2)}`,
    );
    expect(row).toMatchObject({
      judge: 'Mock judge',
      series: 'LS:hi',
      items: LIMIT,
      levels: 3,
      n: 6 * LIMIT,
    });
    expect(row.slope_ci![0]).toBeLessThan(SLOPE);
    expect(row.slope_ci![1]).toBeGreaterThan(SLOPE);
    expect(row.slope_p!).toBeLessThan(0.001);
  });
});

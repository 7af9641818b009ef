// The wizard's "time at the rate limits" models pipelined stages: measured against real runs on
// the mock, once where the judge's lane is the busiest and once where the translator is the
// bottleneck (stages added one after another overshoot both by a quarter or more).
import { afterEach, describe, expect, it } from 'vitest';
import type { ExperimentProgress } from '../../src/shared/experiments';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Estimates, runs and times a Judge-LS study: translator and judge on two lanes of one mock. */
async function estimateAndRun(items: number, translatorRpm: number, judgeRpm: number) {
  env = await startLlmbarMock('cli');
  const { core, mock, datasetId } = env;
  mock.setBehavior({ latencyMs: [20, 40] });
  const port = new URL(mock.url).port;
  const config = {
    name: 'estimate-vs-run',
    protocol: 'judge-ls',
    dataset: datasetId,
    limit: items,
    providers: {
      t: {
        kind: 'openai',
        baseURL: `http://localhost:${port}/v1`,
        apiKeyEnv: 'MOCK_API_KEY',
        rpm: translatorRpm,
      },
      j: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', rpm: judgeRpm },
    },
    transform: { provider: 't', model: 'gpt-4.1-mini' },
    judges: [{ label: 'J', provider: 'j', model: 'claude-haiku-4-5' }],
  };
  const estimated = (await core.call('experiments.estimate', { config })).minutesAtRateLimits * 60;
  const { id } = await core.call('experiments.create', { config });
  const etas: { at: number; eta: number }[] = [];
  core.on('run.progress', (p: ExperimentProgress) => {
    if (p.experimentId === id && p.status === 'running' && p.etaSeconds !== null)
      etas.push({ at: Date.now(), eta: p.etaSeconds });
  });
  const t0 = Date.now();
  await core.call('experiments.start', { experimentId: id });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  const end = Date.now();
  // The run's first ETA is the estimate, and while it goes the time left stays near the truth
  // (lane by lane, with the calls not planned yet): within 2 s and a fifth of what is left.
  expect(etas[0].eta).toBe(Math.round(estimated));
  for (const { at, eta } of etas) {
    const left = (end - at) / 1000;
    expect(Math.abs(eta - left)).toBeLessThanOrEqual(2 + 0.2 * left);
  }
  return { estimated, measured: (end - t0) / 1000 };
}

describe('the estimate of a pipelined run', () => {
  it("is within 15 % of the wall time when the judge's lane is the busiest", async () => {
    // 40 translations at 1,200 RPM (2 s) beside 160 verdicts at 800 RPM (12 s).
    const { estimated, measured } = await estimateAndRun(20, 1200, 800);
    expect(estimated).toBeCloseTo(12, 1);
    expect(Math.abs(measured - estimated) / measured).toBeLessThan(0.15);
  }, 60_000);

  it('is within 15 % of the wall time when the translator is the bottleneck', async () => {
    // 20 translations at 100 RPM (12 s); the last item's verdicts follow its translation.
    const { estimated, measured } = await estimateAndRun(10, 100, 1200);
    expect(estimated).toBeCloseTo(12.2, 1);
    expect(Math.abs(measured - estimated) / measured).toBeLessThan(0.15);
  }, 60_000);
});

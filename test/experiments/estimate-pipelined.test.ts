// The wizard's "time at the rate limits" models pipelined stages: once where the judge's lane is
// the busiest and once where the translator is the bottleneck (stages added one after another
// overshoot both by a quarter or more). Checked against the lanes' bounds, and the run's first
// ETA must be that estimate; how close a real run's wall time comes is a figure, not a test:
// `npm run bench:queue c` prints the CLI's estimate beside the measured wall time (issue 27: no
// assertion on wall-clock time, so the suite passes on a loaded machine).
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
  const etas: number[] = [];
  core.on('run.progress', (p: ExperimentProgress) => {
    if (p.experimentId === id && p.status === 'running' && p.etaSeconds !== null) etas.push(p.etaSeconds);
  });
  await core.call('experiments.start', { experimentId: id });
  // Only the first ETA is checked: the run stops once it is shown (running on to the end waited
  // out the rate limits, 24 s of the file's 25, for no assertion).
  await expect.poll(() => etas.length).toBeGreaterThan(0);
  const stopped = await core.call('experiments.cancel', { experimentId: id });
  expect(stopped.status).toBe('cancelled');
  // The run's first ETA is the estimate (lane by lane, with the calls not planned yet).
  expect(etas[0]).toBe(Math.round(estimated));
  return { estimated };
}

describe('the estimate of a pipelined run', () => {
  it("is the judge's lane bound when that lane is the busiest", async () => {
    // 40 translations at 1,200 RPM (2 s) beside 160 verdicts at 800 RPM (12 s).
    const { estimated } = await estimateAndRun(20, 1200, 800);
    expect(estimated).toBeCloseTo(12, 1);
    // Pipelined: well below the stages one after another (2 s + 12 s).
    expect(estimated).toBeLessThan(0.9 * (2 + 12));
  });

  it("is the translator's bound plus the last item's verdicts when the translator is the bottleneck", async () => {
    // 20 translations at 100 RPM (12 s); the last item's verdicts follow its translation.
    const { estimated } = await estimateAndRun(10, 100, 1200);
    expect(estimated).toBeCloseTo(12.2, 1);
    // Pipelined: well below the stages one after another (12 s + 80 verdicts at 1,200 RPM, 4 s).
    expect(estimated).toBeLessThan(0.9 * (12 + 4));
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { ExperimentProgress } from '../../src/shared/experiments';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('time left at the start of a run', () => {
  it('is the estimate the wizard showed, at the same rate limits', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const config = {
      name: 'eta',
      protocol: 'judge-ls',
      dataset: datasetId,
      limit: 6,
      providers: {
        o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', rpm: 600 },
        slow: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', rpm: 20 },
      },
      transform: { provider: 'o', model: 'gpt-4.1-mini' },
      judges: [
        { label: 'Fast', provider: 'o', model: 'gpt-4.1-mini' },
        { label: 'Slow', provider: 'slow', model: 'slow-judge' },
      ],
    };
    const estimate = (await core.call('experiments.estimate', { config })).minutesAtRateLimits * 60;
    // 6 items × 8 verdicts of the slow judge at 20 a minute: the slowest lane decides.
    expect(estimate).toBeGreaterThanOrEqual((6 * 8 * 60) / 20);
    const { id } = await core.call('experiments.create', { config });
    const etas: number[] = [];
    core.on('run.progress', (p: ExperimentProgress) => {
      if (p.experimentId === id && p.status === 'running' && p.etaSeconds !== null) etas.push(p.etaSeconds);
    });
    await core.call('experiments.start', { experimentId: id });
    const deadline = Date.now() + 5000;
    while (etas.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await core.call('experiments.cancel', { experimentId: id });
    expect(etas[0]).toBe(Math.round(estimate));
    // And it keeps to that scale while the slow judge works (not "under a minute").
    expect(Math.min(...etas)).toBeGreaterThan(60);
  });
});

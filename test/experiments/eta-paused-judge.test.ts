// Time left while the early warning holds a judge: that judge's lane sends nothing until a
// person resumes it, so its calls (and the ones that failed) no longer count; the other lanes
// decide. Before, the ETA kept the paused judge's whole queue until the run stopped.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExperimentProgress } from '../../src/shared/experiments';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const BROKEN_MODEL = 'claude-haiku-4-5';

describe('time left with a judge paused by the early warning', () => {
  it('is the other lanes’ time, not the paused judge’s queue', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    mock.setBehavior({
      latencyMs: [10, 20],
      faultFor: (req) => (req.model === BROKEN_MODEL ? 'malformed' : undefined),
    });
    const port = new URL(mock.url).port;
    const mockAt = (host: string) => ({
      kind: 'openai',
      baseURL: `http://${host}:${port}/v1`,
      apiKeyEnv: 'MOCK_API_KEY',
    });
    const config = {
      name: 'eta-paused',
      protocol: 'judge-ls',
      dataset: datasetId,
      limit: 8,
      maxParseRetries: 0,
      providers: { t: mockAt('localhost'), j: mockAt('127.0.0.1') },
      transform: { provider: 't', model: 'gpt-4.1-mini' },
      // 64 verdicts each, at each judge's own limit (the estimate uses it as the engine does):
      // GPT at 4 a second (16 s), Broken at 2 a second (32 s).
      judges: [
        { label: 'GPT', provider: 'j', model: 'gpt-4.1-mini', rpm: 240 },
        { label: 'Broken', provider: 'j', model: BROKEN_MODEL, rpm: 120 },
      ],
    };
    const estimated = (await core.call('experiments.estimate', { config })).minutesAtRateLimits * 60;
    expect(estimated).toBe(32);
    const { id } = await core.call('experiments.create', { config });
    const seen: ExperimentProgress[] = [];
    core.on('run.progress', (p: ExperimentProgress) => {
      if (p.experimentId === id) seen.push(p);
    });
    await core.call('experiments.start', { experimentId: id });
    const stopped = await core.experiments.runToEnd(id);
    expect(stopped.status).toBe('paused');
    expect(stopped.pausedLanes).toEqual([
      expect.objectContaining({ model: BROKEN_MODEL, kind: 'early_warning' }),
    ]);
    // Checked against the calls left, not the clock (a loaded machine slows the run, and with it
    // every real time left). Counted, Broken's queue would keep the ETA at or above its calls left
    // at its limit, 2 a second (an observed pace only lowers a rate, and the estimate uses the
    // limit): with GPT's last few calls left the ETA is GPT's, far below half that.
    const left = (c: { pending: number; inFlight: number } | undefined) => (c ? c.pending + c.inFlight : 0);
    const pausedAt = seen.findIndex((p) => p.pausedLanes.length > 0);
    expect(pausedAt).toBeGreaterThanOrEqual(0);
    const late = seen
      .slice(pausedAt)
      .filter((p) => p.status === 'running' && p.etaSeconds !== null && left(p.judges.GPT) <= 6);
    expect(late.length).toBeGreaterThan(1);
    for (const p of late) {
      const brokenLeft = left(p.judges.Broken);
      expect(brokenLeft).toBeGreaterThanOrEqual(24);
      expect(p.etaSeconds!).toBeLessThan(brokenLeft / 2 / 2);
    }
  });
});

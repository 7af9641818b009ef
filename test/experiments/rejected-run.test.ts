// Issue 32 item 7: a server that rejects every request. The endpoint+model is paused after a few
// rejections in a row (the lane sends no more than that before its first answer), the pause holds
// through the run's later rounds, and a run whose calls all failed does not read "finished" with
// nothing said: the status line names what happened and why. Through the core, real SQLite and
// the OpenAI SDK against the mock provider, counting calls at the mock.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../src/main/queue/retry-policy';
import { runOutcome } from '../../src/shared/run-status-text';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** A custom OpenAI-compatible server, with the default concurrency (16). */
function custom(env: LlmbarMock, extra: Record<string, unknown>) {
  return {
    providers: { custom: { kind: 'openai', baseURL: `${env.mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
    ...extra,
  };
}

const PAUSE_AFTER = DEFAULT_RETRY_POLICY.pauseAfterBadRequests;

describe('a server that rejects every request', () => {
  it('is paused after a few rejections, before they use up the plan, and stays paused through later rounds', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock } = env;
    mock.setBehavior({ faultFor: () => 'bad_request' });
    const { id } = await core.call('experiments.create', {
      config: custom(env, {
        name: 'rejected',
        protocol: 'judge-ls',
        dataset: env.datasetId,
        limit: 8,
        transform: { provider: 'custom', model: 'gpt-4.1-mini' },
        judges: [{ label: 'GPT', provider: 'custom', model: 'gpt-4.1-mini' }],
      }),
    });
    const end = await core.experiments.runToEnd(id);
    // Not more rejected calls than the pause needs (16 went out at once, then 4 more in the
    // next round, before).
    expect(mock.log.length).toBe(PAUSE_AFTER);
    expect(end.status).toBe('paused');
    expect(end.pausedLanes).toEqual([
      expect.objectContaining({ kind: 'bad_request', model: 'gpt-4.1-mini' }),
    ]);
    expect(end.message).toMatch(/The last 5 requests to gpt-4.1-mini were all rejected.*HTTP 400/);
    expect(end.failuresByReason).toEqual({ bad_request: PAUSE_AFTER });
  });

  it('with a bad key is paused at the first refusal, sending no more than the first few calls', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock } = env;
    mock.setBehavior({ apiKey: 'another-key' });
    const { id } = await core.call('experiments.create', {
      config: custom(env, {
        name: 'bad key',
        protocol: 'judge-ls',
        dataset: env.datasetId,
        limit: 8,
        transform: { provider: 'custom', model: 'gpt-4.1-mini' },
        judges: [{ label: 'GPT', provider: 'custom', model: 'gpt-4.1-mini' }],
      }),
    });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('paused');
    expect(end.pausedLanes).toEqual([expect.objectContaining({ kind: 'auth' })]);
    expect(mock.log.length).toBeLessThanOrEqual(PAUSE_AFTER);
  });

  it('a run whose every call was rejected says so, with the reason, live and in the list', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock } = env;
    mock.setBehavior({ faultFor: () => 'bad_request' });
    // Two calls: both rejected at once, before any pause can come, so nothing is left to send.
    const { id } = await core.call('experiments.create', {
      config: custom(env, {
        name: 'all rejected',
        protocol: 'self-consistency',
        dataset: env.datasetId,
        limit: 1,
        judges: [{ label: 'GPT', provider: 'custom', model: 'gpt-4.1-mini', temperature: 1 }],
        repeats: 2,
        orders: 'one',
      }),
    });
    const end = await core.experiments.runToEnd(id);
    expect(mock.log.length).toBe(2);
    // Nothing is left to send: the stored status is finished, but it is shown as what it is.
    expect(end.status).toBe('finished');
    const calls = Object.values(end.phases).reduce(
      (c, g) => ({ done: c.done + g.done, failed: c.failed + g.failed }),
      { done: 0, failed: 0 },
    );
    expect(runOutcome(end.status, calls)).toBe('all_failed');
    expect(end.message).toMatch(
      /^Every call failed \(2 of 2\): there are no answers\. Reasons: bad_request 2 \(The provider rejected the request \(HTTP 400\)/,
    );
    // The page read again after the run, and the experiment list.
    const later = await core.call('experiments.progress', { experimentId: id });
    expect(later.message).toBe(end.message);
    const listed = (await core.call('experiments.list', undefined)).find((e) => e.id === id)!;
    expect(runOutcome(listed.status, listed.counts)).toBe('all_failed');
  });
});

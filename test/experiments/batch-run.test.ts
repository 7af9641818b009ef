// A Judge-LS study through the providers' Batch APIs (mock endpoints), through the core:
// the same metrics as a live run of the same study, at batch prices, with expired and
// failed entries re-submitted or sent live, and no live call where batch mode is on.
import { afterEach, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import { costOf } from '../../src/main/providers/pricing';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';
import { requestOf } from '../mock-provider/batches';
import type { MockProvider } from '../mock-provider/server';

let env: LlmbarMock | undefined;
const extra: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await env?.close();
  env = undefined;
  for (const f of extra.splice(0)) await f();
});

function config(
  mock: MockProvider,
  datasetId: number,
  mode: 'live' | 'batch',
  fallback?: 'resubmit' | 'live',
) {
  const batch =
    mode === 'batch'
      ? { mode, batchPollSeconds: 0.02, ...(fallback ? { batchFallback: fallback } : {}) }
      : {};
  return {
    name: `batch-${mode}-${fallback ?? 'default'}`,
    protocol: 'judge-ls',
    dataset: datasetId,
    limit: 6,
    providers: {
      o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', ...batch },
      a: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_API_KEY', ...batch },
    },
    transform: { provider: 'o', model: 'gpt-4.1-mini' },
    judges: [
      { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' },
      { label: 'Claude', provider: 'a', model: 'claude-haiku-4-5' },
    ],
    tieProbes: true,
  };
}

const liveCalls = (mock: MockProvider) =>
  mock.log.filter((e) => e.path.endsWith('/chat/completions') || e.path.endsWith('/messages')).length;

/** Metrics without spend: batch and live runs must agree on everything else. */
function withoutUsage(metrics: unknown): unknown {
  const m = { ...(metrics as Record<string, unknown>) };
  delete m.usage;
  return m;
}

/** The same study run live in a second data folder (its own mock): the reference metrics. */
async function liveMetrics(): Promise<{ metrics: unknown; cost: number }> {
  const other = await startLlmbarMock('cli');
  extra.push(() => other.close());
  const { id } = await other.core.call('experiments.create', {
    config: config(other.mock, other.datasetId, 'live'),
  });
  const end = await other.core.experiments.runToEnd(id);
  expect(end.status).toBe('finished');
  const results = await other.core.call('experiments.results', { experimentId: id });
  return { metrics: results.metrics, cost: end.costUsd };
}

describe('batch mode through the core', () => {
  it('the estimate shows batch prices (half of list), the live price beside them and the 24 h window', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const live = await core.call('experiments.estimate', { config: config(mock, datasetId, 'live') });
    const batch = await core.call('experiments.estimate', { config: config(mock, datasetId, 'batch') });
    expect(live.batchWindowHours).toBeUndefined();
    expect(batch.batchWindowHours).toBe(24);
    expect(batch.calls).toBe(live.calls);
    expect(batch.inputTokens).toBe(live.inputTokens);
    expect(batch.costUsd).toBeCloseTo(live.costUsd / 2, 9);
    expect(batch.liveCostUsd).toBeCloseTo(live.costUsd, 9);
    expect(batch.rows.every((r) => r.batch)).toBe(true);
    // No lane is rate limited: the time is the provider's window, not minutes at the limits.
    expect(batch.minutesAtRateLimits).toBe(0);
    expect(live.minutesAtRateLimits).toBeGreaterThan(0);
  });

  it('a price table entry without batch prices is billed at half; with them, at those', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 200_000 };
    const table = { m: { input: 2, cachedInput: 0.5, output: 8 } };
    // 800k uncached × 1 + 200k cached × 0.25 + 1M × 4
    expect(costOf('m', usage, table, { batch: true }).usd).toBeCloseTo(0.8 + 0.05 + 4, 9);
    const own = { m: { input: 2, cachedInput: 0.5, output: 8, batchInput: 1.5, batchOutput: 3 } };
    expect(costOf('m', usage, own, { batch: true }).usd).toBeCloseTo(1.2 + 0.05 + 3, 9);
  });

  it('runs a whole Judge-LS study through both Batch APIs: the live metrics, half the price, no live call', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const { id } = await core.call('experiments.create', { config: config(mock, datasetId, 'batch') });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    expect(liveCalls(mock)).toBe(0);
    // Translations and EN verdicts go first; ZH/LS verdicts and tie probes follow once translated.
    const created = mock.batches.created();
    expect(created.filter((b) => b.api === 'openai').length).toBeGreaterThanOrEqual(2);
    expect(created.filter((b) => b.api === 'anthropic').length).toBeGreaterThanOrEqual(2);
    // 6 items: 12 translations; per judge 6 × 6 verdicts + 6 × 2 tie probes.
    expect(created.reduce((n, b) => n + b.customIds.length, 0)).toBe(12 + 2 * 48);
    for (const b of created) for (const c of b.customIds) expect(c).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
    const live = await liveMetrics();
    expect(withoutUsage(results.metrics)).toEqual(withoutUsage(live.metrics));
    // Same tokens, batch prices (half of list for these models).
    expect(end.costUsd).toBeGreaterThan(0);
    expect(end.costUsd).toBeCloseTo(live.cost / 2, 6);
    expect(end.message).toBeNull();
  });

  it('re-submits expired and failed entries in a new batch (default), then finishes', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const seen = new Set<string>();
    // First time an id is seen: every 4th expires and every 7th fails; the second time all succeed.
    let n = 0;
    mock.setBehavior({
      batchOutcome: (customId) => {
        const cid = requestOf(customId);
        if (seen.has(cid)) return 'ok';
        seen.add(cid);
        n++;
        return n % 4 === 0 ? 'expired' : n % 7 === 0 ? 'error' : 'ok';
      },
    });
    const { id } = await core.call('experiments.create', { config: config(mock, datasetId, 'batch') });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    expect(liveCalls(mock)).toBe(0);
    const created = mock.batches.created();
    const ids = created.flatMap((b) => b.requests);
    const twice = ids.filter((c, i) => ids.indexOf(c) !== i);
    expect(twice.length).toBeGreaterThan(0);
    expect(new Set(twice).size).toBe(twice.length); // each re-sent once
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
  });

  it('with "batchFallback": "live", expired and failed entries go out as live calls', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    let n = 0;
    let bad = 0;
    mock.setBehavior({
      batchOutcome: () => {
        const o = ++n % 5 === 0 ? 'expired' : n % 9 === 0 ? 'error' : 'ok';
        if (o !== 'ok') bad++;
        return o;
      },
    });
    const { id } = await core.call('experiments.create', {
      config: config(mock, datasetId, 'batch', 'live'),
    });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    const ids = mock.batches.created().flatMap((b) => b.requests);
    expect(new Set(ids).size).toBe(ids.length); // nothing re-batched
    expect(bad).toBeGreaterThan(0);
    expect(liveCalls(mock)).toBe(bad);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
  });
});

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('batches across quitting, and cancel', () => {
  it('a batch survives quitting: the reopened app polls it again and submits nothing twice', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId, dataDir } = env;
    mock.setBehavior({ batchTurnaroundMs: 1500 });
    const { id } = await core.call('experiments.create', { config: config(mock, datasetId, 'batch') });
    await core.call('experiments.start', { experimentId: id });
    // The first round: translations and EN verdicts for the OpenAI model, EN verdicts for Claude.
    await until(() => mock.batches.created().length >= 2);
    const first = mock.batches.created().map((b) => b.id);
    await core.shutdown();
    expect(mock.batches.log.filter((e) => e.op === 'cancel')).toEqual([]);

    const reopened = new Core({
      dataDir,
      door: 'web',
      keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test', MOCK_BASE_URL: mock.url }),
    });
    try {
      const shown = await reopened.call('experiments.progress', { experimentId: id });
      expect(shown.status).toBe('running');
      expect(shown.batches?.map((b) => b.remoteId).sort()).toEqual(expect.arrayContaining(first));
      await until(
        async () => (await reopened.call('experiments.progress', { experimentId: id })).status === 'finished',
      );
      const created = mock.batches.created();
      const ids = created.flatMap((b) => b.requests);
      expect(new Set(ids).size).toBe(ids.length); // no request submitted twice
      expect(ids).toHaveLength(12 + 2 * 48);
      // The reopened app polled the batches the first one had submitted.
      for (const b of first)
        expect(mock.batches.log.some((e) => e.id === b && (e.op === 'retrieve' || e.op === 'results'))).toBe(
          true,
        );
      const results = await reopened.call('experiments.results', { experimentId: id });
      expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
      expect(liveCalls(mock)).toBe(0);
    } finally {
      await reopened.shutdown();
    }
  });

  it('cancel cancels the provider batches, keeps what they answered and leaves the rest unsent', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    mock.setBehavior({ batchTurnaroundMs: 600 });
    const { id } = await core.call('experiments.create', { config: config(mock, datasetId, 'batch') });
    await core.call('experiments.start', { experimentId: id });
    await until(() => mock.batches.created().length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    const end = await core.call('experiments.cancel', { experimentId: id });
    expect(end.status).toBe('cancelled');
    const cancelled = new Set(mock.batches.log.filter((e) => e.op === 'cancel').map((e) => e.id));
    expect([...cancelled].sort()).toEqual(
      mock.batches
        .created()
        .map((b) => b.id)
        .sort(),
    );
    const progress = await core.call('experiments.progress', { experimentId: id });
    const counts = Object.values(progress.phases).reduce(
      (n, g) => ({
        done: n.done + g.done,
        inFlight: n.inFlight + g.inFlight,
        pending: n.pending + g.pending,
      }),
      { done: 0, inFlight: 0, pending: 0 },
    );
    expect(counts.inFlight).toBe(0);
    expect(counts.done).toBeGreaterThan(0);
    expect(counts.pending).toBeGreaterThan(0);
    expect(liveCalls(mock)).toBe(0);
  });
});

describe('a batch provider that cannot send', () => {
  it('without its key, the run pauses and says which variable is missing; nothing is submitted', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const cfg = config(mock, datasetId, 'batch');
    (cfg.providers.a as Record<string, unknown>).apiKeyEnv = 'MISSING_API_KEY';
    const { id } = await core.call('experiments.create', { config: cfg });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('paused');
    expect(end.message).toMatch(/MISSING_API_KEY/);
    expect(mock.batches.created().every((b) => b.api === 'openai')).toBe(true);
    expect(liveCalls(mock)).toBe(0);
  });
});

describe('results downloads that fail', () => {
  it('are read again at the next poll; the study finishes with every answer stored once', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    // More failures in a row than the SDK retries by itself (2): the executor's next poll reads again.
    mock.setBehavior({ batchResultFailures: 4 });
    const cfg = { ...config(mock, datasetId, 'batch'), limit: 3 };
    const { id } = await core.call('experiments.create', { config: cfg });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    const ids = mock.batches.created().flatMap((b) => b.requests);
    expect(new Set(ids).size).toBe(ids.length);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
  });
});

describe('a batch create whose reply is lost', () => {
  it('found only after the run was cancelled (the provider listed it late): it is cancelled too', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const cfg = { ...config(mock, datasetId, 'batch'), limit: 2 };
    const other = cfg.providers.a as Record<string, unknown>;
    delete other.mode;
    delete other.batchPollSeconds;
    mock.setBehavior({ batchCreateReplyLost: 1, batchListLagMs: 800, batchTurnaroundMs: 600_000 });
    const { id } = await core.call('experiments.create', { config: cfg });
    await core.call('experiments.start', { experimentId: id });
    await until(() => mock.batches.created().length >= 1);
    const lost = mock.batches.created()[0].id;
    const end = await core.call('experiments.cancel', { experimentId: id });
    expect(end.status).toBe('cancelled');
    // Looked for, found once listed, and cancelled at the provider; nothing submitted again.
    expect(mock.batches.log.some((e) => e.op === 'cancel' && e.id === lost)).toBe(true);
    expect(mock.batches.created()).toHaveLength(1);
  });

  it('an input upload that fails sent no create: the rows go out again at once, nothing is looked up', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const cfg = { ...config(mock, datasetId, 'batch'), limit: 2 };
    const other = cfg.providers.a as Record<string, unknown>;
    delete other.mode;
    delete other.batchPollSeconds;
    // More failures in a row than the SDK retries by itself (2).
    mock.setBehavior({ batchUploadFailures: 3 });
    const { id } = await core.call('experiments.create', { config: cfg });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    // Not treated as a lost reply: no lookup (`list`), so no grace (60 s) to wait out either.
    expect(mock.batches.log.some((e) => e.op === 'list')).toBe(false);
    const requests = mock.batches.created().flatMap((b) => b.requests);
    expect(new Set(requests).size).toBe(requests.length);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
  });

  it.each(['openai', 'anthropic'] as const)(
    '%s: the provider accepted it, the reply never came: the run finds it, submits nothing twice, stores every answer',
    async (api) => {
      env = await startLlmbarMock('cli');
      const { core, mock, datasetId } = env;
      const cfg = { ...config(mock, datasetId, 'batch'), limit: 3 };
      // Only this API in batch mode: its first create is the one whose reply is lost.
      const other = cfg.providers[api === 'openai' ? 'a' : 'o'] as Record<string, unknown>;
      delete other.mode;
      delete other.batchPollSeconds;
      mock.setBehavior({ batchCreateReplyLost: 1 });
      const { id } = await core.call('experiments.create', { config: cfg });
      const end = await core.experiments.runToEnd(id);
      expect(end.status).toBe('finished');
      const created = mock.batches.created();
      const requests = created.flatMap((b) => b.requests);
      expect(new Set(requests).size).toBe(requests.length); // no request submitted twice
      // The batch whose reply was lost was looked up in the provider's list, then polled and read.
      const first = created.find((b) => b.api === api)!;
      expect(mock.batches.log.some((e) => e.api === api && e.op === 'list')).toBe(true);
      expect(mock.batches.log.some((e) => e.id === first.id && e.op === 'retrieve')).toBe(true);
      const results = await core.call('experiments.results', { experimentId: id });
      expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
    },
  );
});

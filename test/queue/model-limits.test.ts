import { afterEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { modelLimitKey, RequestEngine } from '../../src/main/queue/engine';
import { ensureRequests } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { LaneRegistry } from '../../src/main/queue/lane-registry';
import { fixedKeys, openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

let t: TempDb | undefined;
let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  t?.cleanup();
});

/**
 * The most requests the mock had open at once (arrival to answer written), each held 400 ms: long
 * enough that requests sent together overlap at the mock even on a busy machine. Twice the
 * concurrency: a lane sends its full concurrency once the model has answered (before that, no
 * more than the rejections that pause it, RetryPolicy.pauseAfterBadRequests = 5).
 */
async function peakConcurrency(modelLimits?: Record<string, { concurrency: number }>): Promise<number> {
  t = tempDb();
  mock = await startMockProvider({ latencyMs: [400, 400] });
  const cfg = openaiMock(mock.url, { concurrency: 6 });
  const engine = new RequestEngine({ db: t.db, providers: { mock: cfg }, keys: fixedKeys('k'), modelLimits });
  const ids = ensureRequests(
    t.db,
    Array.from({ length: 12 }, (_, i) => ({ endpointId: endpointId(cfg), spec: verdictSpec(i) })),
  );
  const summary = await engine.run(ids.map((requestId) => ({ requestId, group: 'g' })));
  expect(summary.outcome).toBe('finished');
  const exchanges = mock.log.map((e) => ({ at: e.at, endedAt: e.endedAt! }));
  expect(exchanges).toHaveLength(12);
  const peak = Math.max(
    ...exchanges.map((e) => exchanges.filter((o) => o.at <= e.at && e.at < o.endedAt).length),
  );
  await mock.close();
  mock = undefined;
  t.cleanup();
  t = undefined;
  return peak;
}

describe('per-model limits from a judge entry', () => {
  it('override the provider concurrency for that model only', async () => {
    expect(await peakConcurrency()).toBe(6);
    expect(await peakConcurrency({ [modelLimitKey('mock', 'mock-model')]: { concurrency: 1 } })).toBe(1);
    expect(await peakConcurrency({ [modelLimitKey('mock', 'other-model')]: { concurrency: 1 } })).toBe(6);
  });
});

describe('the provider a lane takes its settings from', () => {
  it('is the first live provider on the endpoint, not a batch-mode twin listed before it (its flex tier kept)', () => {
    const providers = {
      'openai-batch': { kind: 'openai' as const, mode: 'batch' as const, concurrency: 2 },
      openai: { kind: 'openai' as const, serviceTier: 'flex' as const, concurrency: 7 },
    };
    const lanes = new LaneRegistry({
      providers,
      keys: fixedKeys('k'),
      modelLimits: {},
      makeAdapter: () => {
        throw new Error('not sending');
      },
      now: () => 0,
      logger: { info: () => undefined, warn: () => undefined },
      onPaused: () => undefined,
    });
    const lane = lanes.laneFor({
      id: 1,
      endpoint: endpointId(providers.openai),
      model: 'gpt-4.1-mini',
      status: 'pending',
      failureReason: null,
      lease: { lease_owner: null, lease_pid: null, lease_host: null, lease_expires_at: null },
    });
    expect(lanes.configOf(lane)?.serviceTier).toBe('flex');
    expect(lane.limits.concurrency).toBe(7);
  });
});

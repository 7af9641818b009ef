// Time left is set by the slowest lane: a 60-RPM judge with a queue is not "under a minute"
// because another model answered fast.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { modelLimitKey, RequestEngine } from '../../src/main/queue/engine';
import { laneEtaSeconds, secondsAtLimits } from '../../src/main/queue/eta';
import type { RunProgress } from '../../src/main/queue/progress';
import { ensureRequests } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { FAST_RETRY, fixedKeys, openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

const KEY = 'sk-test-eta';
let mock: MockProvider;
let t: TempDb;
beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() => {
  t = tempDb();
  mock.setBehavior({
    latencyMs: [0, 0],
    rpm: undefined,
    respond: () => ({ winner: 'A', confidence: 1, reason: 'r' }),
  });
});
afterEach(() => t.cleanup());

describe('lane ETA', () => {
  it('uses the limits before a lane has a rate, and never a rate above its RPM', () => {
    expect(secondsAtLimits(428, 0, { rpm: 50, concurrency: 16 })).toBeCloseTo(513.6);
    expect(laneEtaSeconds(428, 0, { rpm: 50, concurrency: 16 })).toBeCloseTo(513.6);
    // A burst at the start looked like 10 calls/s; the limit allows 50/min.
    expect(laneEtaSeconds(428, 10, { rpm: 50, concurrency: 16 })).toBeCloseTo(513.6);
    expect(laneEtaSeconds(100, 0.5, { rpm: 50, concurrency: 16 })).toBe(200);
    // No RPM: each slot is assumed to take 5 s per call until there is a rate.
    expect(laneEtaSeconds(32, 0, { concurrency: 16 })).toBe(10);
    expect(laneEtaSeconds(0, 0, { concurrency: 16 })).toBe(0);
  });

  it('lets the slowest lane decide while a fast lane has finished', async () => {
    const providers = { mock: openaiMock(mock.url, { concurrency: 16 }) };
    const engine = new RequestEngine({
      db: t.db,
      providers,
      keys: fixedKeys(KEY),
      retry: FAST_RETRY,
      progressIntervalMs: 50,
      // The slow judge: 60 calls a minute.
      modelLimits: { [modelLimitKey('mock', 'slow-model')]: { rpm: 60 } },
    });
    const ep = endpointId(providers.mock);
    const ids = (items: number[], model: string) =>
      ensureRequests(
        t.db,
        items.map((i) => ({ endpointId: ep, spec: verdictSpec(i, 'mock', model) })),
      );
    const fast = ids(
      Array.from({ length: 40 }, (_, i) => i),
      'fast-model',
    );
    const slow = ids(
      Array.from({ length: 30 }, (_, i) => 100 + i),
      'slow-model',
    );
    const seen: RunProgress[] = [];
    engine.on('progress', (p) => seen.push(p));
    const run = engine.run([...fast, ...slow].map((id) => ({ requestId: id, group: 'g' })));
    // Wait until the fast lane is done and the slow one has sent its burst.
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const last = seen.at(-1);
      if (last && last.overall.done >= 40 + 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await engine.cancel();
    await run;
    const mid = seen.filter((p) => p.state === 'running' && p.overall.done >= 42).at(0)!;
    expect(mid).toBeDefined();
    // About 27 slow calls left at one a second: not the few seconds the pooled rate suggests.
    const left = mid.overall.pending + mid.overall.inFlight;
    expect(left).toBeGreaterThanOrEqual(20);
    expect(mid.etaSeconds).toBeGreaterThanOrEqual(left - 2);
  });
});

// Time left is set by the slowest lane: a 60-RPM judge with a queue is not "under a minute"
// because another model answered fast.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { modelLimitKey, RequestEngine } from '../../src/main/queue/engine';
import {
  FAST_LATENCY,
  laneEtaSeconds,
  pipelineSeconds,
  secondsAtLimits,
  SLOW_LATENCY,
  type LaneLoad,
} from '../../src/main/queue/eta';
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
    // No RPM: each slot takes a typical answer's time (0.5 s + 150 tokens at 80 a second) until there is a rate.
    expect(laneEtaSeconds(32, 0, { concurrency: 16 })).toBeCloseTo(2 * (0.5 + 150 / 80));
    expect(laneEtaSeconds(0, 0, { concurrency: 16 })).toBe(0);
  });

  it('without an RPM limit, times calls by concurrency and the length of their answers, within a range (issue 38)', () => {
    // A flat 5 s a call made 208 calls, 16 at a time, 65 s; issue 38's walk saw a run estimated
    // at ~65 s take 18 s. Short verdicts (~60 answer tokens) take about 1.3 s on a typical server.
    const lane: LaneLoad = {
      limits: { concurrency: 16 },
      stages: new Map([['judge', { calls: 208, tokens: 208 * 700, outputTokens: 208 * 60 }]]),
    };
    const typical = pipelineSeconds([lane], ['judge']);
    expect(typical).toBeCloseTo((208 * 0.5 + (208 * 60) / 80) / 16);
    expect(typical).toBeLessThan(30);
    const fast = pipelineSeconds([lane], ['judge'], FAST_LATENCY);
    const slow = pipelineSeconds([lane], ['judge'], SLOW_LATENCY);
    expect(fast).toBeLessThan(18);
    expect(slow).toBeGreaterThan(typical);
    // Longer answers take longer: a translation of 600 tokens is not a verdict.
    const long: LaneLoad = {
      ...lane,
      stages: new Map([['t', { calls: 208, tokens: 0, outputTokens: 208 * 600 }]]),
    };
    expect(pipelineSeconds([long], ['t'])).toBeGreaterThan(5 * typical);
    // An RPM limit binds instead: the range collapses to the rate.
    const limited: LaneLoad = { ...lane, limits: { rpm: 60, concurrency: 16 } };
    expect(pipelineSeconds([limited], ['judge'], FAST_LATENCY)).toBe(208);
    expect(pipelineSeconds([limited], ['judge'], SLOW_LATENCY)).toBe(208);
  });

  it('models pipelined stages: the busiest lane, or the chain of a stage and its dependents', () => {
    const lane = (rpm: number, stages: Record<string, number>): LaneLoad => ({
      limits: { rpm, concurrency: 8 },
      stages: new Map(Object.entries(stages).map(([s, calls]) => [s, { calls, tokens: 0 }])),
    });
    const order = ['transform', 'judge'];
    // The judge's lane is busiest: 800 calls at 1,200 RPM = 40 s; the 200 translations take 10 s
    // and do not add to it (stages one after another said 50 s).
    expect(pipelineSeconds([lane(1200, { transform: 200 }), lane(1200, { judge: 800 })], order)).toBe(40);
    // The translator is the bottleneck: 200 at 120 RPM = 100 s, then the last input's
    // ceil(800 / 200) = 4 verdicts at 20 a second = 0.2 s.
    expect(pipelineSeconds([lane(120, { transform: 200 }), lane(1200, { judge: 800 })], order)).toBeCloseTo(
      100.2,
    );
    // One model translating and judging: one lane, one budget for both stages.
    expect(pipelineSeconds([lane(1200, { transform: 200, judge: 800 })], order)).toBe(50);
    // A stage with nothing left to call (translations stored) chains nothing.
    expect(pipelineSeconds([lane(1200, { judge: 800 })], order)).toBe(40);
    // A three-stage chain on slow lanes: each stage waits for the last input before it.
    expect(
      pipelineSeconds([lane(60, { a: 10 }), lane(60, { b: 10 }), lane(60, { c: 10 })], ['a', 'b', 'c']),
    ).toBe(12);
    // TPM can be the binding limit of a lane.
    const byTokens: LaneLoad = {
      limits: { rpm: 6000, tpm: 60_000, concurrency: 8 },
      stages: new Map([['judge', { calls: 10, tokens: 30_000 }]]),
    };
    expect(pipelineSeconds([byTokens], order)).toBe(30);
    expect(pipelineSeconds([], order)).toBe(0);
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

import { afterEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { modelLimitKey, RequestEngine } from '../../src/main/queue/engine';
import { ensureRequests } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { fixedKeys, openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

let t: TempDb | undefined;
let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  t?.cleanup();
});

/** The most requests the mock had open at once, from arrival times and the fixed latency. */
async function peakConcurrency(modelLimits?: Record<string, { concurrency: number }>): Promise<number> {
  t = tempDb();
  mock = await startMockProvider({ latencyMs: [120, 120] });
  const cfg = openaiMock(mock.url, { concurrency: 6 });
  const engine = new RequestEngine({ db: t.db, providers: { mock: cfg }, keys: fixedKeys('k'), modelLimits });
  const ids = ensureRequests(
    t.db,
    Array.from({ length: 6 }, (_, i) => ({ endpointId: endpointId(cfg), spec: verdictSpec(i) })),
  );
  const started: number[] = [];
  const t0 = Date.now();
  const summary = await engine.run(ids.map((requestId) => ({ requestId, group: 'g' })));
  expect(summary.outcome).toBe('finished');
  for (const e of mock.log) started.push(e.at);
  const peak = Math.max(...started.map((s) => started.filter((o) => o >= s && o < s + 100).length));
  await mock.close();
  mock = undefined;
  t.cleanup();
  t = undefined;
  expect(Date.now() - t0).toBeGreaterThan(100);
  return peak;
}

describe('per-model limits from a judge entry', () => {
  it('override the provider concurrency for that model only', async () => {
    expect(await peakConcurrency()).toBe(6);
    expect(await peakConcurrency({ [modelLimitKey('mock', 'mock-model')]: { concurrency: 1 } })).toBe(1);
    expect(await peakConcurrency({ [modelLimitKey('mock', 'other-model')]: { concurrency: 1 } })).toBe(6);
  });
});

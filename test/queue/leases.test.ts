import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { RequestEngine } from '../../src/main/queue/engine';
import { openDatabase } from '../../src/main/store/db';
import {
  applyCompletions,
  claimPending,
  countByStatus,
  ensureRequests,
  getRequest,
  recoverInFlight,
} from '../../src/main/store/ledger';
import { endLease, takeLease, type Lease } from '../../src/main/store/leases';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { FAST_RETRY, fixedKeys, openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

let mock: MockProvider;
let t: TempDb;
const EP = 'openai:http://127.0.0.1:1/v1';
const ZERO = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

beforeAll(async () => {
  mock = await startMockProvider({ latencyMs: [10, 30] });
});
afterAll(() => mock.close());
beforeEach(() => {
  t = tempDb();
  mock.log.length = 0;
  mock.bodies.length = 0;
});
afterEach(() => t.cleanup());

/** The pid of a process that has exited: nobody can be sending under it. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function plan(items: number[], ep = EP) {
  return ensureRequests(
    t.db,
    items.map((i) => ({ endpointId: ep, spec: verdictSpec(i) })),
  );
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe('ledger leases', () => {
  it('recovery takes back rows of dead, expired or ownerless runs and leaves a live run its own', () => {
    const [live, dead, expired, pidReused, ownerless] = plan([1, 2, 3, 4, 5]);
    const mine = takeLease();
    claimPending(t.db, [live], mine);
    claimPending(t.db, [dead], { owner: 'gone', pid: deadPid(), host: hostname() });
    // A live process (this one), but its lease ran out: it stopped renewing.
    claimPending(
      t.db,
      [expired],
      { owner: 'stalled', pid: process.ppid, host: hostname() },
      Date.now() - 120_000,
    );
    // Our own pid under an owner this process never had: a predecessor that had the same pid.
    claimPending(t.db, [pidReused], { owner: 'predecessor', pid: process.pid, host: hostname() });
    claimPending(t.db, [ownerless]);

    expect(recoverInFlight(t.db).sort()).toEqual([dead, expired, pidReused, ownerless].sort());
    expect(getRequest(t.db, live)).toMatchObject({ status: 'in_flight', lease: { lease_owner: mine.owner } });
    expect(getRequest(t.db, dead)).toMatchObject({ status: 'pending', lease: { lease_owner: null } });

    // Once its run has ended, the row is up for recovery too.
    endLease(mine);
    expect(recoverInFlight(t.db)).toEqual([live]);
  });

  it('a completion for a row no longer in flight under the writer is skipped and reported, not thrown', () => {
    const [id] = plan([1]);
    const first: Lease = takeLease();
    const second: Lease = takeLease();
    try {
      claimPending(t.db, [id], first);
      const done = {
        id,
        status: 'done' as const,
        text: '{}',
        json: {},
        usage: ZERO,
        costUsd: 0,
        extraAttempts: 0,
      };
      expect(applyCompletions(t.db, [done], second.owner)).toEqual({
        applied: [],
        skipped: [{ completion: done, found: 'in_flight' }],
      });
      expect(applyCompletions(t.db, [done], first.owner).applied).toEqual([done]);
      expect(applyCompletions(t.db, [done], first.owner).skipped[0].found).toBe('done');
    } finally {
      endLease(first);
      endLease(second);
    }
  });

  it('two runs on overlapping plans in one store send each call once, and both finish', async () => {
    const providers = { mock: openaiMock(mock.url, { concurrency: 4 }) };
    const ep = endpointId(providers.mock);
    const a = plan(range(0, 40), ep);
    const b = plan(range(20, 60), ep);
    // Two connections, as two processes would have.
    const other = openDatabase(t.file);
    try {
      const engine = (db: typeof t.db) =>
        new RequestEngine({
          db,
          providers,
          keys: fixedKeys('sk-test'),
          retry: FAST_RETRY,
          progressIntervalMs: 20,
        });
      const eA = engine(t.db);
      const eB = engine(other);
      const runA = eA.run(a.map((id) => ({ requestId: id, group: 'a' })));
      await expect.poll(() => mock.log.length, { interval: 2 }).toBeGreaterThanOrEqual(6);
      const runB = eB.run(b.map((id) => ({ requestId: id, group: 'b' })));
      const [sa, sb] = await Promise.all([runA, runB]);
      expect(sa).toMatchObject({ outcome: 'finished', overall: { total: 40, done: 40, failed: 0 } });
      expect(sb).toMatchObject({ outcome: 'finished', overall: { total: 40, done: 40, failed: 0 } });
      expect(countByStatus(t.db)).toEqual({ pending: 0, in_flight: 0, done: 60, failed: 0 });
      const sends = mock.countBy((e) => e.lastUser ?? '');
      expect(Object.keys(sends)).toHaveLength(60);
      expect(Math.max(...Object.values(sends))).toBe(1);
      // What B did not send itself, it counted as stored answers.
      expect(sb.overall.cacheHits).toBe(40 - (mock.log.length - sa.calls));
    } finally {
      other.close();
    }
  });

  it("a run resends rows a dead process left in flight, and waits for a live run's rows", async () => {
    const providers = { mock: openaiMock(mock.url, { concurrency: 4 }) };
    const ids = plan(range(0, 6), endpointId(providers.mock));
    claimPending(t.db, ids.slice(0, 3), { owner: 'crashed', pid: deadPid(), host: hostname() });
    const live = takeLease();
    claimPending(t.db, ids.slice(3), live);
    const engine = new RequestEngine({
      db: t.db,
      providers,
      keys: fixedKeys('sk-test'),
      retry: FAST_RETRY,
      progressIntervalMs: 20,
    });
    const run = engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    await expect.poll(() => mock.log.length).toBe(3);
    await new Promise((r) => setTimeout(r, 100));
    expect(mock.log.length).toBe(3);
    // The live run answers two of its rows and gives up (ends) without the third.
    for (const id of ids.slice(3, 5))
      applyCompletions(
        t.db,
        [{ id, status: 'done', text: '{}', json: {}, usage: ZERO, costUsd: 0, extraAttempts: 0 }],
        live.owner,
      );
    endLease(live);
    const s = await run;
    expect(s).toMatchObject({ outcome: 'finished', overall: { done: 6, cacheHits: 2 } });
    expect(mock.log.length).toBe(4);
    expect(countByStatus(t.db)).toMatchObject({ in_flight: 0, done: 6 });
  });
});

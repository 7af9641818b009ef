import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { RequestEngine, type Job } from '../../src/main/queue/engine';
import { countByStatus, ensureRequests } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { FAST_RETRY, fixedKeys, openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

let mock: MockProvider;
let t: TempDb;

beforeAll(async () => {
  mock = await startMockProvider({ respond: () => ({ winner: 'A', confidence: 0.8, reason: 'better' }) });
});
afterAll(() => mock.close());
beforeEach(() => {
  t = tempDb();
  mock.log.length = 0;
  mock.bodies.length = 0;
  mock.setBehavior({ latencyMs: [30, 30] });
});
afterEach(() => t.cleanup());

function setup() {
  const providers = { mock: openaiMock(mock.url, { concurrency: 4 }) };
  const engine = new RequestEngine({
    db: t.db,
    providers,
    keys: fixedKeys('sk-test'),
    retry: FAST_RETRY,
    progressIntervalMs: 50,
  });
  const ep = endpointId(providers.mock);
  const jobs = (items: number[], group: string): Job[] =>
    ensureRequests(
      t.db,
      items.map((i) => ({ endpointId: ep, spec: verdictSpec(i) })),
    ).map((requestId) => ({ requestId, group }));
  return { engine, jobs };
}

const sentFor = (item: number) =>
  mock.log.filter((e) => e.lastUser === `Compare the outputs of item ${item}.`).length;
const nextCommit = (engine: RequestEngine) =>
  new Promise<void>((resolve) => {
    const off = engine.on('committed', () => {
      off();
      resolve();
    });
  });

describe('RequestEngine.add: jobs joining a run that goes', () => {
  it('counts and sends them in the same run; a request the run already has is not added again', async () => {
    const { engine, jobs } = setup();
    const first = jobs([0, 1, 2, 3, 4, 5], 'first');
    const later = jobs([6, 7, 8], 'later');
    const running = engine.run(first);
    await nextCommit(engine);
    // One request of the first jobs again (another group), one twice in the list: neither joins twice.
    expect(engine.add([...later, first[0], { ...later[0], group: 'again' }])).toBe(3);
    const summary = await running;
    expect(summary).toMatchObject({ outcome: 'finished', overall: { total: 9, done: 9, failed: 0 } });
    expect(summary.groups.later).toMatchObject({ total: 3, done: 3 });
    expect(summary.groups.again).toBeUndefined();
    for (let i = 0; i < 9; i++) expect(sentFor(i)).toBe(1);
    expect(countByStatus(t.db)).toMatchObject({ done: 9, pending: 0, in_flight: 0 });
  });

  it('hold() keeps the run open after its last answer until released; jobs added meanwhile go out', async () => {
    const { engine, jobs } = setup();
    let ended = false;
    const running = engine.run(jobs([0, 1], 'first')).then((s) => {
      ended = true;
      return s;
    });
    const release = engine.hold();
    await expect.poll(() => countByStatus(t.db).done ?? 0).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(ended).toBe(false);
    expect(engine.add(jobs([2], 'second'))).toBe(1);
    release();
    const summary = await running;
    expect(summary).toMatchObject({ outcome: 'finished', overall: { total: 3, done: 3 } });
    expect(sentFor(2)).toBe(1);
  });

  it('jobs added while paused wait for resume', async () => {
    const { engine, jobs } = setup();
    const running = engine.run(jobs([0], 'first'));
    const release = engine.hold();
    engine.pause();
    await new Promise((r) => setTimeout(r, 100));
    expect(engine.add(jobs([1, 2], 'second'))).toBe(2);
    await new Promise((r) => setTimeout(r, 150));
    expect(sentFor(1) + sentFor(2)).toBe(0);
    release();
    engine.resume();
    expect(await running).toMatchObject({ outcome: 'finished', overall: { total: 3, done: 3 } });
    expect(sentFor(1) + sentFor(2)).toBe(2);
  });

  it('starts nothing while the run is being cancelled, and is an error once the run has ended', async () => {
    const { engine, jobs } = setup();
    const running = engine.run(jobs([0, 1, 2, 3, 4, 5, 6, 7], 'first'));
    const cancelled = engine.cancel();
    expect(engine.add(jobs([20, 21], 'late'))).toBe(0);
    await cancelled;
    expect((await running).outcome).toBe('cancelled');
    expect(sentFor(20) + sentFor(21)).toBe(0);
    expect(() => engine.add(jobs([22], 'after'))).toThrow(/no run is going/);
    expect(countByStatus(t.db).in_flight ?? 0).toBe(0);
  });
});

describe("'committed' for answers another run stored", () => {
  it('announces a request this run waited for once the other run has stored it', async () => {
    const { engine: a, jobs } = setup();
    const b = new RequestEngine({
      db: t.db,
      providers: { mock: openaiMock(mock.url, { concurrency: 4 }) },
      keys: fixedKeys('sk-test'),
      retry: FAST_RETRY,
      progressIntervalMs: 50,
    });
    const [shared] = jobs([0], 'a');
    mock.hold();
    const runA = a.run([shared]);
    await expect.poll(() => mock.heldCount()).toBe(1);
    const announced: number[] = [];
    b.on('committed', (e) => announced.push(...e.ids));
    // B meets the row A has in flight: it waits for A's answer instead of sending it again.
    const runB = b.run([{ ...shared, group: 'b' }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(announced).toEqual([]);
    mock.stopHolding();
    await runA;
    expect(await runB).toMatchObject({ outcome: 'finished', overall: { done: 1, cacheHits: 1 } });
    expect(announced).toEqual([shared.requestId]);
    expect(sentFor(0)).toBe(1);
  });
});

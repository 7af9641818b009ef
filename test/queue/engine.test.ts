import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointId, providerConfigSchema, type ProviderConfig } from '../../src/main/providers/config';
import { RequestEngine, type PausedEvent } from '../../src/main/queue/engine';
import type { RunProgress } from '../../src/main/queue/progress';
import { countByStatus, ensureRequests, getRequest } from '../../src/main/store/ledger';
import { costOf } from '../../src/main/providers/pricing';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import {
  anthropicMock,
  FAST_RETRY,
  fixedKeys,
  openaiMock,
  tempDb,
  verdictSpec,
  type TempDb,
} from './helpers';

const KEY = 'sk-test-SECRET123';
let mock: MockProvider;
let t: TempDb;

beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() => {
  t = tempDb();
  mock.log.length = 0;
  mock.bodies.length = 0;
  mock.setBehavior({
    faultQueue: [],
    faultFor: undefined,
    latencyMs: [0, 0],
    rpm: undefined,
    tpm: undefined,
    burstSeconds: 60,
    respond: () => ({ winner: 'A', confidence: 0.8, reason: 'better' }),
    flexUnavailable: undefined,
  });
});
afterEach(() => t.cleanup());

function setup(cfg: Partial<ProviderConfig> = {}, key = KEY, retry = {}) {
  const providers = { mock: openaiMock(mock.url, cfg) };
  const engine = new RequestEngine({
    db: t.db,
    providers,
    keys: fixedKeys(key),
    retry: { ...FAST_RETRY, ...retry },
    progressIntervalMs: 50,
  });
  const ep = endpointId(providers.mock);
  const plan = (items: number[], model = 'mock-model') =>
    ensureRequests(
      t.db,
      items.map((i) => ({ endpointId: ep, spec: verdictSpec(i, 'mock', model) })),
    );
  return { engine, plan, ep };
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
const sentFor = (item: number) =>
  mock.log.filter((e) => e.lastUser === `Compare the outputs of item ${item}.`).length;

describe('RequestEngine', () => {
  it('never pays twice: the same request in a second experiment is a cache hit', async () => {
    const { engine, plan } = setup();
    const first = await engine.run(plan(range(0, 5)).map((id) => ({ requestId: id, group: 'exp1' })));
    expect(first).toMatchObject({ outcome: 'finished', overall: { total: 5, done: 5, cacheHits: 0 } });
    expect(first.costUsd).toBe(0);
    expect(first.unpricedModels).toEqual(['mock-model']);
    const ids = plan(range(3, 8));
    const second = await engine.run([
      ...ids.map((id) => ({ requestId: id, group: 'exp2' })),
      { requestId: ids[4], group: 'exp2-again' },
    ]);
    expect(second.overall).toMatchObject({ total: 6, done: 6, cacheHits: 2, failed: 0 });
    expect(second.groups['exp2-again']).toMatchObject({ total: 1, done: 1 });
    expect(mock.log.length).toBe(8);
    for (const i of range(0, 8)) expect(sentFor(i)).toBe(1);
    const row = getRequest(t.db, ids[0])!;
    expect(row).toMatchObject({
      status: 'done',
      attempts: 1,
      responseJson: { winner: 'A', confidence: 0.8, reason: 'better' },
    });
    expect(row.inputTokens).toBeGreaterThan(0);
  });

  it("emits 'committed' with each answer's ledger id exactly once, after the row is stored", async () => {
    const { engine, plan } = setup({ concurrency: 3 });
    mock.setBehavior({
      latencyMs: [2, 10],
      faultFor: (req) => (req.lastUser.includes('item 4.') ? 'bad_request' : undefined),
    });
    const ids = plan(range(0, 10));
    const events: { ids: number[]; statuses: string[] }[] = [];
    engine.on('committed', (e) =>
      events.push({ ids: e.ids, statuses: e.ids.map((id) => getRequest(t.db, id)!.status) }),
    );
    // A cache hit is not written again, so it is not announced.
    const [stored] = plan([99]);
    await engine.run([{ requestId: stored, group: 'g' }]);
    events.length = 0;
    const s = await engine.run([...ids, stored].map((id) => ({ requestId: id, group: 'g' })));
    expect(s.overall).toMatchObject({ done: 10, failed: 1, cacheHits: 1 });
    // Answers that arrive together are stored in one transaction and announced together.
    const announced = events.flatMap((e) => e.ids);
    expect(announced.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    const statuses = new Map(events.flatMap((e) => e.ids.map((id, i) => [id, e.statuses[i]])));
    expect(statuses.get(ids[4])).toBe('failed');
    expect([...statuses.values()].filter((v) => v === 'done')).toHaveLength(9);
  });

  it('prices calls to a known model and reports spend', async () => {
    const { engine, plan } = setup();
    const s = await engine.run(plan([1, 2], 'gpt-4.1-mini').map((id) => ({ requestId: id, group: 'g' })));
    expect(s.costUsd).toBeGreaterThan(0);
    expect(s.unpricedModels).toEqual([]);
    expect(s.tokens.input).toBeGreaterThan(0);
  });

  it('retries 5xx, 529, dropped connections and timeouts with backoff, then succeeds', async () => {
    const { engine, plan } = setup({ timeoutMs: 150 });
    mock.setBehavior({ faultQueue: ['server_error', 'overloaded', 'drop', 'hang'] });
    const [id] = plan([1]);
    const s = await engine.run([{ requestId: id, group: 'g' }]);
    expect(s.overall.done).toBe(1);
    expect(s.retries).toBe(4);
    expect(getRequest(t.db, id)).toMatchObject({ status: 'done', attempts: 5 });
    expect(sentFor(1)).toBe(5);
  });

  it('gives up after maxAttempts transient failures and records why', async () => {
    const { engine, plan } = setup({}, KEY, { maxAttempts: 3 });
    mock.setBehavior({ faultFor: () => 'server_error' });
    const [id] = plan([1]);
    const s = await engine.run([{ requestId: id, group: 'g' }]);
    expect(s.failuresByReason).toEqual({ server: 1 });
    expect(getRequest(t.db, id)).toMatchObject({ status: 'failed', attempts: 3 });
    expect(getRequest(t.db, id)!.failureReason).toMatch(/^server: .*HTTP 500.*gave up after 3 attempts/);
  });

  it('re-asks an unparseable answer maxParseRetries times, then fails it with the raw text', async () => {
    const { engine, plan } = setup();
    mock.setBehavior({ faultFor: (req) => (req.lastUser.includes('item 2.') ? 'malformed' : undefined) });
    const ids = plan([1, 2, 3]);
    const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    expect(s.overall).toMatchObject({ done: 2, failed: 1 });
    expect(s.failuresByReason).toEqual({ unparseable: 1 });
    expect(sentFor(2)).toBe(3);
    const row = getRequest(t.db, ids[1])!;
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 3,
      responseText: 'I think the first answer is better, but I cannot say for sure.',
    });
    expect(row.failureReason).toMatch(/^unparseable: /);
    expect(row.inputTokens).toBeGreaterThan(0); // the unusable answers were paid for
  });

  it('re-asks when the protocol validator rejects an answer, and accepts a later good one', async () => {
    const { engine, plan } = setup();
    let n = 0;
    mock.setBehavior({ respond: () => ({ winner: n++ === 0 ? 'tie' : 'B', confidence: 0.5, reason: 'r' }) });
    const [id] = plan([1]);
    const s = await engine.run([{ requestId: id, group: 'g' }], {
      validate: (_spec, result) =>
        (result.json as { winner: string }).winner === 'tie' ? 'ties not allowed here' : null,
    });
    expect(s.overall.done).toBe(1);
    expect(getRequest(t.db, id)).toMatchObject({ attempts: 2, responseJson: { winner: 'B' } });
  });

  it('does not retry a 400: the request fails at once', async () => {
    const { engine, plan } = setup();
    mock.setBehavior({ faultQueue: ['bad_request'] });
    const [id] = plan([1]);
    const s = await engine.run([{ requestId: id, group: 'g' }]);
    expect(s.failuresByReason).toEqual({ bad_request: 1 });
    expect(sentFor(1)).toBe(1);
  });

  it('pauses an endpoint+model on a quota 429 and leaves its requests pending', async () => {
    const { engine, plan } = setup({ concurrency: 1 });
    mock.setBehavior({ faultQueue: ['quota'] });
    const paused: PausedEvent[] = [];
    engine.on('paused', (p) => paused.push(p));
    const ids = plan(range(0, 4));
    const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    expect(s.outcome).toBe('blocked');
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ model: 'mock-model', kind: 'quota_exhausted' });
    expect(paused[0].reason).toMatch(/quota or credit/);
    expect(mock.log.length).toBe(1);
    expect(countByStatus(t.db)).toMatchObject({ pending: 4, in_flight: 0 });
    // Credit added: the next run sends them.
    const again = await engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    expect(again).toMatchObject({ outcome: 'finished', overall: { done: 4 } });
  });

  it('flex: asks OpenAI for the flex tier, waits out its 429 "resource unavailable" without giving up, and bills half', async () => {
    // One rate-limit retry allowed: capacity 429s beyond it must not fail the call.
    const { engine, plan } = setup({ serviceTier: 'flex' }, KEY, { maxRateLimitRetries: 1 });
    let refusals = 0;
    mock.setBehavior({
      flexUnavailable: (req) => req.lastUser.endsWith('item 0.') && refusals++ < 3,
    });
    const ids = plan([0, 1], 'gpt-4.1-mini');
    const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    expect(s.overall).toMatchObject({ done: 2, failed: 0 });
    expect(mock.log.filter((e) => e.status === 429)).toHaveLength(3);
    expect(sentFor(0)).toBe(4);
    for (const b of mock.bodies) expect(b.body.service_tier).toBe('flex');
    // Billed at the flex price (OpenAI's Batch prices: half of the standard tier).
    for (const id of ids) {
      const row = getRequest(t.db, id)!;
      const usage = {
        inputTokens: row.inputTokens!,
        outputTokens: row.outputTokens!,
        cachedInputTokens: row.cachedTokens!,
      };
      expect(row.costUsd).toBeCloseTo(costOf('gpt-4.1-mini', usage).usd / 2, 12);
      expect(row.costUsd).toBeGreaterThan(0);
    }
  });

  it('takes flex only on an openai-kind provider sending live', () => {
    const issue = (cfg: unknown) => providerConfigSchema.safeParse(cfg).error?.issues[0];
    expect(issue({ kind: 'anthropic', serviceTier: 'flex' })).toMatchObject({ path: ['serviceTier'] });
    expect(issue({ kind: 'openai', serviceTier: 'flex', mode: 'batch' })).toMatchObject({
      path: ['serviceTier'],
    });
    expect(issue({ kind: 'openai', serviceTier: 'flex' })).toBeUndefined();
  });

  it('honours 429 retry-after and finishes everything without losing a call', async () => {
    const { engine, plan } = setup({ concurrency: 8 });
    // 10 at once, then one per 100 ms; and item 0's first call is answered 429 with retry-after
    // 1 s whatever the pace (on a loaded machine the calls may arrive too slowly to hit the limit).
    let item0Calls = 0;
    mock.setBehavior({
      rpm: 600,
      burstSeconds: 1,
      faultFor: (req) => (req.lastUser.endsWith('item 0.') && item0Calls++ === 0 ? 'rate_limit' : undefined),
    });
    const ids = plan(range(0, 14));
    const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    expect(s.overall.done).toBe(14);
    expect(s.rateLimited).toBeGreaterThan(0);
    const limited = mock.log.filter((e) => e.status === 429);
    expect(limited.length).toBe(s.rateLimited);
    // After that 429 the lane waited out retry-after (1 s) before sending the call again.
    const first = limited.find((e) => e.fault === 'rate_limit')!;
    const retried = mock.log.find((e) => e.seq > first.seq && e.lastUser === first.lastUser);
    expect(retried!.at - first.at).toBeGreaterThanOrEqual(900);
  });

  it('keeps to a configured RPM: no 429s from a server enforcing the same limit', async () => {
    const { engine, plan } = setup({ rpm: 1200, concurrency: 16 });
    mock.setBehavior({ rpm: 1200, burstSeconds: 2, latencyMs: [5, 15] });
    const ids = plan(range(0, 70));
    const started = Date.now();
    const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    const elapsed = Date.now() - started;
    expect(s.overall.done).toBe(70);
    expect(s.rateLimited).toBe(0);
    // 20 go at once (the engine's 1 s burst; the server would take 40), the other 50 at 20/s:
    // a wait the limit owes, which load cannot shorten. How close to the limit it goes is a
    // figure, not a test (a loaded machine slows it): printed here, measured by bench:queue; the
    // bucket's pace is checked on a fake clock in rate-limits.test.ts.
    expect(elapsed).toBeGreaterThanOrEqual(1300);
    console.log(`70 calls at 1,200 RPM: ${elapsed} ms (2.5 s at the limit)`);
  });

  it('pause stops sending, resume continues; progress is reported per group', async () => {
    const { engine, plan } = setup({ concurrency: 2 });
    mock.setBehavior({ latencyMs: [15, 25] });
    const ids = plan(range(0, 30));
    const progress: RunProgress[] = [];
    engine.on('progress', (p) => progress.push(p));
    const running = engine.run(ids.map((id, i) => ({ requestId: id, group: i % 2 ? 'odd' : 'even' })));
    await new Promise((r) => setTimeout(r, 80));
    engine.pause();
    await new Promise((r) => setTimeout(r, 60)); // in-flight calls settle
    const atPause = mock.log.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(mock.log.length).toBe(atPause);
    expect(progress.some((p) => p.state === 'paused')).toBe(true);
    engine.resume();
    const s = await running;
    expect(s).toMatchObject({ outcome: 'finished', overall: { done: 30, inFlight: 0, pending: 0 } });
    expect(s.groups).toMatchObject({ even: { total: 15, done: 15 }, odd: { total: 15, done: 15 } });
    expect(s.callsPerMinute).toBeGreaterThan(0);
    expect(mock.log.length).toBe(30);
    const mid = progress.find((p) => p.state === 'running' && p.overall.done > 0 && p.overall.done < 30);
    expect(mid).toBeDefined();
    expect(JSON.parse(JSON.stringify(mid))).toEqual(mid);
  });

  it('cancel lets calls on the wire settle and leaves the rest pending', async () => {
    const { engine, plan } = setup({ concurrency: 3 });
    mock.setBehavior({ latencyMs: [20, 30] });
    const ids = plan(range(0, 40));
    const running = engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    await new Promise((r) => setTimeout(r, 70));
    await engine.cancel();
    const s = await running;
    expect(s.outcome).toBe('cancelled');
    const counts = countByStatus(t.db);
    expect(counts.in_flight).toBe(0);
    expect(counts.done).toBe(mock.log.length); // every call sent was answered and stored
    expect(counts.done + counts.pending).toBe(40);
    expect(counts.pending).toBeGreaterThan(0);
    const sent = mock.log.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(mock.log.length).toBe(sent);
  });

  it('speaks to the anthropic kind with forced tool use', async () => {
    const providers = { claude: anthropicMock(mock.url) };
    const engine = new RequestEngine({ db: t.db, providers, keys: fixedKeys(KEY), retry: FAST_RETRY });
    const ids = ensureRequests(
      t.db,
      [1, 2].map((i) => ({
        endpointId: endpointId(providers.claude),
        spec: verdictSpec(i, 'claude', 'claude-haiku-4-5'),
      })),
    );
    const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'judge' })));
    expect(s.overall.done).toBe(2);
    expect(s.costUsd).toBeGreaterThan(0);
    expect(mock.bodies.every((b) => b.mode === 'tool')).toBe(true);
  });

  it('pauses with a plain reason when a key is missing, and never sends', async () => {
    const providers = { openai: { kind: 'openai' as const, apiKeyEnv: 'JUDGE_LAB_TEST_NO_SUCH_KEY' } };
    const engine = new RequestEngine({ db: t.db, providers, keys: { get: () => undefined } });
    const paused: PausedEvent[] = [];
    engine.on('paused', (p) => paused.push(p));
    const ids = ensureRequests(t.db, [
      { endpointId: endpointId(providers.openai), spec: verdictSpec(1, 'openai') },
    ]);
    const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'g' })));
    expect(s.outcome).toBe('blocked');
    expect(paused[0].reason).toMatch(/JUDGE_LAB_TEST_NO_SUCH_KEY is not set/);
    expect(countByStatus(t.db).pending).toBe(1);
  });

  it('never writes a key into the ledger, events or error messages', async () => {
    const seen: unknown[] = [];
    // A good key through faults of every kind, then a wrong key that the server echoes back.
    const good = setup({ timeoutMs: 150 }, KEY, { maxAttempts: 2 });
    good.engine.on('progress', (p) => seen.push(p));
    good.engine.on('paused', (p) => seen.push(p));
    mock.setBehavior({
      faultFor: (_r, n) =>
        (['server_error', 'bad_request', 'malformed', 'hang', 'drop', undefined] as const)[n % 6],
    });
    seen.push(await good.engine.run(good.plan(range(0, 12)).map((id) => ({ requestId: id, group: 'g' }))));
    mock.setBehavior({ faultFor: undefined });
    const wrong = 'sk-test-SECRET999';
    const bad = setup({}, wrong);
    bad.engine.on('paused', (p) => seen.push(p));
    bad.engine.on('progress', (p) => seen.push(p));
    seen.push(await bad.engine.run(bad.plan(range(20, 23)).map((id) => ({ requestId: id, group: 'g' }))));
    expect(seen.some((s) => JSON.stringify(s).includes('rejected the API key'))).toBe(true);
    const rows = t.db.prepare('SELECT * FROM requests').all();
    const dump = JSON.stringify({ rows, seen });
    expect(rows.length).toBe(15);
    for (const secret of [KEY, wrong, 'SECRET123', 'SECRET999']) expect(dump).not.toContain(secret);
  });
});

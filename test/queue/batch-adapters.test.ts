// The batch clients (official SDKs) against the mock's batch endpoints: upload, create,
// the status sequence, results by custom id (succeeded, errored, expired, cancelled), cancel.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePairwiseVerdict } from '../../src/main/judging/pairwise';
import { AnthropicBatchAdapter } from '../../src/main/providers/batch-anthropic';
import { OpenAIBatchAdapter } from '../../src/main/providers/batch-openai';
import type { BatchAdapter, BatchEntry, BatchEntryResult } from '../../src/main/providers/batch-types';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { anthropicMock, openaiMock, verdictSpec } from './helpers';

const KEY = 'sk-test-SECRET123';
let mock: MockProvider;

beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() =>
  mock.setBehavior({
    batchTurnaroundMs: 200,
    batchOutcome: undefined,
    respond: () => ({ winner: 'B', confidence: 0.9, reason: 'clearer' }),
  }),
);

const entries = (n: number): BatchEntry[] =>
  Array.from({ length: n }, (_, i) => ({ customId: `r${i + 1}`, spec: verdictSpec(i + 1) }));

async function runToEnd(adapter: BatchAdapter, list: BatchEntry[]) {
  const specs = new Map(list.map((e) => [e.customId, e.spec]));
  const id = await adapter.submit(list, { localId: 1, nonce: 'a1b2c3d4e5f6' });
  const statuses: string[] = [];
  for (;;) {
    const s = await adapter.poll(id);
    statuses.push(s.status);
    if (s.ended) break;
    await new Promise((r) => setTimeout(r, 15));
  }
  const results: BatchEntryResult[] = [];
  await adapter.results(
    id,
    (c) => specs.get(c),
    (r) => results.push(r),
  );
  return { id, statuses, results };
}

const byType = (results: BatchEntryResult[]) =>
  Object.fromEntries(
    ['succeeded', 'errored', 'expired', 'cancelled', 'unparseable'].map((t) => [
      t,
      results
        .filter((r) => r.type === t)
        .map((r) => r.customId)
        .sort(),
    ]),
  );

describe.each([
  ['openai', () => new OpenAIBatchAdapter(openaiMock(mock.url), KEY)],
  ['anthropic', () => new AnthropicBatchAdapter(anthropicMock(mock.url), KEY)],
] as const)('%s batch client against the mock', (api, make) => {
  it('submits, polls through the provider statuses and parses each answer like a live one', async () => {
    const { statuses, results } = await runToEnd(make(), entries(5));
    if (api === 'openai') {
      expect(statuses[0]).toBe('validating');
      expect(statuses.at(-1)).toBe('completed');
      expect(statuses).toContain('in_progress');
    } else {
      expect(statuses[0]).toBe('in_progress');
      expect(statuses.at(-1)).toBe('ended');
    }
    expect(results).toHaveLength(5);
    for (const r of results) {
      expect(r.type).toBe('succeeded');
      if (r.type === 'succeeded') {
        expect(r.result.json).toEqual({ winner: 'B', confidence: 0.9, reason: 'clearer' });
        expect(r.result.usage.inputTokens).toBeGreaterThan(0);
      }
    }
    const created = mock.batches.created().at(-1)!;
    expect(created.api).toBe(api);
    expect(created.customIds).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('reports errored and expired entries by custom id, and unusable answers as unparseable', async () => {
    mock.setBehavior({
      batchOutcome: (id) => (id === 'r2' ? 'error' : id === 'r4' ? 'expired' : 'ok'),
      respond: (req) =>
        req.lastUser.includes('item 5') ? { winner: 'C' } : { winner: 'A', confidence: 1, reason: 'x' },
    });
    const { statuses, results } = await runToEnd(make(), entries(5));
    if (api === 'openai') expect(statuses.at(-1)).toBe('expired');
    // An answer that is JSON is handed on whole: the stage's tolerant parser, not a strict schema
    // gate at the adapter, decides it is unusable (so a readable one is never paid for again).
    expect(byType(results)).toEqual({
      succeeded: ['r1', 'r3', 'r5'],
      errored: ['r2'],
      expired: ['r4'],
      cancelled: [],
      unparseable: [],
    });
    const r5 = results.find((r) => r.customId === 'r5');
    const verdict = parsePairwiseVerdict(r5 && r5.type === 'succeeded' ? r5.result.json : undefined);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.error).toMatch(/"winner" must be "A", "B" or "tie", got "C"/);
    const errored = results.find((r) => r.type === 'errored');
    expect(errored && errored.type === 'errored' && errored.kind).toBe('server');
  });

  it('cancel ends the batch early: answers given before it stay, the rest are not answered', async () => {
    mock.setBehavior({ batchTurnaroundMs: 400 });
    const adapter = make();
    const list = entries(10);
    const id = await adapter.submit(list, { localId: 2, nonce: 'a1b2c3d4e5f6' });
    await new Promise((r) => setTimeout(r, 200));
    await adapter.cancel(id);
    let s = await adapter.poll(id);
    for (let i = 0; !s.ended && i < 50; i++) s = await adapter.poll(id);
    expect(s.ended).toBe(true);
    expect(s.status).toBe(api === 'openai' ? 'cancelled' : 'ended');
    const results: BatchEntryResult[] = [];
    await adapter.results(
      id,
      (c) => list.find((e) => e.customId === c)?.spec,
      (r) => results.push(r),
    );
    const ok = results.filter((r) => r.type === 'succeeded').length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(10);
    // Anthropic lists cancelled entries; OpenAI leaves them out of both files.
    if (api === 'anthropic') expect(results.filter((r) => r.type === 'cancelled')).toHaveLength(10 - ok);
    else expect(results).toHaveLength(ok);
  });

  it('finds a batch whose create reply was lost by its nonce, and no batch that is not its own', async () => {
    const t0 = Date.now();
    const adapter = make();
    const withNonce = (n: number, nonce: string): BatchEntry[] =>
      entries(n).map((e) => ({ ...e, customId: `${e.customId}_${nonce}` }));
    const lost = { requestCount: 3, createdAt: t0, taken: () => false };
    // Another batch of the same size on the same key, ended before we look.
    const other = await adapter.submit(withNonce(3, 'aaaaaaaaaaaa'), { localId: 7, nonce: 'aaaaaaaaaaaa' });
    for (let s = await adapter.poll(other); !s.ended; s = await adapter.poll(other))
      await new Promise((r) => setTimeout(r, 20));
    expect(await adapter.find({ ...lost, nonce: 'bbbbbbbbbbbb' })).toBeNull();

    mock.setBehavior({ batchCreateReplyLost: 1 });
    await expect(
      adapter.submit(withNonce(3, 'bbbbbbbbbbbb'), { localId: 8, nonce: 'bbbbbbbbbbbb' }),
    ).rejects.toMatchObject({ kind: 'connection' });
    const made = mock.batches.created().at(-1)!;
    expect(made.customIds).toEqual(['r1_bbbbbbbbbbbb', 'r2_bbbbbbbbbbbb', 'r3_bbbbbbbbbbbb']);
    expect(await adapter.find({ ...lost, nonce: 'bbbbbbbbbbbb' })).toBe(made.id);
    // Already another local batch's: never taken twice.
    expect(await adapter.find({ ...lost, nonce: 'bbbbbbbbbbbb', taken: (id) => id === made.id })).toBeNull();
    // Made before the submission record (beyond the clock slack): not a candidate.
    expect(
      await adapter.find({ ...lost, nonce: 'bbbbbbbbbbbb', createdAt: Date.now() + 3600_000 }),
    ).toBeNull();
  });

  it('a wrong key is an auth error, never echoing the key', async () => {
    const adapter =
      api === 'openai'
        ? new OpenAIBatchAdapter(openaiMock(mock.url), 'sk-wrong-key-123456')
        : new AnthropicBatchAdapter(anthropicMock(mock.url), 'sk-wrong-key-123456');
    await expect(adapter.submit(entries(1), { localId: 3, nonce: 'a1b2c3d4e5f6' })).rejects.toMatchObject({
      kind: 'auth',
    });
  });
});

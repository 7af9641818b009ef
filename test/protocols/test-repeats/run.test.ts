// The second test-only protocol end to end against the mock provider (both wire formats, real
// SDKs): every item is asked three times (samples 0, 1, 2), each ask is its own ledger row and
// call, read by the judging kit's pairwise parser (the mock answers in non-strict forms), and a
// second run of the same config pays for nothing. The protocol lives in test/ only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
import { registerProtocol, unregisterProtocol } from '../../../src/main/protocols';
import { listResults } from '../../../src/main/store/results';
import { tempDir } from '../../helpers/tmp';
import { startMockProvider, type MockProvider, type MockRequest } from '../../mock-provider/server';
import { repeatsPlugin, type RepeatMeta, type RepeatsMetrics } from './plugin';

const LIMIT = 12;
let core: Core;
let mock: MockProvider;
let cleanup: () => void;

/** How often the mock saw each (model, prompt): the n-th ask of an item gets the n-th answer. */
const seen = new Map<string, number>();
/** Each (model, prompt)'s answers in arrival order, as the mock gave them. */
const given = new Map<string, string[]>();

function respond(req: MockRequest): unknown {
  const k = `${req.model}\u0000${req.lastUser}`;
  const n = seen.get(k) ?? 0;
  seen.set(k, n + 1);
  // Items whose instruction is long flip on their third ask: a judge that is not self-consistent.
  const flips = req.lastUser.length % 3 === 0 && n === 2;
  const winner = flips ? 'B' : 'A';
  given.set(k, [...(given.get(k) ?? []), winner]);
  // Readable but not strict: "Response A", a wrapped object, a confidence as text.
  return n === 0
    ? { winner: `Response ${winner}`, confidence: '0.8', reason: 'first ask' }
    : { pairwise_verdict: { winner: winner.toLowerCase(), reason: 'again' } };
}

function config(url: string, name = 'repeats-run') {
  return {
    name,
    protocol: 'test-repeats',
    dataset: 'LLMBar (sample)',
    limit: LIMIT,
    providers: {
      openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' },
      anthropic: { kind: 'anthropic', baseURL: url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY' },
    },
    judges: [
      { label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini', temperature: 1 },
      { label: 'Claude judge', provider: 'anthropic', model: 'claude-haiku-4-5', temperature: 1 },
    ],
    repeats: 3,
  };
}

beforeAll(async () => {
  registerProtocol(repeatsPlugin);
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 100 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ latencyMs: [0, 2], respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  unregisterProtocol('test-repeats');
});

describe('a repeats protocol registered from test code', () => {
  it('asks each item three times, pays each sample once, and reads every non-strict answer', async () => {
    const estimate = await core.call('experiments.estimate', { config: config(mock.url) });
    expect(estimate.calls).toBe(LIMIT * 3 * 2);

    const { id } = await core.call('experiments.create', { config: config(mock.url) });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    // Three identical questions per item and judge: three calls, none asked again.
    expect(mock.log.filter((l) => l.status === 200)).toHaveLength(LIMIT * 3 * 2);
    expect([...seen.values()].every((n) => n === 3)).toBe(true);
    expect(seen.size).toBe(LIMIT * 2);

    const results = listResults(core.db, id);
    expect(results).toHaveLength(LIMIT * 3 * 2);
    expect(results.every((r) => r.status === 'ok' && r.attempts === 1)).toBe(true);
    expect(new Set(results.map((r) => r.requestId)).size).toBe(LIMIT * 3 * 2);

    // The metrics recomputed from what the mock gave: an item agrees with itself unless it flipped.
    const m = (await core.call('experiments.results', { experimentId: id })).metrics as RepeatsMetrics;
    for (const [label, model] of [
      ['GPT judge', 'gpt-4.1-mini'],
      ['Claude judge', 'claude-haiku-4-5'],
    ]) {
      const mine = [...given].filter(([k]) => k.startsWith(`${model}\u0000`)).map(([, ws]) => ws);
      const agree = mine.filter((ws) => ws.every((w) => w === ws[0])).length;
      expect(agree).toBeLessThan(LIMIT);
      expect(m.consistency.find((c) => c.judge === label)).toEqual({
        judge: label,
        items: LIMIT,
        all_agree: agree,
        agreement_rate: agree / LIMIT,
      });
      // Across samples the mock gave A as often as the stored verdicts say.
      const aShare = mine.flat().filter((w) => w === 'A').length;
      const rows = m.by_sample.filter((r) => r.judge === label);
      expect(rows.map((r) => r.sample)).toEqual([0, 1, 2]);
      expect(rows.reduce((s, r) => s + (r.a_rate ?? 0) * r.n, 0)).toBeCloseTo(aShare, 10);
    }
    expect(m.failures).toEqual([]);
    const samples = results.map((r) => (r.meta as RepeatMeta).sample).sort();
    expect(new Set(samples)).toEqual(new Set([0, 1, 2]));
  });

  it('a second experiment of the same questions pays for nothing: every sample is a stored answer', async () => {
    const before = mock.log.length;
    const { id } = await core.call('experiments.create', { config: config(mock.url, 'repeats-again') });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    expect(mock.log.length).toBe(before);
    expect(listResults(core.db, id).filter((r) => r.status === 'ok')).toHaveLength(LIMIT * 3 * 2);
  });
});

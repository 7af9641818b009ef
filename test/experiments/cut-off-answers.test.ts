// Issue 32 item 10: an answer cut off at the output limit (OpenAI finish_reason "length",
// Anthropic stop_reason "max_tokens") whose verdict was written out whole is read, not asked
// (and paid) again; one whose verdict was cut is asked again. Through the core and the real
// OpenAI and Anthropic SDKs against the mock provider, counting calls at the mock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { listResults } from '../../src/main/store/results';
import { tempDir } from '../helpers/tmp';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';

let core: Core;
let mock: MockProvider;
let cleanup: () => void;
/** What each judge model answers (model name → answer object); every answer is cut off. */
const answerOf = new Map<string, unknown>();

function respond(req: MockRequest): unknown {
  if (req.schemaName === 'language_variant')
    return { instruction: '指令 甲', output_1: '回答 一 甲乙丙', output_2: '回答 二 甲乙丙' };
  const answer = answerOf.get(req.model);
  if (answer === undefined) throw new Error(`mock: no answer for ${req.model}`);
  return answer;
}

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  // Judges' answers are cut in half (the mock's "truncated": finish_reason "length" /
  // stop_reason "max_tokens"); the translator's are whole.
  mock = await startMockProvider({
    latencyMs: [0, 1],
    respond,
    logBodies: false,
    faultFor: (req) => (answerOf.has(req.model) ? 'truncated' : undefined),
  });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

let serial = 0;
async function run(wire: 'openai' | 'anthropic', answer: unknown) {
  const model = `judge-${++serial}-${wire}`;
  answerOf.set(model, answer);
  const config = {
    name: `cut-off-${serial}`,
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 2,
    maxParseRetries: 2,
    earlyWarningAnswers: 0,
    providers: {
      openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' },
      anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY' },
    },
    transform: { provider: 'openai', model: 'translator', languages: ['ZH'] },
    judges: [{ label: 'Judge', provider: wire, model }],
    tieProbes: false,
  };
  const { id } = await core.call('experiments.create', { config });
  const final = await core.experiments.runToEnd(id);
  const judged = listResults(core.db, id).filter((r) => r.stage === 'judge');
  const distinct = new Set(judged.map((r) => r.requestId)).size;
  const calls = mock.log.filter((l) => l.model === model).length;
  return { id, final, judged, distinct, calls };
}

describe('answers cut off at the output limit', () => {
  it.each(['openai', 'anthropic'] as const)(
    'via %s: a verdict written out whole before the cut costs exactly one call and is counted',
    async (wire) => {
      // Cut in half, the text stops inside "reason": the winner and confidence are whole.
      const { id, final, judged, distinct, calls } = await run(wire, {
        winner: 'B',
        confidence: 0.75,
        reason: 'The second response follows every part of the instruction; the first one does not.',
      });
      expect(final.status, final.message ?? '').toBe('finished');
      expect(judged.length).toBeGreaterThan(0);
      for (const r of judged) {
        expect(r.status, r.reason ?? '').toBe('ok');
        expect(r.value).toMatchObject({ winner: 'B', confidence: 0.75 });
      }
      // One call per request: none asked again.
      expect(calls).toBe(distinct);
      // Counted as read from a cut-off answer, live and from the store.
      expect(final.cutOffReads).toBe(distinct);
      const stored = await core.call('experiments.progress', { experimentId: id });
      expect(stored.cutOffReads).toBe(distinct);
      expect(stored.failuresByReason).toEqual({});
    },
  );

  it.each(['openai', 'anthropic'] as const)(
    'via %s: a verdict cut before it was written is asked again, then failed with its raw text',
    async (wire) => {
      // The reason comes first: half the text stops inside it, before the winner.
      const { final, judged, distinct, calls } = await run(wire, {
        reason: 'The second response follows every part of the instruction; the first one does not.',
        winner: 'B',
        confidence: 0.75,
      });
      for (const r of judged) {
        expect(r.status).toBe('failed');
        expect(r.reason).toMatch(/^unparseable: /);
      }
      // Asked three times (maxParseRetries 2), as any unusable answer.
      expect(calls).toBe(distinct * 3);
      expect(final.cutOffReads ?? 0).toBe(0);
    },
  );
});

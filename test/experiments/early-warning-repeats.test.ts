// Issue 40 item 10: the early warning counts distinct questions, not repeats. In a
// self-consistency run one question the judge cannot answer, asked K times, is one unusable
// question: the judge is not paused for it, and its K failed repeats are recorded as such.
// Through the core and the OpenAI SDK against the mock provider.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { listResults } from '../../src/main/store/results';
import { tempDir } from '../helpers/tmp';
import { repeatsResponder, type RepeatItem } from '../mock-provider/repeats-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../resources/samples/llmbar.jsonl');
const pairs: RepeatItem[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as RepeatItem);
const K = 12;
const LIMIT = 12;

let core: Core | undefined;
let mock: MockProvider | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  core = mock = cleanup = undefined;
});

describe('early warning on repeated asks', () => {
  it('one question unusable at every repeat is one question: the judge is not paused', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({
      dataDir: t.dir,
      door: 'cli',
      keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
    });
    await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    // Every item of the plan poisoned in turn would be found by a test of the old counting only
    // by luck of the send order: the judge sends one call at a time, and the poisoned question
    // is the one the judge is asked first, so its K repeats are its first K answers.
    const responder = repeatsResponder(pairs, { 'mock-judge': 0 }, { poison: { 'mock-judge': pairs[0].id } });
    mock = await startMockProvider({ latencyMs: [0, 1], respond: responder.respond, logBodies: false });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'repeats',
        protocol: 'self-consistency',
        dataset: 'LLMBar (sample)',
        limit: LIMIT,
        maxParseRetries: 0,
        earlyWarningAnswers: 10,
        providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
        judges: [{ label: 'Judge', provider: 'o', model: 'mock-judge', temperature: 1, concurrency: 1 }],
        repeats: K,
        orders: 'one',
      },
    });
    const end = await core.experiments.runToEnd(id);
    expect(end.message ?? '').not.toMatch(/could not be used/);
    expect(end.pausedLanes).toEqual([]);
    expect(end.status).toBe('finished');
    const results = listResults(core.db, id);
    expect(results.length).toBe(LIMIT * K);
    // The poisoned question failed at each of its K repeats; every other one was answered.
    const failed = results.filter((r) => r.status === 'failed');
    expect(failed.length).toBe(K);
    expect(new Set(failed.map((r) => (r.meta as { sourceId: string }).sourceId))).toEqual(
      new Set([pairs[0].id]),
    );
  });
});

// Issue 21 "parse once": the stage's parser runs once per answer, when it arrives, and its
// value is stored in task_results in the transaction that completes the ledger row;
// syncResults only repairs (here: result rows lost after the fact are parsed again from the ledger).
// Issue 34: the same for answers read from a provider batch (the mock's OpenAI Batch API).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { registerProtocol, unregisterProtocol } from '../../src/main/protocols';
import { openDatabase } from '../../src/main/store/db';
import { tempDir } from '../helpers/tmp';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { pointwisePlugin } from '../protocols/test-pointwise/plugin';

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
/** Calls of the stage's parser. */
let parses = 0;

beforeAll(async () => {
  // The test-only protocol, its parser counted (the plug-in is test code; nothing of ours is faked).
  registerProtocol({
    ...pointwisePlugin,
    stages: pointwisePlugin.stages.map((s) => ({
      ...s,
      parse: (json: unknown, task: { key: string; meta: unknown }) => {
        parses++;
        return s.parse(json, task);
      },
    })),
  });
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
    engine: { progressIntervalMs: 50, retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ respond: () => ({ score: 3, reason: 'mock' }) });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  unregisterProtocol('test-pointwise');
});

describe('parse once', () => {
  it('parses each answer once, as it arrives, and stores its result with the ledger row', async () => {
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'parse-once',
        protocol: 'test-pointwise',
        dataset: 'LLMBar (sample)',
        limit: 10,
        providers: { openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
        scorers: [{ label: 'GPT scorer', provider: 'openai', model: 'gpt-4.1-mini' }],
      },
    });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const answers = mock.log.filter((l) => l.status === 200).length;
    expect(answers).toBe(10);
    // The old engine parsed each usable answer twice (its check, then syncResults).
    expect(parses).toBe(answers);

    const db = openDatabase(join(dir, 'judge-lab.sqlite'));
    try {
      const rows = db
        .prepare(
          `SELECT x.status, x.value_json, x.attempts, r.attempts AS ledger_attempts
           FROM task_results x JOIN requests r ON r.id = x.request_id WHERE x.experiment_id = ?`,
        )
        .all(id) as { status: string; value_json: string; attempts: number; ledger_attempts: number }[];
      expect(rows).toHaveLength(10);
      expect(rows.every((r) => r.status === 'ok' && JSON.parse(r.value_json).score === 3)).toBe(true);
      expect(rows.map((r) => r.attempts)).toEqual(rows.map((r) => r.ledger_attempts));
      expect(rows.every((r) => r.attempts === 1)).toBe(true);

      // Repair: result rows missing (a crash between, a migration) are parsed again from the ledger.
      db.prepare(
        'DELETE FROM task_results WHERE experiment_id = ? AND rowid IN (SELECT rowid FROM task_results LIMIT 3)',
      ).run(id);
    } finally {
      db.close();
    }
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toEqual({ planned: 10, ok: 10, failed: 0, pending: 0 });
    expect(parses).toBe(answers + 3);
  });

  it('parses each batch answer once, as its entry is read, and stores its result with the ledger row', async () => {
    const before = parses;
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'parse-once-batch',
        protocol: 'test-pointwise',
        dataset: 'LLMBar (sample)',
        limit: 10,
        providers: {
          openai: {
            kind: 'openai',
            baseURL: `${mock.url}/v1`,
            apiKeyEnv: 'MOCK_OPENAI_KEY',
            mode: 'batch',
            batchPollSeconds: 0.02,
          },
        },
        // Another model than the live case's: its requests are new, not cache hits.
        scorers: [{ label: 'GPT scorer', provider: 'openai', model: 'gpt-4.1-nano' }],
      },
    });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const entries = mock.batches.created().reduce((n, b) => n + b.customIds.length, 0);
    expect(entries).toBe(10);
    // The old executor parsed each batch answer to check it, dropped the value, and the round's
    // end parsed the stored answer again (syncResults): 20 parses for 10 answers.
    expect(parses - before).toBe(entries);

    const db = openDatabase(join(dir, 'judge-lab.sqlite'));
    try {
      const rows = db
        .prepare(
          `SELECT x.status, x.value_json, x.attempts, r.attempts AS ledger_attempts, r.batch_id
           FROM task_results x JOIN requests r ON r.id = x.request_id WHERE x.experiment_id = ?`,
        )
        .all(id) as {
        status: string;
        value_json: string;
        attempts: number;
        ledger_attempts: number;
        batch_id: number | null;
      }[];
      expect(rows).toHaveLength(10);
      expect(rows.every((r) => r.status === 'ok' && JSON.parse(r.value_json).score === 3)).toBe(true);
      expect(rows.every((r) => r.batch_id !== null && r.attempts === 1 && r.ledger_attempts === 1)).toBe(
        true,
      );
    } finally {
      db.close();
    }
    // Reading the results parses nothing: every answer's value is stored already.
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toEqual({ planned: 10, ok: 10, failed: 0, pending: 0 });
    expect(parses - before).toBe(entries);
  });
});

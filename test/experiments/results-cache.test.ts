// The results API reuses computed results while nothing they are made from changed: every call
// equals a computation from the store, and any change (new answers, usage in the ledger, edited
// imported answers, another process storing answers, an earlier experiment deleted) is seen.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeResults, computeResultsUncached } from '../../src/main/experiments/results';
import { openDatabase, DB_FILE_NAME } from '../../src/main/store/db';
import { mockKeys, startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';
import { Core } from '../../src/main/facade/core';
import { refSensResponder, type QaRecord } from '../mock-provider/refsens-responder';
import { startMockProvider } from '../mock-provider/server';

const closeLater: (() => Promise<void>)[] = [];

let env: LlmbarMock;
beforeAll(async () => {
  env = await startLlmbarMock();
  await env.core.call('datasets.loadSample', { sampleId: 'tydiqa' });
});
afterAll(async () => {
  for (const close of closeLater) await close();
  await env?.close();
});

const judgeLs = (name: string, limit: number) => ({
  name,
  protocol: 'judge-ls',
  dataset: env.datasetId,
  limit,
  providers: { o: { kind: 'openai', baseURL: `${env.mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
  transform: { provider: 'o', model: 'gpt-4.1-mini' },
  judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
});

/** The cached path and a computation from the store agree. */
function same(id: number, excludeFlagged = false) {
  const db = env.core.db;
  const cached = computeResults(db, id, excludeFlagged);
  expect(computeResults(db, id, excludeFlagged)).toEqual(cached);
  expect(computeResultsUncached(db, id, excludeFlagged)).toEqual(cached);
  return cached;
}

describe('cached results', () => {
  it('see a request first planned by an earlier experiment become this one’s own call when that one is deleted', async () => {
    const { core } = env;
    const a = core.experiments.createOrUpdate(judgeLs('cache-earlier', 2));
    expect((await core.experiments.runToEnd(a.id)).status).toBe('finished');
    const b = core.experiments.createOrUpdate(judgeLs('cache-later', 2));
    expect((await core.experiments.runToEnd(b.id)).status).toBe('finished');
    const calls = (r: ReturnType<typeof same>) =>
      (r.metrics as { usage: { calls: number }[] }).usage.reduce((n, u) => n + u.calls, 0);
    expect(calls(same(b.id))).toBe(0);
    await core.call('experiments.delete', { experimentId: a.id });
    expect(calls(same(b.id))).toBeGreaterThan(0);
  }, 120_000);

  it('equal the uncached computation, and follow new answers and ledger usage', async () => {
    const { core } = env;
    const first = core.experiments.createOrUpdate(judgeLs('cache-a', 2));
    expect((await core.experiments.runToEnd(first.id)).status).toBe('finished');
    const before = same(first.id);
    same(first.id, true);

    // The same slots, more items: a bigger plan, more answers.
    core.experiments.createOrUpdate(judgeLs('cache-a', 4));
    expect((await core.experiments.runToEnd(first.id)).status).toBe('finished');
    const after = same(first.id);
    expect(after.counts.planned).toBeGreaterThan(before.counts.planned);

    // Usage written to the ledger after the fact (a late usage report): usage rows follow.
    const usage = (r: typeof after) =>
      (r.metrics as { usage: { output_tokens: number }[] }).usage.reduce((n, u) => n + u.output_tokens, 0);
    core.db
      .prepare(
        `UPDATE requests SET output_tokens = output_tokens + 1000,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')
         WHERE id = (SELECT request_id FROM experiment_tasks t WHERE experiment_id = ? AND NOT EXISTS (
           SELECT 1 FROM experiment_tasks o WHERE o.request_id = t.request_id AND o.experiment_id <> t.experiment_id)
           LIMIT 1)`,
      )
      .run(first.id);
    expect(usage(same(first.id))).toBe(usage(after) + 1000);
  }, 120_000);

  it('see answers stored by another process and an answers file edited and given again', async () => {
    const { core, dataDir } = env;
    const sample = readFileSync(
      join(import.meta.dirname, '../../resources/samples/tydiqa-en-ar-te.jsonl'),
      'utf8',
    )
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as QaRecord);
    const mock = await startMockProvider({ respond: refSensResponder(sample).respond, logBodies: false });
    closeLater.push(() => mock.close());
    const answers = join(dataDir, 'answers.csv');
    const write = (label: string) =>
      writeFileSync(
        answers,
        `item_id,generator,answer,human_label\nenglish-5888115353945373749-2,mine,Amos,${label}\n`,
      );
    write('CORRECT');
    const config = {
      name: 'cache-refsens',
      protocol: 'reference-sensitivity',
      dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
      providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
      answers,
      parts: { calibration: false },
      judges: [{ label: 'J', provider: 'o', model: 'gpt-4.1-mini' }],
    };
    const exp = core.experiments.createOrUpdate(config);
    const empty = same(exp.id);
    expect(empty.counts.ok + empty.counts.failed).toBe(0);

    // Another process (the CLI) runs it; this core's cache must not hide its answers.
    const cli = new Core({ dataDir, door: 'cli', keys: mockKeys() });
    await cli.experiments.runToEnd(exp.id);
    await cli.shutdown();
    const run = same(exp.id);
    expect(run.counts.ok + run.counts.failed).toBe(3);

    const humanN = (r: typeof run) =>
      (r.metrics as { human: { settings: { accuracy: number | null }[] } }).human.settings.map(
        (s) => s.accuracy,
      );
    // The file is stored with the experiment (sealConfig): an edit on disk changes nothing until
    // the config is given again (as `judge-lab run` does), which stores the new text.
    write('INCORRECT');
    expect(humanN(same(exp.id))).toEqual(humanN(run));
    core.experiments.createOrUpdate(config);
    const edited = same(exp.id);
    expect(humanN(edited)).not.toEqual(humanN(run));
    // A second connection to the same file sees the same.
    const other = openDatabase(join(dataDir, DB_FILE_NAME));
    try {
      expect(computeResults(other, exp.id)).toEqual(edited);
    } finally {
      other.close();
    }
  }, 120_000);
});

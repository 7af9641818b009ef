// The results page reads the plan once (scanResults): what it reads equals the three reads it
// replaces, and whatever storing would repair (an answer without its result, a result whose slot
// moved to another request or left the plan) is seen and repaired before results are computed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeResults, computeResultsUncached, resultCounts } from '../../src/main/experiments/results';
import { answeredTaskUsage } from '../../src/main/store/ledger';
import { listResults, scanResults } from '../../src/main/store/results';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';
import { join } from 'node:path';
import { DB_FILE_NAME, openDatabase, type Database } from '../../src/main/store/db';
import { serialize } from 'node:v8';

let env: LlmbarMock;
let id: number;
beforeAll(async () => {
  env = await startLlmbarMock();
  const exp = env.core.experiments.createOrUpdate(config(3));
  id = exp.id;
  expect((await env.core.experiments.runToEnd(id)).status).toBe('finished');
}, 120_000);

const config = (limit: number) => ({
  name: 'scan',
  protocol: 'judge-ls',
  dataset: env.datasetId,
  limit,
  providers: { o: { kind: 'openai', baseURL: `${env.mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
  transform: { provider: 'o', model: 'gpt-4.1-mini' },
  // Two judges on one model ask the very same requests: slots that share a request.
  judges: [
    { label: 'A', provider: 'o', model: 'gpt-4.1-mini' },
    { label: 'B', provider: 'o', model: 'gpt-4.1-mini' },
  ],
});
afterAll(async () => {
  await env?.close();
});

/** What the three separate reads give. */
function separately() {
  const db = env.core.db;
  const { planned, ok, failed } = resultCounts(db, id);
  return {
    results: listResults(db, id),
    usage: answeredTaskUsage(db, id),
    planned,
    ok,
    failed,
  };
}

const scan = () => scanResults(env.core.db, id);

describe('one read of the plan for the results page', () => {
  it('gives what listResults, answeredTaskUsage and resultCounts give', () => {
    const s = scan();
    expect(s.results.length).toBeGreaterThan(0);
    expect(s.unsynced).toBe(false);
    expect({ ...s, unsynced: undefined }).toEqual({ ...separately(), unsynced: undefined });
  });

  it('sees an answer without its result and stores it before computing', () => {
    const db = env.core.db;
    const before = computeResultsUncached(db, id);
    const key = listResults(db, id).at(-1)!.key;
    db.prepare('DELETE FROM task_results WHERE experiment_id = ? AND task_key = ?').run(id, key);
    expect(scan().unsynced).toBe(true);
    expect(computeResults(db, id)).toEqual(before);
    expect(scan().unsynced).toBe(false);
    expect(listResults(db, id).some((r) => r.key === key)).toBe(true);
  });

  it('sees a result whose slot now points at another answered request, and replaces it', () => {
    const db = env.core.db;
    const [a, b] = listResults(db, id).filter((r) => r.stage === 'judge');
    expect(a.requestId).not.toBe(b.requestId);
    db.prepare('UPDATE experiment_tasks SET request_id = ? WHERE experiment_id = ? AND task_key = ?').run(
      b.requestId,
      id,
      a.key,
    );
    expect(scan().unsynced).toBe(true);
    const results = computeResults(db, id);
    expect(scan().unsynced).toBe(false);
    expect(listResults(db, id).find((r) => r.key === a.key)!.requestId).toBe(b.requestId);
    expect(results).toEqual(computeResultsUncached(db, id));
    expect({ ...scan(), unsynced: undefined }).toEqual({ ...separately(), unsynced: undefined });
  });

  it('sees a result whose slot left the plan, and drops it', () => {
    const db = env.core.db;
    const gone = listResults(db, id).at(-1)!;
    db.prepare('DELETE FROM experiment_tasks WHERE experiment_id = ? AND task_key = ?').run(id, gone.key);
    expect(scan().unsynced).toBe(true);
    const results = computeResults(db, id);
    expect(scan().unsynced).toBe(false);
    expect(
      db
        .prepare('SELECT COUNT(*) FROM task_results WHERE experiment_id = ? AND task_key = ?')
        .pluck()
        .get(id, gone.key),
    ).toBe(0);
    expect(results.counts).toEqual(resultCounts(db, id));
    expect({ ...scan(), unsynced: undefined }).toEqual({ ...separately(), unsynced: undefined });
  });

  it('never serves a stale read: after answers arrive, a variant is edited and the flagged switch is turned, results equal a fresh connection’s', async () => {
    const { core } = env;
    const db = core.db;
    // A connection of its own reads the plan whole and caches nothing yet: what any cache must equal.
    const fresh = (excludeFlagged = false) => {
      const other = openDatabase(join(env.dataDir, DB_FILE_NAME));
      try {
        return computeResultsUncached(other, id, excludeFlagged);
      } finally {
        other.close();
      }
    };
    const before = computeResults(db, id);
    computeResults(db, id, true);

    // Answers arrive: more items, their calls answered after results were cached.
    core.experiments.createOrUpdate(config(4));
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const grown = computeResults(db, id);
    expect(grown.counts.planned).toBeGreaterThan(before.counts.planned);
    expect(grown).toEqual(fresh());
    expect({ ...scan(), unsynced: undefined }).toEqual({ ...separately(), unsynced: undefined });

    // A translation edited by hand: its judge calls are planned again, their answers still to come.
    const variants = (await core.call('experiments.protocolView', {
      experimentId: id,
      view: 'variants',
    })) as {
      itemId: number;
      language: string;
    }[];
    const zh = variants.find((v) => v.language === 'ZH')!;
    await core.call('experiments.protocolEdit', {
      experimentId: id,
      edit: 'variant',
      fields: { itemId: zh.itemId, language: 'ZH', instruction: '人工修改', output1: '一', output2: '二' },
    });
    const edited = computeResults(db, id);
    expect(edited.counts.pending).toBeGreaterThan(grown.counts.pending);
    expect(edited).toEqual(fresh());

    // Flagged items left out (the switch), and back.
    expect(computeResults(db, id, true)).toEqual(fresh(true));
    expect(computeResults(db, id)).toEqual(fresh());
    expect({ ...scan(), unsynced: undefined }).toEqual({ ...separately(), unsynced: undefined });
  }, 120_000);

  it('a new process reads the results kept in the store while they hold, and never stale ones', () => {
    const db = env.core.db;
    const inNewConnection = <T>(f: (other: Database) => T): T => {
      const other = openDatabase(join(env.dataDir, DB_FILE_NAME));
      try {
        return f(other);
      } finally {
        other.close();
      }
    };
    // The kept results marked, so that a read from the store shows in what the call returns.
    const mark = (variant: string) => {
      const results = computeResults(db, id, variant === 'true:false');
      const marked = db
        .prepare('UPDATE results_cache SET results = ? WHERE experiment_id = ? AND variant = ?')
        .run(serialize({ ...results, protocol: 'kept' }), id, variant);
      expect(marked.changes).toBe(1);
    };
    mark('false:false');
    expect(inNewConnection((o) => computeResults(o, id).protocol)).toBe('kept');
    // The other switch position is kept apart.
    expect(inNewConnection((o) => computeResults(o, id, true).protocol)).toBe('judge-ls');

    const judged = () => listResults(db, id).filter((r) => r.stage === 'judge' && r.status === 'ok');
    const changes: [string, () => void][] = [
      [
        'a request’s usage',
        () =>
          db
            .prepare('UPDATE requests SET output_tokens = output_tokens + 1 WHERE id = ?')
            .run(judged()[0].requestId),
      ],
      [
        'a slot pointed at another request',
        () => {
          const [a, b] = judged().filter(
            (r, i, all) => all.findIndex((x) => x.requestId === r.requestId) === i,
          );
          db.prepare(
            'UPDATE experiment_tasks SET request_id = ? WHERE experiment_id = ? AND task_key = ?',
          ).run(b.requestId, id, a.key);
        },
      ],
      [
        'an answer whose result is missing',
        () =>
          db
            .prepare('DELETE FROM task_results WHERE experiment_id = ? AND task_key = ?')
            .run(id, judged().at(-1)!.key),
      ],
      [
        'a config edited',
        () =>
          db
            .prepare(
              "UPDATE experiments SET config_json = json_set(config_json, '$.earlyWarningAnswers', 7) WHERE id = ?",
            )
            .run(id),
      ],
    ];
    for (const [what, change] of changes) {
      mark('false:false');
      change();
      const [got, fromScratch] = inNewConnection((o) => [
        computeResults(o, id),
        computeResultsUncached(o, id),
      ]);
      expect(got.protocol, what).toBe('judge-ls');
      expect(got, what).toEqual(fromScratch);
    }
  });
});

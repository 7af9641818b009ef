// A refused `judge-lab run` leaves the store as it was (issue 22 item 7), with the exit code of
// the README's table: 2 for bad config or input (the dataset file it names is not imported
// either), 3 for a provider whose key is not set where the run is started.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const TYDIQA = join(ROOT, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl');
const NO_KEY = 'JUDGE_LAB_TEST_UNSET_KEY';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

/** Rows of every table, so any write shows. */
function rowCounts(data: string): Record<string, number> {
  const db = new BetterSqlite3(join(data, 'judge-lab.sqlite'), { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

function writeJson(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

const simulated = { demo: { kind: 'simulated', latencyMs: 1 } };
const judgeLs = (extra: Record<string, unknown>) => ({
  protocol: 'judge-ls',
  dataset: LLMBAR_SAMPLE,
  limit: 2,
  providers: simulated,
  transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH'] },
  judges: [{ label: 'Sim', provider: 'demo', model: 'sim-judge-strong' }],
  ...extra,
});
const refSens = (extra: Record<string, unknown>) => ({
  protocol: 'reference-sensitivity',
  dataset: TYDIQA,
  limit: 3,
  providers: simulated,
  judges: [{ label: 'judge', provider: 'demo', model: 'sim-judge-strong' }],
  ...extra,
});

const cases: { what: string; config: () => Record<string, unknown>; code: number; message: RegExp }[] = [
  {
    what: 'a Judge-LS config on a QA dataset file',
    config: () => judgeLs({ name: 'qa-for-judge-ls', dataset: TYDIQA }),
    code: 2,
    message: /pairwise|Judge-LS/i,
  },
  {
    what: 'a subset the dataset file does not have',
    config: () => judgeLs({ name: 'no-such-subset', subsets: ['Nope'] }),
    code: 2,
    message: /Nope/,
  },
  {
    what: 'an answers file naming an item the dataset file does not have',
    config: () =>
      refSens({
        name: 'unknown-item',
        answers: writeJson(
          'unknown-item.jsonl',
          '{"item_id":"no-such-item","generator":"g","answer":"Paris"}\n',
        ),
      }),
    code: 2,
    message: /unknown-item\.jsonl.*no item "no-such-item"/s,
  },
  {
    what: 'an answers file with a bad human label',
    config: () =>
      refSens({
        name: 'bad-label',
        answers: writeJson(
          'bad-label.jsonl',
          '{"item_id":"english-5888115353945373749-2","generator":"g","answer":"Ayre","human_label":"maybe"}\n',
        ),
      }),
    code: 2,
    message: /bad-label\.jsonl.*human_label/s,
  },
  {
    what: 'a provider whose key variable is not set',
    config: () =>
      judgeLs({
        name: 'no-key',
        providers: { p: { kind: 'openai', baseURL: 'https://api.openai.com/v1', apiKeyEnv: NO_KEY } },
        transform: { provider: 'p', model: 'gpt-4.1-mini', languages: ['ZH'] },
        judges: [{ label: 'GPT', provider: 'p', model: 'gpt-4.1-mini' }],
      }),
    code: 3,
    message: new RegExp(`${NO_KEY} is not set.*Nothing was written`),
  },
];

describe('a refused run writes nothing', () => {
  for (const c of cases)
    it(`${c.what}: exit ${c.code}, no new rows`, async () => {
      const data = join(dir, `data-${c.config().name as string}`);
      expect((await runCliInProcess(['list', '--data-dir', data])).code).toBe(0);
      const before = rowCounts(data);
      const file = writeJson(`${c.config().name as string}.json`, c.config());
      const r = await runCliInProcess(['run', file, '--data-dir', data, '--out', join(dir, 'out')], {
        [NO_KEY]: '',
      });
      expect(r.code, r.stderr).toBe(c.code);
      expect(r.stderr).toMatch(c.message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(rowCounts(data)).toEqual(before);
    });

  it("a changed config of a stored experiment passes its protocol's checks before it replaces the stored one", async () => {
    const data = join(dir, 'data-changed');
    const answers = (name: string, itemId: string) =>
      writeJson(name, `{"item_id":"${itemId}","generator":"g","answer":"Amos and Wilfrid Ayre"}\n`);
    const good = refSens({
      name: 'changed',
      answers: answers('good.jsonl', 'english-5888115353945373749-2'),
    });
    const run = (config: unknown) =>
      runCliInProcess([
        'run',
        writeJson('changed.json', config),
        '--data-dir',
        data,
        '--out',
        join(dir, 'out-changed'),
      ]);
    const first = await run(good);
    expect(first.code, first.stderr).toBe(0);
    const before = rowCounts(data);
    const storedConfig = () => {
      const db = new BetterSqlite3(join(data, 'judge-lab.sqlite'), { readonly: true });
      try {
        return (
          db.prepare("SELECT config_json FROM experiments WHERE name = 'changed'").get() as {
            config_json: string;
          }
        ).config_json;
      } finally {
        db.close();
      }
    };
    const stored = storedConfig();
    const r = await run({ ...good, answers: answers('changed-bad.jsonl', 'no-such-item') });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/changed-bad\.jsonl.*no item "no-such-item"/s);
    expect(rowCounts(data)).toEqual(before);
    expect(storedConfig()).toBe(stored);
  });
});

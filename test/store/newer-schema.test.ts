// A store a newer release migrated is never written by this one (issue 22 item 8): opening it
// for writing is refused naming the release that made it, and the commands that only read open
// it read-only. On a real file store, through the built CLI's entry (in this process).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/store/db';
import { LATEST_SCHEMA, migrations } from '../../src/main/store/migrations';
import { APP_VERSION } from '../../src/main/base/version';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl');

let dir: string;
let cleanup: () => void;
let config: string;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  config = join(dir, 'demo.json');
  writeFileSync(
    config,
    JSON.stringify({
      name: 'demo',
      protocol: 'judge-ls',
      dataset: SAMPLE,
      limit: 2,
      providers: { demo: { kind: 'simulated', latencyMs: 1 } },
      transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH'] },
      judges: [{ label: 'Sim', provider: 'demo', model: 'sim-judge-strong' }],
    }),
  );
});
afterAll(() => cleanup());

/** Everything in the file, to see that nothing was written. */
function contents(data: string): string {
  const db = new BetterSqlite3(join(data, 'judge-lab.sqlite'), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    return JSON.stringify(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
  } finally {
    db.close();
  }
}

/** A store with one finished experiment, then marked as migrated by a future release. */
async function futureStore(name: string, appVersion: string | null): Promise<string> {
  const data = join(dir, name);
  const r = await runCliInProcess(['run', config, '--data-dir', data, '--out', join(dir, `${name}-out`)]);
  expect(r.code, r.stderr).toBe(0);
  const db = new BetterSqlite3(join(data, 'judge-lab.sqlite'));
  db.prepare('INSERT INTO schema_migrations (version, name, app_version) VALUES (99, ?, ?)').run(
    'from the future',
    appVersion,
  );
  db.close();
  return data;
}

describe('a store from a newer release', () => {
  it('records the release that ran each migration', () => {
    const { dir: d, cleanup: done } = tempDir();
    try {
      const db = openDatabase(join(d, 'judge-lab.sqlite'));
      const rows = db.prepare('SELECT version, app_version FROM schema_migrations').all() as {
        version: number;
        app_version: string;
      }[];
      db.close();
      expect(rows).toHaveLength(migrations.length);
      for (const r of rows) expect(r.app_version).toBe(APP_VERSION);
    } finally {
      done();
    }
  });

  it('is not written by run or import (exit 1, naming the release); list and export read it read-only', async () => {
    const data = await futureStore('named', '9.1.0');
    const before = contents(data);
    const made = `was made by Judge Lab 9.1.0 \\(schema 99; this release, ${APP_VERSION.replace(/\./g, '\\.')}, knows up to schema ${LATEST_SCHEMA}\\)`;

    const run = await runCliInProcess(['run', config, '--data-dir', data, '--out', join(dir, 'again')]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`${made}\\. This release will not write to it`));
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const imp = await runCliInProcess([
      'import',
      join(ROOT, 'resources', 'samples', 'llmbar.jsonl'),
      '--data-dir',
      data,
    ]);
    expect(imp.code, imp.stderr).toBe(1);
    expect(imp.stderr).toMatch(new RegExp(made));

    const list = await runCliInProcess(['list', '--data-dir', data]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/demo\s+finished/);
    expect(list.stderr).toMatch(new RegExp(`${made}: opened read-only, nothing is written`));
    const out = join(dir, 'read-only-export');
    const exp = await runCliInProcess(['export', 'demo', '--out', out, '--data-dir', data]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'))).toHaveProperty('quality');
    expect(contents(data)).toBe(before);
  }, 240_000);

  it('made by a release that did not record its version: says "a newer release"', async () => {
    const data = await futureStore('unnamed', null);
    const before = contents(data);
    const run = await runCliInProcess(['run', config, '--data-dir', data]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `was made by a newer release (schema 99, this release knows up to ${LATEST_SCHEMA}). This release will not write to it`,
    );
    expect(contents(data)).toBe(before);
    expect(() => openDatabase(join(data, 'judge-lab.sqlite'))).toThrow(/a newer release \(schema 99/);
    const db = openDatabase(join(data, 'judge-lab.sqlite'), { readOnly: true });
    expect(db.prepare('SELECT count(*) AS n FROM experiments').get()).toEqual({ n: 1 });
    db.close();
  }, 240_000);
});

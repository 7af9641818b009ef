// Issue 24 part 2 through the CLI: `judge-lab preregister EXP --plan FILE` locks a plan (exit 0,
// hash printed); locking again without --reason is refused (exit 2, the lock unchanged); with
// --reason a new version supersedes it; a bad plan names the file and field (exit 2, nothing
// locked); `judge-lab preregistration EXP --out FILE --lang zh` writes the document the API gives.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { ANALYSIS_COLUMN } from '../../src/shared/paper/confirmatory';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
let ids: string[];

const withCore = async <T>(fn: (core: Core) => Promise<T>): Promise<T> => {
  const core = new Core({ dataDir: join(dir, 'data'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  try {
    return await fn(core);
  } finally {
    await core.shutdown();
  }
};

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  await withCore(async (core) => {
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
    const config = {
      name: 'prereg-cli',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 3,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
    };
    core.experiments.createOrUpdate(config);
    ids = (await core.call('experiments.estimate', { config })).power!.comparisons.map((c) => c.id);
  });
}, 300_000);

afterAll(() => cleanup?.());

const data = () => ['--data-dir', join(dir, 'data')];
const planFile = (name: string, plan: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(plan));
  return file;
};

describe('judge-lab preregister / preregistration', () => {
  it('locks, refuses an edit, supersedes with a reason, and writes the document', async () => {
    const plan = { confirmatory: [ids[0]], exclusions: 'none', stopping: 'all planned items' };
    const bad = await runCliInProcess([
      'preregister',
      'prereg-cli',
      '--plan',
      planFile('bad.json', { ...plan, alpha: 2 }),
      ...data(),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json: plan\.alpha/);

    const first = await runCliInProcess([
      'preregister',
      'prereg-cli',
      '--plan',
      planFile('p.json', plan),
      ...data(),
    ]);
    expect(first.code, first.stderr).toBe(0);
    const v1 = await withCore((core) =>
      core.call('experiments.preregistration', { experimentId: core.experiments.find('prereg-cli').id }),
    );
    expect(v1.locks).toHaveLength(1);
    expect(first.stdout).toContain(`Locked version 1`);
    expect(first.stdout).toContain(`SHA-256 ${v1.active!.sha256}`);

    const again = await runCliInProcess([
      'preregister',
      'prereg-cli',
      '--plan',
      planFile('p.json', plan),
      ...data(),
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/never edited/);

    const second = await runCliInProcess([
      'preregister',
      'prereg-cli',
      '--plan',
      planFile('p2.json', { ...plan, alpha: 0.01 }),
      '--reason',
      'stricter α agreed with the co-authors',
      '--json',
      ...data(),
    ]);
    expect(second.code, second.stderr).toBe(0);
    const view = JSON.parse(second.stdout) as { locks: { version: number; sha256: string }[] };
    expect(view.locks.map((l) => l.version)).toEqual([1, 2]);
    expect(view.locks[0].sha256).toBe(v1.active!.sha256);

    const out = join(dir, 'prereg.zh.md');
    const doc = await runCliInProcess([
      'preregistration',
      'prereg-cli',
      '--out',
      out,
      '--lang',
      'zh',
      ...data(),
    ]);
    expect(doc.code, doc.stderr).toBe(0);
    const expected = await withCore((core) =>
      core.call('experiments.preregistration', {
        experimentId: core.experiments.find('prereg-cli').id,
        lang: 'zh',
      }),
    );
    expect(readFileSync(out, 'utf8')).toBe(expected.markdown);
    expect(expected.markdown).toContain('第 2 版（现行）');
    expect(expected.markdown).toContain('取代第 1 版的理由：stricter α agreed with the co-authors');
  }, 300_000);

  // Issue 40 item 14: a plan file's "__proto__" (or "constructor"/"prototype") key is refused by
  // file, line and field, not dropped on the way to the schema.
  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses a plan with a "%s" key (exit 2)',
    async (key) => {
      const file = join(dir, `${key}.json`);
      writeFileSync(
        file,
        `{\n  "confirmatory": [${JSON.stringify(ids[0])}],\n  "${key}": { "alpha": 0.5 },\n  "stopping": "all"\n}\n`,
      );
      const r = await runCliInProcess([
        'preregister',
        'prereg-cli',
        '--plan',
        file,
        '--reason',
        'x',
        ...data(),
      ]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${key}.json: line 3: ${key}: is not allowed as a key`);
    },
  );

  // Issue 40 item 5: a lock whose stored content no longer hashes to its SHA-256 (the row edited in
  // the file, its trigger dropped first) is called tampered by every read, not only by verify.
  it('a tampered lock: preregistration says so (exit 1), doctor reports it, export and bundle export refuse', async () => {
    const plan = { confirmatory: [ids[0]], exclusions: 'none', stopping: 'all planned items' };
    await withCore(async (core) => {
      const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      const e = core.experiments.createOrUpdate({
        name: 'prereg-tampered',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 3,
        providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
      });
      await core.call('experiments.preregister', { experimentId: e.id, plan });
      // Finished, so that export and bundle export would otherwise go through.
      expect((await core.experiments.runToEnd(e.id)).status).toBe('finished');
    });
    const clean = await runCliInProcess(['preregistration', 'prereg-tampered', ...data()]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).not.toMatch(/TAMPERED/);
    // The results' tables: the locked comparison's rows read "confirmatory" while the lock holds.
    const analysisRoles = () =>
      withCore(async (core) => {
        const e = await core.call('experiments.find', { ref: 'prereg-tampered' });
        const r = await core.call('experiments.results', { experimentId: e.id });
        return r.tables
          .flatMap((t) => t.rows.map((row) => row[ANALYSIS_COLUMN]))
          .filter((v) => v !== undefined);
      });
    expect(await analysisRoles()).toContain('confirmatory');

    const db = new BetterSqlite3(join(dir, 'data', 'judge-lab.sqlite'));
    db.exec('DROP TRIGGER preregistrations_never_edited');
    db.prepare(
      `UPDATE preregistrations SET plan_json = json_set(plan_json, '$.alpha', 0.2)
        WHERE experiment_id = (SELECT id FROM experiments WHERE name = 'prereg-tampered')`,
    ).run();
    db.close();

    const doc = await runCliInProcess(['preregistration', 'prereg-tampered', ...data()]);
    expect(doc.code).toBe(1);
    expect(doc.stdout).toMatch(/\*\*TAMPERED:\*\* lock version 1/);
    expect(doc.stderr).toMatch(/TAMPERED: preregistration lock version 1 of experiment prereg-tampered/);
    const zh = await runCliInProcess(['preregistration', 'prereg-tampered', '--lang', 'zh', ...data()]);
    expect(zh.stdout).toContain('已被篡改');
    // A tampered plan makes nothing confirmatory in the results (the page says why, above them).
    expect(await analysisRoles()).toEqual([]);

    const doctor = await runCliInProcess(['doctor', ...data()]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/tampered lock/);
    expect(doctor.stdout).toMatch(/TAMPERED: preregistration lock version 1 of experiment "prereg-tampered"/);

    const out = join(dir, 'tampered-export');
    const exported = await runCliInProcess(['export', 'prereg-tampered', '--out', out, ...data()]);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toMatch(/Export of "prereg-tampered" refused\. TAMPERED/);
    expect(existsSync(join(out, 'metrics.json'))).toBe(false);

    const bundle = join(dir, 'tampered.judgelab');
    const b = await runCliInProcess(['bundle', 'export', 'prereg-tampered', '--out', bundle, ...data()]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/Bundle of "prereg-tampered" refused\. TAMPERED/);
    expect(existsSync(bundle)).toBe(false);
    // The experiment locked untouched still reads clean.
    const other = await runCliInProcess(['preregistration', 'prereg-cli', ...data()]);
    expect(other.code, other.stderr).toBe(0);
  }, 300_000);
});

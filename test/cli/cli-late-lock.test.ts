// Issue 32 item 6: a plan locked on a finished run is registered after data collection, never a
// preregistration. `judge-lab preregister` warns before it locks (how many answers are stored),
// and every place the lock shows says so: the view, manifest.json, the tables' Analysis column
// and captions (never "confirmatory"), Methods in English and Chinese, the checklist and
// preregistration.md; the bundle replays those marks identically. The store refuses to delete
// the lock on its own (the study would read as never preregistered).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;

beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup?.());

const data = () => join(dir, 'data');
const cli = (...args: string[]) => runCliInProcess([...args, '--data-dir', data()]);

describe('a plan locked after the data', () => {
  it('is warned about, and reads "registered after data collection" everywhere, never confirmatory', async () => {
    const config = join(dir, 'late.json');
    writeFileSync(
      config,
      JSON.stringify({
        name: 'late',
        protocol: 'judge-ls',
        dataset: join(ROOT, 'resources', 'samples', 'llmbar.jsonl'),
        limit: 4,
        providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
      }),
    );
    const run = await cli('run', config, '--out', join(dir, 'run'));
    expect(run.code, run.stderr).toBe(0);
    const list = await cli('list');
    const done = Number(/late\s+finished\s+(\d+)\/\1 calls done/.exec(list.stdout)?.[1]);
    expect(done).toBeGreaterThan(0);

    const plan = join(dir, 'plan.json');
    writeFileSync(
      plan,
      JSON.stringify({
        confirmatory: ['accuracy_change:EN-ZH'],
        exclusions: 'none',
        stopping: 'all planned items',
      }),
    );
    const lock = await cli('preregister', 'late', '--plan', plan);
    expect(lock.code, lock.stderr).toBe(0);
    expect(lock.stderr).toContain(
      `Warning: ${done} answers of experiment late are already stored: this plan is registered after data collection, not preregistered.`,
    );
    expect(lock.stdout).toContain(
      `(registered after data collection: ${done} answers were stored at the first lock)`,
    );

    const view = JSON.parse((await cli('preregistration', 'late', '--json')).stdout) as {
      afterData: { answers: number } | null;
      deviations: { kind: string; text: string }[];
      markdown: string;
    };
    expect(view.afterData?.answers).toBe(done);
    expect(view.deviations.find((d) => d.kind === 'locked_after_data')?.text).toMatch(
      new RegExp(`^Registered after data collection: .* when ${done} answers were already stored`),
    );
    expect(view.markdown).toContain('Registered after data collection, not a preregistration');
    expect(view.markdown).not.toContain('Confirmatory comparisons');

    const out = join(dir, 'out');
    expect((await cli('export', 'late', '--out', out)).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      preregistration: { registered_after_data_collection: boolean; answers_stored_at_first_lock: number };
    };
    expect(manifest.preregistration.registered_after_data_collection).toBe(true);
    expect(manifest.preregistration.answers_stored_at_first_lock).toBe(done);
    const tables = readdirSync(join(out, 'tables')).filter((f) => f.endsWith('.csv'));
    const marked = tables
      .map((f) => readFileSync(join(out, 'tables', f), 'utf8'))
      .filter((t) => t.includes(',Analysis'));
    expect(marked.length).toBeGreaterThan(0);
    for (const t of marked) {
      expect(t).toContain(',registered after data collection');
      expect(t).not.toMatch(/,confirmatory\r?\n/);
    }
    const methods = readFileSync(join(out, 'methods.md'), 'utf8');
    expect(methods).toContain('An analysis plan was registered after data collection');
    expect(methods).not.toContain('The comparisons it names are confirmatory');
    expect(methods).not.toMatch(/^- Confirmatory comparisons:/m);
    expect(readFileSync(join(out, 'checklist.md'), 'utf8')).toContain(
      'The analysis plan was registered after data collection',
    );
    const zh = join(dir, 'zh');
    expect((await cli('methods', 'late', '--out', zh, '--lang', 'zh')).code).toBe(0);
    const zhText = readFileSync(join(zh, 'methods.md'), 'utf8');
    expect(zhText).toContain('本实验的分析计划属于数据收集后登记');
    expect(zhText).not.toContain('其中列出的比较为验证性分析');

    const bundle = join(dir, 'late.judgelab');
    expect((await cli('bundle', 'export', 'late', '--out', bundle)).code).toBe(0);
    const verify = await cli('bundle', 'verify', bundle);
    expect(verify.stdout).toMatch(/Recomputed (\d+) files .*: \1 equal, 0 differ\./);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);

    // The store itself: the lock cannot be deleted on its own.
    const db = new BetterSqlite3(join(data(), 'judge-lab.sqlite'));
    try {
      expect(() => db.prepare('DELETE FROM preregistrations').run()).toThrow(/never deleted/);
    } finally {
      db.close();
    }
    const still = JSON.parse((await cli('preregistration', 'late', '--json')).stdout) as {
      active: { version: number } | null;
    };
    expect(still.active?.version).toBe(1);
  }, 600_000);

  it('is warned about when a config run again under the same name brings the plan', async () => {
    const base = {
      name: 'late-config',
      protocol: 'judge-ls',
      dataset: join(ROOT, 'resources', 'samples', 'llmbar.jsonl'),
      limit: 2,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
    };
    const plan = {
      confirmatory: ['accuracy_change:EN-ZH'],
      exclusions: 'none',
      stopping: 'all planned items',
    };
    const first = join(dir, 'late-config.json');
    writeFileSync(first, JSON.stringify(base));
    const run = await cli('run', first, '--out', join(dir, 'late-config-1'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('registered after data collection');
    const withPlan = join(dir, 'late-config-plan.json');
    writeFileSync(withPlan, JSON.stringify({ ...base, preregistration: plan }));
    const again = await cli('run', withPlan, '--out', join(dir, 'late-config-2'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /Warning: the config's preregistration was locked when \d+ answers of "late-config" were already stored: it is registered after data collection/,
    );
    // Once locked, running it again says nothing more.
    const third = await cli('run', withPlan, '--out', join(dir, 'late-config-3'));
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toContain('Warning: the config');
  }, 600_000);
});

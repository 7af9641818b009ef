// Issue 24 part 2 through the CLI: `judge-lab preregister EXP --plan FILE` locks a plan (exit 0,
// hash printed); locking again without --reason is refused (exit 2, the lock unchanged); with
// --reason a new version supersedes it; a bad plan names the file and field (exit 2, nothing
// locked); `judge-lab preregistration EXP --out FILE --lang zh` writes the document the API gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
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
});

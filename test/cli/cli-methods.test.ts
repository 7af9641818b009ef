// Issue 24: `judge-lab methods EXP --out DIR [--lang zh]` writes the very files the export folder
// holds (methods.md, methods.tex, checklist.md), in the language asked for; an unknown experiment
// is bad input (exit 2) and writes nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { MethodsFiles } from '../../src/shared/paper/methods';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
const expected: Record<'en' | 'zh', MethodsFiles> = {} as Record<'en' | 'zh', MethodsFiles>;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({ dataDir: join(dir, 'data'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  try {
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const exp = core.experiments.createOrUpdate({
      name: 'methods-cli',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 4,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
    });
    expect((await core.experiments.runToEnd(exp.id)).status).toBe('finished');
    for (const lang of ['en', 'zh'] as const)
      expected[lang] = await core.call('experiments.methods', { experimentId: exp.id, lang });
  } finally {
    await core.shutdown();
  }
}, 300_000);

afterAll(() => cleanup?.());

const read = (d: string): MethodsFiles => ({
  markdown: readFileSync(join(d, 'methods.md'), 'utf8'),
  latex: readFileSync(join(d, 'methods.tex'), 'utf8'),
  checklist: readFileSync(join(d, 'checklist.md'), 'utf8'),
});

describe('judge-lab methods', () => {
  it('writes the Methods files in English by default and in Chinese with --lang zh', async () => {
    const en = await runCliInProcess([
      'methods',
      'methods-cli',
      '--out',
      join(dir, 'en'),
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(en.code, en.stderr).toBe(0);
    expect(en.stdout).toContain('Wrote methods.md, methods.tex, checklist.md');
    expect(read(join(dir, 'en'))).toEqual(expected.en);
    expect(expected.en.markdown).toMatch(/^# Methods: methods-cli/);
    // The simulated demo says so above the first section.
    expect(expected.en.markdown).toContain(
      'Simulated: every answer came from the built-in simulated provider',
    );

    const zh = await runCliInProcess([
      'methods',
      'methods-cli',
      '--out',
      join(dir, 'zh'),
      '--lang',
      'zh',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(zh.code, zh.stderr).toBe(0);
    expect(read(join(dir, 'zh'))).toEqual(expected.zh);
    expect(expected.zh.markdown).toMatch(/^# 方法：methods-cli/);
  }, 300_000);

  it('refuses an experiment that does not exist (exit 2) and writes nothing', async () => {
    const r = await runCliInProcess([
      'methods',
      'no-such-experiment',
      '--out',
      join(dir, 'none'),
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no-such-experiment');
    expect(existsSync(join(dir, 'none'))).toBe(false);
  }, 300_000);
});

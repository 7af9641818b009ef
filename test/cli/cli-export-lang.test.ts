// Issue 15 item 9: `judge-lab export --lang zh` writes figures whose titles, axes and legends
// are Chinese; the default stays English; an unknown language is a usage error naming the choices.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({ dataDir: join(dir, 'data'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const exp = core.experiments.createOrUpdate({
    name: 'lang-export',
    protocol: 'judge-ls',
    dataset: dataset.id,
    limit: 4,
    providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
    transform: { provider: 'sim', model: 'sim-translator' },
    judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
  });
  expect((await core.experiments.runToEnd(exp.id)).status).toBe('finished');
  await core.shutdown();
});

afterAll(() => cleanup?.());

describe('judge-lab export --lang', () => {
  it('writes Chinese figure titles, axes and legends with --lang zh, English by default', async () => {
    const zh = await runCliInProcess([
      'export',
      'lang-export',
      '--out',
      join(dir, 'zh'),
      '--lang',
      'zh',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(zh.code, zh.stderr).toBe(0);
    const svg = readFileSync(join(dir, 'zh', 'figures', 'accuracy_by_language.svg'), 'utf8');
    expect(svg).toContain('各语言的评审准确率');
    expect(svg).toContain('准确率（%）');
    expect(svg).toContain('评审模型');
    expect(svg).not.toContain('Judge accuracy by language');

    const en = await runCliInProcess([
      'export',
      'lang-export',
      '--out',
      join(dir, 'en'),
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(en.code, en.stderr).toBe(0);
    expect(readFileSync(join(dir, 'en', 'figures', 'accuracy_by_language.svg'), 'utf8')).toContain(
      'Judge accuracy by language',
    );
    // Two full exports (tables, workbook, PNG figures): minutes on a loaded machine.
  }, 300_000);

  it('refuses a language it does not have, naming the choices', async () => {
    const r = await runCliInProcess([
      'export',
      'lang-export',
      '--out',
      join(dir, 'fr'),
      '--lang',
      'fr',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--lang.*fr.*en, zh/s);
  });
});

// Through a page's door (web app, desktop window) the API may not read or write server
// paths outside the data folder (issue 9, item 9): files go out as downloads instead.
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
let core: Core | undefined;
const cleanups: (() => void)[] = [];
afterEach(() => {
  core?.close();
  core = undefined;
  cleanups.splice(0).forEach((c) => c());
});

function dirs() {
  const data = tempDir();
  const outside = tempDir();
  cleanups.push(data.cleanup, outside.cleanup);
  return { dataDir: data.dir, outside: outside.dir };
}

const config = (dataset: string | number) => ({
  name: 'paths',
  protocol: 'judge-ls',
  dataset,
  limit: 2,
  providers: { local: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1' } },
  transform: { provider: 'local', model: 'm' },
  judges: [{ label: 'J', provider: 'local', model: 'm' }],
});

describe('paths through the web door', () => {
  it('refuses a config dataset file outside the data folder and imports nothing', async () => {
    const { dataDir, outside } = dirs();
    const file = join(outside, 'private.jsonl');
    copyFileSync(SAMPLE, file);
    core = new Core({ dataDir, door: 'web' });
    await expect(core.call('experiments.estimate', { config: config(file) })).rejects.toThrow(
      /dataset: a file outside the data folder/,
    );
    await expect(core.call('experiments.create', { config: config(file) })).rejects.toThrow(/dataset/);
    expect(await core.call('datasets.list', undefined)).toEqual([]);
  });

  it('reads a dataset file inside the data folder, and one named by id', async () => {
    const { dataDir } = dirs();
    mkdirSync(join(dataDir, 'incoming'));
    const file = join(dataDir, 'incoming', 'mine.jsonl');
    copyFileSync(SAMPLE, file);
    core = new Core({ dataDir, door: 'web' });
    const { id } = await core.call('experiments.create', { config: config(file) });
    expect(id).toBeGreaterThan(0);
    expect(await core.call('datasets.list', undefined)).toHaveLength(1);
  });

  it('exports only into the data folder, not to a path outside or through a link that leads out', async () => {
    const { dataDir, outside } = dirs();
    core = new Core({ dataDir, door: 'web' });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const { id } = await core.call('experiments.create', { config: config(dataset.id) });
    await expect(core.call('experiments.export', { experimentId: id, outDir: outside })).rejects.toThrow(
      /outDir: must be a folder inside the data folder/,
    );
    await expect(
      core.call('experiments.export', { experimentId: id, outDir: join(dataDir, '..', 'escape') }),
    ).rejects.toThrow(/outDir/);
    symlinkSync(outside, join(dataDir, 'link'));
    await expect(
      core.call('experiments.export', { experimentId: id, outDir: join(dataDir, 'link', 'x') }),
    ).rejects.toThrow(/outDir/);
    expect(readdirSync(outside)).toEqual([]);
    const ok = await core.call('experiments.export', { experimentId: id, outDir: join(dataDir, 'mine') });
    expect(ok.dir).toBe(join(dataDir, 'mine'));
    expect(existsSync(join(dataDir, 'mine', 'metrics.json'))).toBe(true);
  });

  it('from the command line, still reads and writes where the user says', async () => {
    const { dataDir, outside } = dirs();
    const file = join(outside, 'mine.jsonl');
    copyFileSync(SAMPLE, file);
    core = new Core({ dataDir, door: 'cli' });
    const { id } = await core.call('experiments.create', { config: config(file) });
    const r = await core.call('experiments.export', { experimentId: id, outDir: join(outside, 'out') });
    expect(existsSync(join(r.dir, 'metrics.json'))).toBe(true);
  });
});

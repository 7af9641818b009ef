// Issue 15 item 12: a dataset can be renamed; the name stays unique (configs may name a
// dataset) and non-empty, with errors that say which field is wrong.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

let done: (() => Promise<void>) | undefined;
afterEach(async () => {
  await done?.();
  done = undefined;
});

async function start() {
  const t = tempDir();
  const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  done = async () => {
    await core.shutdown();
    t.cleanup();
  };
  return core;
}

describe('datasets.rename', () => {
  it('renames, announces the change, and a config can use the new name', async () => {
    const core = await start();
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const seen: unknown[] = [];
    core.on('datasets.changed', (p) => seen.push(p));
    const renamed = await core.call('datasets.rename', { datasetId: dataset.id, name: '  Pilot set  ' });
    expect(renamed.name).toBe('Pilot set');
    expect((await core.call('datasets.list', undefined)).map((d) => d.name)).toContain('Pilot set');
    expect(seen).toEqual([{ datasetId: dataset.id }]);
    const exp = core.experiments.createOrUpdate({
      name: 'by new name',
      protocol: 'judge-ls',
      dataset: 'Pilot set',
      limit: 2,
      providers: { sim: { kind: 'simulated' } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'j', provider: 'sim', model: 'sim-judge-strong' }],
    });
    expect(exp.datasetId).toBe(dataset.id);
  });

  it('refuses an empty name, a name another dataset has, and an unknown dataset', async () => {
    const core = await start();
    const a = (await core.call('datasets.loadSample', { sampleId: 'llmbar' })).dataset;
    const b = (await core.call('datasets.loadSample', { sampleId: 'tydiqa' })).dataset;
    await expect(core.call('datasets.rename', { datasetId: a.id, name: '   ' })).rejects.toThrow(
      /name: a dataset needs a name/,
    );
    await expect(core.call('datasets.rename', { datasetId: a.id, name: b.name })).rejects.toThrow(
      /another dataset is called/,
    );
    await expect(core.call('datasets.rename', { datasetId: 9999, name: 'x' })).rejects.toThrow(
      /No dataset 9999/,
    );
    expect((await core.call('datasets.list', undefined)).find((d) => d.id === a.id)?.name).toBe(a.name);
  });
});

// The API methods `judge-lab import`, `run` and the commands that name an experiment go through
// (issue 21: the CLI calls Core.call like the other doors): import by path, find by name or id,
// create-or-continue with the experiment held until the core closes, run to the end, interrupt.
// Real store on disk, the simulated provider, the real backup and restore.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { ROOT } from '../helpers/cli';
import { backupStore, DB_FILE_NAME, restoreStore } from '../../src/main/facade/store-maintenance';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

const config = (dataset: number, limit = 2) => ({
  name: 'through the API',
  protocol: 'judge-ls',
  dataset,
  limit,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 8 } },
  transform: { provider: 'sim', model: 'sim-translator' },
  judges: [{ label: 'J', provider: 'sim', model: 'sim-judge-weak' }],
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function open(door: 'cli' | 'web'): { core: Core; dataDir: string } {
  const t = tempDir();
  const core = new Core({ dataDir: t.dir, door, keys: new EnvOnlyKeyStore({}) });
  cleanups.push(t.cleanup, () => core.shutdown());
  return { core, dataDir: t.dir };
}

describe("the command line's run methods", () => {
  it('finds an experiment by name or id, and names what it did not find', async () => {
    const { core } = open('cli');
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
    const made = await core.call('experiments.create', { config: config(dataset.id) });
    const byName = await core.call('experiments.find', { ref: 'through the API' });
    expect(byName).toEqual((await core.call('experiments.list', undefined))[0]);
    expect((await core.call('experiments.find', { ref: String(made.id) })).id).toBe(made.id);
    await expect(core.call('experiments.find', { ref: 'nope' })).rejects.toThrow(
      'No experiment named "nope" (see judge-lab list)',
    );
    await expect(core.call('experiments.find', { ref: '' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(core.call('experiments.find', { ref: 7 })).rejects.toMatchObject({
      code: 'invalid_params',
    });
  });

  it('creates, continues under the same name, holds the experiment until the core closes, and runs to the end', async () => {
    const { core, dataDir } = open('cli');
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
    const first = await core.call('experiments.createForRun', { config: config(dataset.id) });
    // Held: a restore (which waits for every lock in the data folder) is refused meanwhile.
    const store = join(dataDir, DB_FILE_NAME);
    const backup = join(dataDir, 'before.sqlite');
    await backupStore(store, backup);
    expect(() => restoreStore(store, backup)).toThrow(
      /Cannot restore while a run is going on this data folder: "through the API" \(in this process\)/,
    );
    const final = await core.call('experiments.runToEnd', { experimentId: first.id });
    expect(final.status).toBe('finished');
    expect(final.phases.judge.done).toBeGreaterThan(0);
    // Still held after the run ends (the CLI exports next).
    expect(() => restoreStore(store, backup)).toThrow(
      /Cannot restore while a run is going on this data folder: "through the API" \(in this process\)/,
    );
    // The same name continues it; a larger limit plans only what is missing.
    const again = await core.call('experiments.createForRun', { config: config(dataset.id, 3) });
    expect(again.id).toBe(first.id);
    expect(again.itemCount).toBe(3);
    const more = await core.call('experiments.runToEnd', { experimentId: first.id });
    expect(more.status).toBe('finished');
    expect(more.phases.judge.total).toBeGreaterThan(final.phases.judge.total);
    const stopped = await core.call('experiments.interrupt', { experimentId: first.id });
    expect(stopped.status).toBe('finished');
    core.close();
    expect(restoreStore(store, backup).keptAs).toBeDefined();
    expect(existsSync(store)).toBe(true);
  });

  it('imports a file the core reads by its path, once', async () => {
    const { core } = open('cli');
    const file = join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl');
    const first = await core.call('datasets.importFile', { path: file, name: 'demo' });
    expect(first.duplicate).toBe(false);
    expect(first.dataset).toMatchObject({ name: 'demo', itemCount: 20, sourceFile: 'llmbar-demo.jsonl' });
    const again = await core.call('datasets.importFile', { path: file });
    expect(again).toMatchObject({ duplicate: true, dataset: { id: first.dataset.id } });
    await expect(core.call('datasets.importFile', { path: join(ROOT, 'nope.jsonl') })).rejects.toThrow(
      /nope\.jsonl/,
    );
  });

  it("is refused through a page's door, before anything is written", async () => {
    const { core } = open('web');
    await expect(
      core.call('datasets.importFile', { path: join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl') }),
    ).rejects.toThrow(/command line's \(judge-lab import\); pages send the file with datasets.import/);
    expect(await core.call('datasets.list', undefined)).toEqual([]);
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
    await expect(core.call('experiments.createForRun', { config: config(dataset.id) })).rejects.toThrow(
      /command line's \(judge-lab run\); pages use experiments.create and experiments.start/,
    );
    expect(await core.call('experiments.list', undefined)).toEqual([]);
  });
});

// Issue 38 item 9: Duplicate makes a draft with the same setup, and that draft can be changed
// before it starts (another judge, more items, a new name); an experiment that has started keeps
// the setup its answers were made under. Real store, simulated provider, through Core.call.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

let core: Core | undefined;
let cleanup = () => {};
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  cleanup();
});

const SIM = { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 16 } };

async function withPilot() {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const config = {
    name: 'pilot',
    protocol: 'judge-ls',
    dataset: dataset.id,
    limit: 2,
    providers: SIM,
    transform: { provider: 'sim', model: 'sim-translator' },
    judges: [{ label: 'Strong', provider: 'sim', model: 'sim-judge-strong' }],
    tieProbes: false,
  };
  const { id } = await core.call('experiments.create', { config });
  expect((await core.experiments.runToEnd(id)).status).toBe('finished');
  return { core, id, config, datasetId: dataset.id };
}

describe('editing the setup of an experiment that has not started (issue 38)', () => {
  it('changes a duplicate before it runs, and the run follows the new setup', async () => {
    const { core, id, config } = await withPilot();
    const copy = await core.call('experiments.duplicate', { experimentId: id });
    const edited = await core.call('experiments.editSetup', {
      experimentId: copy.id,
      config: {
        ...config,
        name: 'pilot, two judges',
        limit: 3,
        judges: [...config.judges, { label: 'Weak', provider: 'sim', model: 'sim-judge-weak' }],
      },
    });
    expect(edited).toMatchObject({ id: copy.id, name: 'pilot, two judges', status: 'draft' });
    expect(edited.judges).toEqual(['Strong', 'Weak']);
    const detail = await core.call('experiments.get', { experimentId: copy.id });
    expect(detail.config).toMatchObject({ name: 'pilot, two judges', limit: 3 });
    expect((await core.experiments.runToEnd(copy.id)).status).toBe('finished');
    expect(edited.itemCount).toBe(3);
    const results = (await core.call('experiments.results', { experimentId: copy.id })) as {
      metrics: { quality: { judge: string; language: string; n: number }[] };
    };
    // Both judges, each with 3 items × 2 orders of English verdicts.
    expect(results.metrics.quality.filter((q) => q.language === 'EN').map((q) => [q.judge, q.n])).toEqual([
      ['Strong', 6],
      ['Weak', 6],
    ]);
    // The original is untouched.
    expect((await core.call('experiments.get', { experimentId: id })).config).toMatchObject({
      name: 'pilot',
      limit: 2,
    });
  });

  it('refuses once the experiment has started, and leaves a refused setup unwritten', async () => {
    const { core, id, config } = await withPilot();
    await expect(
      core.call('experiments.editSetup', { experimentId: id, config: { ...config, limit: 4 } }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/has started/) });
    expect((await core.call('experiments.get', { experimentId: id })).config).toMatchObject({ limit: 2 });

    const copy = await core.call('experiments.duplicate', { experimentId: id });
    const before = (await core.call('experiments.get', { experimentId: copy.id })).config;
    // Another experiment's name, then a config the protocol refuses: both leave the draft as it was.
    await expect(
      core.call('experiments.editSetup', { experimentId: copy.id, config: { ...config, name: 'pilot' } }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/named "pilot" exists/) });
    await expect(
      core.call('experiments.editSetup', {
        experimentId: copy.id,
        config: { ...config, name: 'x', judges: [] },
      }),
    ).rejects.toThrow(/judges/);
    expect((await core.call('experiments.get', { experimentId: copy.id })).config).toEqual(before);
    // Keeping its own name is no clash.
    await core.call('experiments.editSetup', {
      experimentId: copy.id,
      config: { ...config, name: 'pilot copy', limit: 1 },
    });
    expect((await core.call('experiments.get', { experimentId: copy.id })).config).toMatchObject({
      limit: 1,
    });
  });
});

// The bundled MT-Bench human set loads as a pairwise sample (200 pairs, human majority labels
// 101 × 1 and 99 × 2) that the bias probes can run on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { tempDir } from '../../helpers/tmp';

let core: Core;
let cleanup: () => void;
beforeAll(() => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
});
afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('the MT-Bench human sample', () => {
  it('loads 200 labelled pairs and runs pairwise position probes on them', async () => {
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'mtbench-human' });
    expect(dataset.itemCount).toBe(200);
    const rows = await core.call('items.list', { datasetId: dataset.id });
    const labels = await Promise.all(
      rows.map(async (r) => (await core.call('items.get', { itemId: r.id })).label),
    );
    expect(labels.filter((l) => l === 1)).toHaveLength(101);
    expect(labels.filter((l) => l === 2)).toHaveLength(99);
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'mtbench-position',
        protocol: 'bias-probes',
        dataset: dataset.name,
        limit: 20,
        mode: 'pairwise',
        probes: ['position'],
        providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
        judges: [{ label: 'Simulated judge', provider: 'sim', model: 'sim-judge' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const m = (await core.call('experiments.results', { experimentId: id })).metrics as BiasMetrics;
    expect(m.position.find((r) => r.category === 'all')!.n_pairs).toBe(20);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { selectDatasetItems } from '../../src/main/experiments/item-selection';
import type { Item } from '../../src/shared/domain';
import { tempDir } from '../helpers/tmp';

let core: Core | undefined;
let cleanup = () => {};
afterEach(async () => {
  await core?.shutdown();
  cleanup();
});

const item = (i: number, subset: string): Item =>
  ({
    id: i,
    sourceId: `S-${i}`,
    subset,
    instruction: 'q',
    output1: 'a',
    output2: 'b',
    label: 1,
  }) as unknown as Item;

describe('item selection', () => {
  const items = Array.from({ length: 100 }, (_, i) => item(i, i % 3 === 0 ? 'Natural' : 'Adversarial'));

  it('draws a random sample of N that the seed fixes, in dataset order', () => {
    const a = selectDatasetItems(items, { limit: 10, sample: 'random', seed: 7 });
    expect(a).toHaveLength(10);
    expect(selectDatasetItems(items, { limit: 10, sample: 'random', seed: 7 })).toEqual(a);
    // Not the first ten, and another seed draws another sample.
    expect(a.map((i) => i.id)).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(selectDatasetItems(items, { limit: 10, sample: 'random', seed: 8 })).not.toEqual(a);
    expect(a.map((i) => i.id)).toEqual([...a.map((i) => i.id)].sort((x, y) => x - y));
    // The dataset's order does not change which items are drawn.
    const reversed = selectDatasetItems([...items].reverse(), { limit: 10, sample: 'random', seed: 7 });
    expect(new Set(reversed.map((i) => i.id))).toEqual(new Set(a.map((i) => i.id)));
  });

  it('keeps only the chosen subsets, then takes the first N or a sample', () => {
    const natural = selectDatasetItems(items, { subsets: ['Natural'] });
    expect(natural).toHaveLength(34);
    expect(natural.every((i) => i.subset === 'Natural')).toBe(true);
    const sample = selectDatasetItems(items, { subsets: ['Natural'], limit: 5, sample: 'random', seed: 1 });
    expect(sample.every((i) => i.subset === 'Natural')).toBe(true);
    expect(sample).toHaveLength(5);
    expect(() => selectDatasetItems(items, { subsets: ['Natral'] })).toThrow(
      'subsets: no item is in "Natral" (the dataset has: Natural, Adversarial)',
    );
  });

  it('is a config any protocol gets: the experiment uses the sample, and bad combinations are config errors', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const base = {
      protocol: 'judge-ls',
      dataset: dataset.id,
      providers: { openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' } },
      transform: { provider: 'openai', model: 'gpt-4.1-mini' },
      judges: [{ label: 'GPT', provider: 'openai', model: 'gpt-4.1-mini' }],
    };
    const subset = dataset.subsets[0].subset;
    const exp = await core.call('experiments.create', {
      config: { ...base, name: 'sampled', limit: 4, sample: 'random', seed: 3, subsets: [subset] },
    });
    expect(exp.itemCount).toBe(4);
    const est = await core.call('experiments.estimate', {
      config: { ...base, name: 'sampled-2', limit: 4, sample: 'random', seed: 3, subsets: [subset] },
    });
    // 4 items: 2 translations and 8 verdicts each.
    expect(est.calls).toBe(4 * 2 + 4 * 8);
    await expect(
      core.call('experiments.create', { config: { ...base, name: 'x', sample: 'random' } }),
    ).rejects.toThrow(/sample.*"random" needs "limit"/);
    await expect(
      core.call('experiments.create', { config: { ...base, name: 'y', limit: 3, seed: 1 } }),
    ).rejects.toThrow(/seed.*only applies with "sample": "random"/);
    await expect(
      core.call('experiments.create', { config: { ...base, name: 'z', subsets: ['nope'] } }),
    ).rejects.toThrow(/subsets: no item is in "nope"/);
    expect((await core.call('experiments.list', undefined)).map((e) => e.name)).toEqual(['sampled']);
  });
});

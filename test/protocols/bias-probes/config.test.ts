// Config errors name the key: a length or format probe without a rewriter, a band on the wrong
// side of 1, an unknown key, and pairwise mode on a dataset with one response per item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
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

const base = {
  name: 'bias-config',
  protocol: 'bias-probes',
  dataset: 'LLMBar (sample)',
  providers: { sim: { kind: 'simulated', latencyMs: 0 } },
  judges: [{ label: 'J', provider: 'sim', model: 'sim-judge' }],
};

async function errorOf(config: Record<string, unknown>): Promise<string> {
  try {
    await core.call('experiments.create', { config });
  } catch (err) {
    return JSON.stringify({ message: (err as Error).message, issues: (err as { issues?: unknown }).issues });
  }
  throw new Error('expected the config to be refused');
}

describe('bias-probes config', () => {
  it('names the key of each problem', async () => {
    await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    expect(await errorOf({ ...base, probes: ['length'] })).toContain(
      'the length probe needs a \\"rewriter\\" model (or leave it out of \\"probes\\")',
    );
    // Only the probes chosen are named; with "probes" left out, the defaults that need one.
    const sentimentOnly = await errorOf({ ...base, probes: ['position', 'sentiment'] });
    expect(sentimentOnly).toContain('the sentiment probe needs');
    expect(sentimentOnly).not.toMatch(/rubric|length|format/);
    const defaults = await errorOf(base);
    expect(defaults).toContain('the length and format probes need');
    expect(defaults).toContain('they run when \\"probes\\" is not given');
    expect(defaults).not.toMatch(/rubric|sentiment/);
    expect(
      await errorOf({
        ...base,
        probes: ['position'],
        lengthBand: [0.8, 1.2],
        rewriter: { provider: 'sim', model: 'r' },
      }),
    ).toContain('lengthBand');
    expect(await errorOf({ ...base, probes: ['position'], scale: 7 })).toContain('scale');
    expect(await errorOf({ ...base, probes: ['position'], lenghtBand: [1.3, 1.7] })).toContain('lenghtBand');
  });

  it('refuses pairwise mode on a pointwise dataset, naming the item', async () => {
    const text = JSON.stringify({ id: 'p1', instruction: 'Q', response: 'R' }) + '\n';
    await core.call('datasets.import', {
      fileName: 'pointwise.jsonl',
      contentBase64: Buffer.from(text).toString('base64'),
      name: 'pointwise',
    });
    const message = await errorOf({ ...base, dataset: 'pointwise', probes: ['position'], mode: 'pairwise' });
    expect(message).toContain('p1');
    expect(message).toContain('pairwise dataset');
  });
});

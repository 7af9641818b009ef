// The keyless demo: the simulated provider answers this protocol's requests (rewrites and
// score_verdict / pairwise_verdict) plausibly, with some bias, so a bias-probes run finishes
// with variants that mostly pass the audit and effects in the direction real judges show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { tempDir } from '../../helpers/tmp';

let core: Core;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
});
afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

const config = (mode: 'pointwise' | 'pairwise') => ({
  name: `bias-simulated-${mode}`,
  protocol: 'bias-probes',
  dataset: 'LLMBar (sample)',
  limit: 40,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
  rewriter: { provider: 'sim', model: 'sim-rewriter' },
  judges: [{ label: 'Simulated judge', provider: 'sim', model: 'sim-judge' }],
  mode,
});

describe('bias probes on the simulated provider', () => {
  it('estimates the calls before anything was rewritten (variants stood in for)', async () => {
    const est = await core.call('experiments.estimate', { config: config('pointwise') });
    // 40 items × 2 outputs: 3 rewrites each; judge: original, longer, shorter, plain, Markdown
    // each, and 4 pair-shown scores per item.
    expect(est.calls).toBe(40 * 2 * 3 + 40 * (2 * 5 + 4));
    expect(est.note).toContain('stand-in');
  });

  it('runs pointwise to the end with audited variants and a positive length effect', async () => {
    const { id } = await core.call('experiments.create', { config: config('pointwise') });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.simulated).toBe(true);
    const m = results.metrics as BiasMetrics;
    const longer = m.audit.variants.find((v) => v.variant === 'longer')!;
    expect(longer.made).toBe(80);
    // About one longer rewrite in twenty falls short on purpose; most pass.
    expect(longer.flagged).toBeLessThan(longer.made / 4);
    const effect = m.probes.find((r) => r.category === 'all' && r.effect === 'longer')!;
    expect(effect.n).toBeGreaterThan(60);
    expect(effect.mean).toBeGreaterThan(0);
    expect(m.probes.some((r) => r.effect === 'markdown')).toBe(true);
    expect(m.probes.some((r) => r.effect === 'position')).toBe(true);
  }, 120_000);

  it('runs pairwise to the end with a position-A rate and swap consistency', async () => {
    const { id } = await core.call('experiments.create', { config: config('pairwise') });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const m = (await core.call('experiments.results', { experimentId: id })).metrics as BiasMetrics;
    const pos = m.position.find((r) => r.category === 'all')!;
    expect(pos.n_pairs).toBeGreaterThan(30);
    expect(pos.position_a_rate).toBeGreaterThan(0.4);
    expect(m.probes.some((r) => r.effect === 'longer' && r.flip_rate !== undefined)).toBe(true);
  }, 120_000);
});

// The keyless demo: the simulated provider answers this protocol's requests (rewrites and
// score_verdict / pairwise_verdict) plausibly, with some bias, so a bias-probes run finishes
// with variants that mostly pass the audit and effects in the direction real judges show.
import { describe, expect, it } from 'vitest';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { useSampleCore } from '../../helpers/sample-core';

const sample = useSampleCore('llmbar');

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
    const est = await sample.core.call('experiments.estimate', { config: config('pointwise') });
    // 40 items × 2 outputs: 3 rewrites each; judge: original, longer, shorter, plain, Markdown
    // each, and 4 pair-shown scores per item.
    expect(est.calls).toBe(40 * 2 * 3 + 40 * (2 * 5 + 4));
    expect(est.note).toContain('stand-in');
  });

  it('runs pointwise to the end with audited variants and a positive length effect', async () => {
    const { id } = await sample.core.call('experiments.create', { config: config('pointwise') });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const results = await sample.core.call('experiments.results', { experimentId: id });
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
    const { id } = await sample.core.call('experiments.create', { config: config('pairwise') });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const m = (await sample.core.call('experiments.results', { experimentId: id })).metrics as BiasMetrics;
    const pos = m.position.find((r) => r.category === 'all')!;
    expect(pos.n_pairs).toBeGreaterThan(30);
    expect(pos.position_a_rate).toBeGreaterThan(0.4);
    expect(m.probes.some((r) => r.effect === 'longer' && r.flip_rate !== undefined)).toBe(true);
  }, 120_000);
});

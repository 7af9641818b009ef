// Human ratings of bias-probe experiments: pointwise, people score each response alone on the
// judge's scale; pairwise, they prefer one output of the pair. The agreement report puts each
// judge's raw and debiased scores beside each other. Answered by the keyless simulated provider.
import { describe, expect, it } from 'vitest';
import { setItems } from '../../src/main/annotation/store';
import { useSampleCore } from '../helpers/sample-core';

const sample = useSampleCore('llmbar');

const config = (mode: 'pointwise' | 'pairwise') => ({
  name: `bias-human-${mode}`,
  protocol: 'bias-probes',
  dataset: 'LLMBar (sample)',
  limit: 20,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
  rewriter: { provider: 'sim', model: 'sim-rewriter' },
  judges: [{ label: 'Secret judge', provider: 'sim', model: 'sim-judge' }],
  mode,
});

async function ratedSet(mode: 'pointwise' | 'pairwise', label: (key: string, i: number) => string) {
  const { id } = await sample.core.call('experiments.create', { config: config(mode) });
  expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
  const set = await sample.core.call('annotation.createSet', { experimentId: id, size: 20, seed: 2 });
  const session = await sample.core.call('annotation.session', { setId: set.id, annotator: 'ana' });
  expect(JSON.stringify(session)).not.toContain('Secret judge');
  const keys = setItems(sample.core.db, set.id).map((i) => i.itemKey);
  const column = mode === 'pairwise' ? 'preference' : 'score';
  const csv = [`item_id,annotator,${column}`, ...keys.map((k, i) => `"${k}",ana,${label(k, i)}`)];
  await sample.core.call('annotation.importLabels', {
    setId: set.id,
    fileName: 'labels.csv',
    contentBase64: Buffer.from(csv.join('\n')).toString('base64'),
  });
  return { set, session, keys, report: await sample.core.call('annotation.agreement', { setId: set.id }) };
}

describe('bias-probe experiments rated by people', () => {
  it('pointwise: one response per unit on the judge scale, raw and debiased judge rows', async () => {
    const { set, session, keys, report } = await ratedSet('pointwise', (_, i) => String(1 + (i % 5)));
    expect(set.scale).toEqual({ kind: 'score', min: 1, max: 5 });
    expect(session.items[0].view.responses).toHaveLength(1);
    expect(keys.every((k) => /#output_[12]$/.test(k))).toBe(true);
    expect(report.judge_human.map((r) => [r.judge, r.variant])).toEqual([
      ['Secret judge', 'raw'],
      ['Secret judge', 'debiased'],
    ]);
    for (const r of report.judge_human) expect(r.n).toBe(20);
  }, 120_000);

  it('pairwise: both outputs in the original order, preferences against the judge', async () => {
    const { set, session, keys, report } = await ratedSet('pairwise', (_, i) => ['1', '2', '1'][i % 3]);
    expect(set.scale).toEqual({ kind: 'preference' });
    expect(session.items[0].view.responses).toHaveLength(2);
    expect(keys.some((k) => k.includes('#'))).toBe(false);
    const raw = report.judge_human.find((r) => r.variant === 'raw')!;
    expect(raw.judge).toBe('Secret judge');
    expect(raw.n).toBe(20);
    expect(report.judge_human.some((r) => r.variant === 'debiased')).toBe(true);
  }, 120_000);
});

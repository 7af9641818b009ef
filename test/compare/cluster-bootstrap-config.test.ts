// The config's "ci" and the experiment's seed reach the metrics and the exported tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock;
beforeAll(async () => {
  env = await startLlmbarMock();
});
afterAll(() => env?.close());

const config = (extra: Record<string, unknown>) => ({
  name: `boot-${JSON.stringify(extra).length}`,
  protocol: 'judge-ls',
  dataset: env.datasetId,
  limit: 10,
  providers: { o: { kind: 'openai', baseURL: `${env.mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
  transform: { provider: 'o', model: 'gpt-4.1-mini', languages: ['ZH'] },
  judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
  tieProbes: false,
  ...extra,
});

describe('"ci": "cluster-bootstrap" in a Judge-LS config', () => {
  it('makes the tables show the item-clustered intervals, seeded as configured', async () => {
    const { core } = env;
    const { id } = await core.call('experiments.create', {
      config: config({ ci: 'cluster-bootstrap', options: { bootstrapB: 500, bootstrapSeed: 5 } }),
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const results = await core.call('experiments.results', { experimentId: id });
    const metrics = results.metrics as JudgeLsMetrics;
    expect(metrics.statistics).toEqual({
      ci: 'cluster-bootstrap',
      bootstrap_b: 500,
      bootstrap_seed: 5,
      resampling_unit: 'item',
    });
    const quality = results.tables.find((t) => t.id === 'quality')!;
    expect(quality.caption).toContain('item-clustered bootstrap 95% CI, B = 500, seed 5');
    expect(quality.rows.map((r) => r.accuracy_strict_ci)).toEqual(
      metrics.quality.map((r) => r.accuracy_strict_ci_boot),
    );
    // Wilson's interval stays in metrics.json beside it.
    expect(metrics.quality[0].accuracy_strict_ci).not.toEqual(metrics.quality[0].accuracy_strict_ci_boot);
    const file = await core.call('experiments.exportFile', {
      experimentId: id,
      target: { table: 'invariance', format: 'csv' },
    });
    const csv = Buffer.from(file.contentBase64, 'base64').toString('utf8');
    expect(csv.split(/\r?\n/)[0]).toContain('Holm p');
  });

  it('refuses an unknown interval method, naming the key', async () => {
    await expect(
      env.core.call('experiments.create', { config: config({ ci: 'bayes' }) }),
    ).rejects.toMatchObject({
      issues: expect.arrayContaining([expect.objectContaining({ field: 'ci' })]),
    });
  });
});

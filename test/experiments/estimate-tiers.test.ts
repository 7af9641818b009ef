// The estimate's four ways to pay, per model (issue 39): the standard rate, the Batch API, OpenAI's
// flex tier and an export for one's own cluster, each priced from the table and timed, offered
// only where the provider has it; and the CLI's estimate says them.
import { afterEach, describe, expect, it } from 'vitest';
import { estimateText } from '../../src/main/cli/progress';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

let core: Core | undefined;
let cleanup = () => {};
afterEach(async () => {
  await core?.shutdown();
  cleanup();
});

describe('the estimate per model and tier', () => {
  it('prices standard, Batch API, flex and cluster export for each model, where its provider has them', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const estimate = await core.call('experiments.estimate', {
      config: {
        name: 'tiers',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 5,
        providers: {
          openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', rpm: 500 },
          anthropic: { kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', rpm: 50 },
          cluster: { kind: 'openai', baseURL: 'http://gpu-node:8000/v1' },
        },
        transform: { provider: 'openai', model: 'gpt-4.1-mini' },
        judges: [
          { label: 'GPT', provider: 'openai', model: 'gpt-4.1' },
          { label: 'Claude', provider: 'anthropic', model: 'claude-haiku-4-5' },
          { label: 'Qwen', provider: 'cluster', model: 'Qwen/Qwen2.5-7B-Instruct' },
        ],
      },
    });
    const tiers = new Map((estimate.tiers ?? []).map((x) => [x.label, x]));
    const gpt = tiers.get('GPT')!;
    expect(gpt.calls).toBeGreaterThan(0);
    expect(gpt.standard.usd).toBeGreaterThan(0);
    // The table's batch prices are half of list for these models; flex bills OpenAI's batch prices.
    expect(gpt.batch!.usd).toBeCloseTo(gpt.standard.usd / 2, 10);
    expect(gpt.flex!.usd).toBeCloseTo(gpt.batch!.usd, 10);
    expect(gpt.batch!.windowHours).toBe(24);
    expect(gpt.flex!.minutes).toBeGreaterThanOrEqual(gpt.standard.minutes);
    expect(gpt.standard.minutes).toBeGreaterThan(0);
    expect(gpt.cluster.usd).toBe(0);
    // Its calls at 500 RPM take at least calls / 500 minutes.
    expect(gpt.standard.minutes).toBeGreaterThanOrEqual(gpt.calls / 500);
    // Anthropic has a Batch API, no flex; a vLLM server has neither, and no price.
    const claude = tiers.get('Claude')!;
    expect(claude.batch).toBeDefined();
    expect(claude.flex).toBeUndefined();
    expect(claude.standard.minutes).toBeGreaterThanOrEqual(claude.calls / 50);
    const qwen = tiers.get('Qwen')!;
    expect(qwen).toMatchObject({ priced: false, cluster: { usd: 0 } });
    expect(qwen.batch).toBeUndefined();
    expect(qwen.flex).toBeUndefined();
    // The standard figures add up to the estimate's own cost (nothing is answered yet).
    const sum = [...tiers.values()].reduce((n, x) => n + x.standard.usd, 0);
    expect(sum).toBeCloseTo(estimate.costUsd, 10);

    const text = estimateText(estimate);
    expect(text).toContain('Ways to pay for what is left (per model):');
    expect(text).toMatch(/GPT \(judge, gpt-4\.1\), \d+ calls:/);
    expect(text).toContain(`    flex            $${gpt.flex!.usd.toFixed(2)}`);
    expect(text).toContain(`    Batch API       $${gpt.batch!.usd.toFixed(2)}`);
    expect(text).toContain('    cluster export  $0.00        at API prices');

    // Which tier the config sends each on (the wizard marks it): standard here; flex and Batch
    // API when the providers say so.
    expect([...tiers.values()].map((x) => x.chosen)).toEqual([
      'standard',
      'standard',
      'standard',
      'standard',
    ]);
    const chosen = await core.call('experiments.estimate', {
      config: {
        name: 'tiers-chosen',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 1,
        providers: {
          openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', serviceTier: 'flex' },
          anthropic: { kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', mode: 'batch' },
        },
        transform: { provider: 'anthropic', model: 'claude-haiku-4-5' },
        judges: [{ label: 'GPT', provider: 'openai', model: 'gpt-4.1' }],
      },
    });
    expect(Object.fromEntries((chosen.tiers ?? []).map((x) => [x.model, x.chosen]))).toEqual({
      'claude-haiku-4-5': 'batch',
      'gpt-4.1': 'flex',
    });
  });
});

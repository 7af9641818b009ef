// What the estimate says a full LLMBar run costs (419 items, both orders, 3 judges × 5 repeats,
// real model ids and the built-in price table): every repeat is its own call, so the repeats cost
// K − 1 = 4 times the first asks, shown as their own rows ("repeat" beside "first-ask"); and a
// run that already stored the first asks (sample 0) of the same prompts pays only for the repeats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
import { tempDir } from '../../helpers/tmp';

let core: Core;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

const LLMBAR_3X5 = {
  name: 'llmbar-self-consistency',
  protocol: 'self-consistency',
  dataset: 'LLMBar (sample)',
  providers: {
    openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', rpm: 500, tpm: 200000 },
    anthropic: { kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', rpm: 50 },
    gemini: {
      kind: 'openai',
      baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
      apiKeyEnv: 'GEMINI_API_KEY',
      rpm: 1000,
    },
  },
  judges: [
    { label: 'GPT-4o mini', provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 },
    { label: 'Claude 3.5 Haiku', provider: 'anthropic', model: 'claude-3-5-haiku', temperature: 0.7 },
    { label: 'Gemini 2.5 Flash', provider: 'gemini', model: 'gemini-2.5-flash', temperature: 0.7 },
  ],
  repeats: 5,
  orders: 'both',
};

describe('the estimate of a 419-item LLMBar run with 3 judges × 5 repeats', () => {
  it('counts 12,570 calls, the repeats four times the first asks, all priced', async () => {
    const e = await core.call('experiments.estimate', { config: LLMBAR_3X5 });
    expect(e.calls).toBe(419 * 2 * 3 * 5);
    expect(e.unpricedModels).toEqual([]);
    const by = (kind: string) => e.rows.filter((r) => r.kind === kind);
    expect(by('first-ask').reduce((s, r) => s + r.calls, 0)).toBe(419 * 2 * 3);
    expect(by('repeat').reduce((s, r) => s + r.calls, 0)).toBe(419 * 2 * 3 * 4);
    for (const first of by('first-ask')) {
      const repeat = by('repeat').find((r) => r.label === first.label)!;
      // The same prompts: four repeats cost four first asks (tokens exactly, cost within the
      // prompt-cache write a first call may carry).
      expect(repeat.inputTokens).toBe(4 * first.inputTokens);
      expect(repeat.costUsd).toBeGreaterThan(3.9 * first.costUsd);
      expect(repeat.costUsd).toBeLessThanOrEqual(4 * first.costUsd + 1e-9);
    }
    const cost = (rows: typeof e.rows) => rows.reduce((s, r) => s + r.costUsd, 0);
    // For the report (issue 23): the whole run, the first asks, the repeats.
    console.info(
      `LLMBar 419 × 2 orders × 3 judges × 5 repeats: ${e.calls} calls, $${e.costUsd.toFixed(2)} ` +
        `(first asks $${cost(by('first-ask')).toFixed(2)}, repeats $${cost(by('repeat')).toFixed(2)}), ` +
        `~${Math.round(e.minutesAtRateLimits)} min at the rate limits; ` +
        e.rows.map((r) => `${r.label} ${r.kind} ${r.calls} calls $${r.costUsd.toFixed(2)}`).join('; '),
    );
  }, 120_000);
});

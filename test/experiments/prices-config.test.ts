import { describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../../src/main/experiments/config';
import { pricesOf } from '../../src/main/experiments/load';
// The built-in protocols, registered as the core registers them (the config reads their registry).
import '../../src/main/protocols';
import { costOf, DEFAULT_PRICES } from '../../src/main/providers/pricing';

const base = {
  name: 'p',
  protocol: 'judge-ls',
  dataset: 1,
  providers: { openai: { kind: 'openai' } },
  transform: { provider: 'openai', model: 'gpt-4.1-mini' },
  judges: [{ label: 'J', provider: 'openai', model: 'gpt-4.1-mini' }],
};

describe('prices in the experiment config', () => {
  it('replace the shipped entry of a model as a whole and leave the others', () => {
    const prices = pricesOf(
      parseExperimentConfig({ ...base, prices: { 'gpt-4.1-mini': { input: 1, output: 2 } } }),
    );
    expect(prices['gpt-4.1-mini']).toMatchObject({ input: 1, output: 2, cachedInput: 1 });
    expect(prices['gpt-4.1-mini'].batchInput).toBeUndefined();
    expect(prices['gpt-4.1']).toEqual(DEFAULT_PRICES['gpt-4.1']);
    const usage = { inputTokens: 1_000_000, outputTokens: 500_000, cachedInputTokens: 0 };
    expect(costOf('gpt-4.1-mini', usage, prices).usd).toBeCloseTo(2, 10);
  });

  it('price a local model that the shipped table does not know', () => {
    const prices = pricesOf(
      parseExperimentConfig({ ...base, prices: { 'qwen2.5:7b': { input: 0.1, output: 0.1 } } }),
    );
    expect(costOf('qwen2.5:7b', { inputTokens: 1e6, outputTokens: 0, cachedInputTokens: 0 }, prices)).toEqual(
      {
        usd: 0.1,
        priced: true,
      },
    );
  });

  it('reject an unknown price field by name', () => {
    expect(() =>
      parseExperimentConfig({ ...base, prices: { m: { input: 1, output: 1, batch: 1 } } }),
    ).toThrow(/prices\.m\.batch: unknown key/);
  });
});

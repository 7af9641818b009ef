// prices.get through the core: the shipped price per model (with the names the providers'
// APIs use), unpriced local models, the table's date, and bad parameters refused.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { AppError } from '../../src/main/base/errors';
import { tempDir } from '../helpers/tmp';

let core: Core;
let cleanup: () => void;

beforeAll(() => {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  core = new Core({ dataDir: tmp.dir, door: 'cli' });
});

afterAll(() => {
  core.close();
  cleanup();
});

describe('prices.get', () => {
  it('returns the shipped input, cached input and output price per model, in the order asked', async () => {
    const { rows } = await core.call('prices.get', {
      models: ['gpt-4.1-mini', 'claude-haiku-4-5-20251001', 'openai/gpt-4o', 'deepseek-chat'],
    });
    expect(rows).toEqual([
      { model: 'gpt-4.1-mini', price: { input: 0.4, cachedInput: 0.1, output: 1.6 }, source: 'shipped' },
      {
        model: 'claude-haiku-4-5-20251001',
        price: { input: 1.0, cachedInput: 0.1, output: 5.0 },
        source: 'shipped',
      },
      { model: 'openai/gpt-4o', price: { input: 2.5, cachedInput: 1.25, output: 10.0 }, source: 'shipped' },
      { model: 'deepseek-chat', price: { input: 0.28, cachedInput: 0.028, output: 0.42 }, source: 'shipped' },
    ]);
  });

  it('marks local and unknown models unpriced, with no price', async () => {
    const { rows } = await core.call('prices.get', { models: ['qwen2.5:7b', 'my-finetune'] });
    expect(rows).toEqual([
      { model: 'qwen2.5:7b', price: null, source: 'unpriced' },
      { model: 'my-finetune', price: null, source: 'unpriced' },
    ]);
  });

  it("names the date the shipped table's comment gives", async () => {
    const source = readFileSync(new URL('../../src/main/providers/pricing.ts', import.meta.url), 'utf8');
    const named = /as known\s*(?:\/\/\s*)?on (\d{4}-\d{2}-\d{2})/.exec(source)?.[1];
    expect(named).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await core.call('prices.get', { models: [] })).asOf).toBe(named);
  });

  it('refuses parameters without a list of model names', async () => {
    await expect(core.call('prices.get', { models: 'gpt-4.1' })).rejects.toThrow(
      /Invalid parameters for prices\.get: models/,
    );
    await expect(core.call('prices.get', { models: [''] })).rejects.toBeInstanceOf(AppError);
    await expect(core.call('prices.get', undefined)).rejects.toThrow(/prices\.get/);
  });
});

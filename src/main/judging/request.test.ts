// The model part every study's request is planned from (bias probes, reference sensitivity): the
// request hashes stored answers are found by depend on exactly these fields.
import { describe, expect, it } from 'vitest';
import { modelRequest } from './request';

describe('modelRequest', () => {
  it('sends temperature 0 when the config leaves it out, and the study cap when the entry has none', () => {
    expect(modelRequest({ provider: 'openai', model: 'm' }, 512)).toEqual({
      provider: 'openai',
      model: 'm',
      temperature: 0,
      maxOutputTokens: 512,
    });
  });
  it('sends no temperature for null (a model that refuses it), and keeps the entry’s own cap', () => {
    const r = modelRequest(
      { provider: 'anthropic', model: 'm', temperature: null, maxOutputTokens: 64 },
      512,
    );
    expect(r).toEqual({ provider: 'anthropic', model: 'm', maxOutputTokens: 64 });
    expect('temperature' in r).toBe(false);
  });
  it('keeps a temperature the config sets', () => {
    expect(modelRequest({ provider: 'openai', model: 'm', temperature: 0.7 }, 8).temperature).toBe(0.7);
  });
});

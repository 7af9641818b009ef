import { describe, expect, it } from 'vitest';
import type { ChatRequestSpec } from '../../src/main/providers/types';
import { canonicalJson, canonicalRequest, canonicalRequestJson } from '../../src/main/store/ledger';

const VERDICT = {
  name: 'pairwise_verdict',
  schema: {
    type: 'object',
    required: ['winner', 'confidence', 'reason'],
    properties: { winner: { enum: ['A', 'B', 'tie'], type: 'string' }, reason: { type: 'string' } },
    additionalProperties: false,
  },
};

const base: ChatRequestSpec = {
  provider: 'openai',
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'Which is better? "A" or \u2028 B\n\u0000 — 中文' }],
};

// The ledger's request hash is the sha256 of this text: stored experiments keep their rows only
// if the written-out form equals the general sorted form byte for byte.
const cases: [string, ChatRequestSpec][] = [
  ['bare', base],
  [
    'everything',
    { ...base, system: 'sys', temperature: 0.7, maxOutputTokens: 300, response: VERDICT, sample: 2 },
  ],
  ['sample 0 left out', { ...base, response: VERDICT, sample: 0 }],
  ['temperature 0', { ...base, temperature: 0, maxOutputTokens: 1 }],
  [
    'several messages',
    {
      ...base,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'c' },
      ],
    },
  ],
  ['schema with a description', { ...base, response: { ...VERDICT, description: 'd' } }],
  ['no content (general path)', { ...base, messages: [{ role: 'user' } as never] }],
];

describe('canonicalRequestJson', () => {
  it.each(cases)('%s: equals the sorted canonical JSON', (_, spec) => {
    const general = canonicalJson(canonicalRequest('https://api.openai.com/v1', spec));
    expect(canonicalRequestJson('https://api.openai.com/v1', spec)).toBe(general);
    // A second time (the schema's sorted form is remembered) gives the same text.
    expect(canonicalRequestJson('https://api.openai.com/v1', spec)).toBe(general);
  });

  it('sorts a shared schema again when it was changed in place', () => {
    const response = { name: 'v', schema: { b: 1, a: 2 } as Record<string, unknown> };
    const spec = { ...base, response };
    canonicalRequestJson('e', spec);
    response.schema = { c: 3 };
    expect(canonicalRequestJson('e', spec)).toBe(canonicalJson(canonicalRequest('e', spec)));
  });
});

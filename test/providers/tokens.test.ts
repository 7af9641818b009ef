// Token counts for estimates and TPM budgets: the same as the tokenizer's, counted once per text,
// and a text that contains a special token's spelling is counted, not refused.
import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { estimateInputTokens } from '../../src/main/providers/tokens';
import type { ChatRequestSpec } from '../../src/main/providers/types';

const spec = (user: string): ChatRequestSpec => ({
  provider: 'p',
  model: 'm',
  system: 'You are a careful judge. Answer in JSON.',
  messages: [{ role: 'user', content: user }],
  response: { name: 'verdict', schema: { type: 'object', properties: { winner: { type: 'string' } } } },
});

describe('input token estimate', () => {
  it("is the tokenizer's count plus the per-message framing, again and again", () => {
    const s = spec('Which answer follows the instruction better? 哪个回答更好？');
    const expected =
      encode(s.system!).length +
      4 +
      encode(s.messages[0].content).length +
      4 +
      encode(JSON.stringify(s.response!.schema)).length;
    expect(estimateInputTokens(s)).toBe(expected);
    expect(estimateInputTokens(s)).toBe(expected);
  });

  it('counts a dataset text that spells a special token instead of throwing', () => {
    const s = spec('The model printed <|endoftext|> and stopped.');
    expect(() => encode(s.messages[0].content)).toThrow(/special token/);
    expect(estimateInputTokens(s)).toBeGreaterThan(
      estimateInputTokens(spec('The model printed and stopped.')),
    );
  });
});

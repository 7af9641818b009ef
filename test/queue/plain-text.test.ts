// Requests without a schema ask for a plain-text answer (generated QA answers): no
// response_format, no tool, no schema in the prompt, in every structured-output mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatAdapter } from '../../src/main/providers/anthropic';
import { ProviderError } from '../../src/main/providers/errors';
import { OpenAIChatAdapter } from '../../src/main/providers/openai';
import { requestHash } from '../../src/main/store/ledger';
import type { ChatRequestSpec } from '../../src/main/providers/types';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { anthropicMock, openaiMock, verdictSpec } from './helpers';

const KEY = 'sk-test-plain';
let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY, respond: () => 'Paris, the capital of France.' });
});
afterAll(() => mock.close());

const spec = (): ChatRequestSpec => ({
  provider: 'p',
  model: 'gpt-4.1-mini',
  system: 'Answer in the language of the question.',
  messages: [{ role: 'user', content: 'What is the capital of France?' }],
  temperature: 0,
});

describe('plain-text answers', () => {
  for (const mode of ['json_schema', 'json_object', 'text'] as const) {
    it(`openai kind (${mode}): no response_format, the text comes back as it is`, async () => {
      const res = await new OpenAIChatAdapter(openaiMock(mock.url, { structuredOutput: mode }), KEY).send(
        spec(),
      );
      expect(res.result.json).toBe('Paris, the capital of France.');
      expect(res.result.text).toBe('Paris, the capital of France.');
      const sent = mock.bodies.at(-1)!;
      expect(sent.body.response_format).toBeUndefined();
      expect(sent.system).toBe('Answer in the language of the question.');
    });
  }

  it('anthropic kind: no tool, the text comes back as it is', async () => {
    const res = await new AnthropicChatAdapter(anthropicMock(mock.url), KEY).send(spec());
    expect(res.result.json).toBe('Paris, the capital of France.');
    const sent = mock.bodies.at(-1)!;
    expect(sent.body.tools).toBeUndefined();
    expect(sent.body.tool_choice).toBeUndefined();
    expect(sent.system).toBe('Answer in the language of the question.');
  });

  it('an empty answer is unparseable (asked again, then recorded failed)', async () => {
    mock.setBehavior({ respond: () => '   ' });
    const err = await new OpenAIChatAdapter(openaiMock(mock.url), KEY).send(spec()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('unparseable');
    mock.setBehavior({ respond: () => 'Paris, the capital of France.' });
  });

  it('hashes apart from the same request with a schema; structured hashes are unchanged by the option', () => {
    const withSchema = { ...spec(), response: verdictSpec(1).response };
    expect(requestHash('e', spec())).not.toBe(requestHash('e', withSchema));
    expect(requestHash('e', { ...spec(), response: undefined })).toBe(requestHash('e', spec()));
  });
});

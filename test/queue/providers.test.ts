import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatAdapter } from '../../src/main/providers/anthropic';
import { endpointId, EnvKeyStore, providerConfigSchema } from '../../src/main/providers/config';
import { ProviderError } from '../../src/main/providers/errors';
import { OpenAIChatAdapter } from '../../src/main/providers/openai';
import { costOf, estimateCost, mergePrices, priceFor } from '../../src/main/providers/pricing';
import { extractJsonObject } from '../../src/main/providers/structured';
import { testConnection } from '../../src/main/providers/test-connection';
import { startMockProvider, type Fault, type MockProvider } from '../mock-provider/server';
import { anthropicMock, openaiMock, verdictSpec } from './helpers';

const KEY = 'sk-test-SECRET123';
let mock: MockProvider;

beforeAll(async () => {
  mock = await startMockProvider({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() =>
  mock.setBehavior({
    faultQueue: [],
    cachedTokens: 0,
    respond: () => ({ winner: 'B', confidence: 0.9, reason: 'clearer' }),
  }),
);

async function sendError(adapter: { send: OpenAIChatAdapter['send'] }): Promise<ProviderError> {
  try {
    await adapter.send(verdictSpec(1));
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('openai kind against the mock', () => {
  it('asks for json_schema (strict) and returns the parsed answer with cached-token usage', async () => {
    mock.setBehavior({ cachedTokens: 3 });
    const res = await new OpenAIChatAdapter(openaiMock(mock.url), KEY).send(verdictSpec(1));
    expect(res.result.json).toEqual({ winner: 'B', confidence: 0.9, reason: 'clearer' });
    expect(res.result.usage.cachedInputTokens).toBe(3);
    expect(res.result.usage.inputTokens).toBeGreaterThan(3);
    const sent = mock.bodies.at(-1)!;
    expect(sent.mode).toBe('json_schema');
    expect(sent.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'pairwise_verdict', strict: true },
    });
    expect(sent.body.max_tokens).toBe(200);
    expect(sent.system).toBe('You are a careful judge.');
  });

  it('json_object mode puts the schema in the prompt', async () => {
    const res = await new OpenAIChatAdapter(
      openaiMock(mock.url, { structuredOutput: 'json_object' }),
      KEY,
    ).send(verdictSpec(1));
    expect(res.result.json).toMatchObject({ winner: 'B' });
    const sent = mock.bodies.at(-1)!;
    expect(sent.body.response_format).toEqual({ type: 'json_object' });
    expect(sent.system).toMatch(/pairwise_verdict[\s\S]*"enum":\["A","B","tie"\]/);
  });

  it('text mode digs the JSON out of prose and a ```json fence', async () => {
    const res = await new OpenAIChatAdapter(openaiMock(mock.url, { structuredOutput: 'text' }), KEY).send(
      verdictSpec(1),
    );
    expect(res.result.text).toContain('```json');
    expect(res.result.json).toEqual({ winner: 'B', confidence: 0.9, reason: 'clearer' });
    expect(mock.bodies.at(-1)!.body.response_format).toBeUndefined();
  });

  it.each<[Fault, string]>([
    ['malformed', 'unparseable'],
    ['server_error', 'server'],
    ['overloaded', 'server'],
    ['rate_limit', 'rate_limited'],
    ['quota', 'quota_exhausted'],
    ['bad_request', 'bad_request'],
    ['not_found', 'not_found'],
    ['drop', 'connection'],
  ])('classifies %s as %s', async (fault, kind) => {
    mock.setBehavior({ faultQueue: [fault] });
    const err = await sendError(new OpenAIChatAdapter(openaiMock(mock.url), KEY));
    expect(err.kind).toBe(kind);
    if (kind === 'unparseable') expect(err.rawText).toBeTruthy();
    if (fault === 'rate_limit') expect(err.headers?.get('retry-after')).toBe('1');
  });

  it('reads the fields of an answer cut off at the output limit that were written out whole', async () => {
    // finish_reason "length", the text cut in half inside "confidence": the winner is whole.
    mock.setBehavior({ faultQueue: ['truncated'] });
    const res = await new OpenAIChatAdapter(openaiMock(mock.url), KEY).send(verdictSpec(1));
    expect(res.result.json).toEqual({ winner: 'B' });
    expect(res.result.readFromCutOff).toBe(true);
  });

  it('classifies an answer cut off before any whole field as unparseable, with its raw text', async () => {
    mock.setBehavior({
      faultQueue: ['truncated'],
      respond: () => ({
        reason: 'a long explanation that comes first and is cut',
        winner: 'B',
        confidence: 1,
      }),
    });
    const err = await sendError(new OpenAIChatAdapter(openaiMock(mock.url), KEY));
    expect(err.kind).toBe('unparseable');
    expect(err.message).toMatch(/cut off at the output limit/);
    expect(err.rawText).toBeTruthy();
  });

  it('hands a JSON object that breaks the schema on to the stage parser, not back as unparseable', async () => {
    // The schema is what we ask for; whether {"unexpected": true} is usable is the parser's call
    // (the judging kit's), so a readable answer is not asked again and paid again.
    mock.setBehavior({ faultQueue: ['schema_mismatch'] });
    const res = await new OpenAIChatAdapter(openaiMock(mock.url), KEY).send(verdictSpec(1));
    expect(res.result.json).toEqual({ unexpected: true });
  });

  it('classifies a hang as a timeout', async () => {
    mock.setBehavior({ faultQueue: ['hang'] });
    const err = await sendError(new OpenAIChatAdapter(openaiMock(mock.url, { timeoutMs: 200 }), KEY));
    expect(err.kind).toBe('timeout');
  });

  it('classifies a wrong key as auth, without repeating the key', async () => {
    const wrong = 'sk-test-WRONGKEY987';
    const err = await sendError(new OpenAIChatAdapter(openaiMock(mock.url), wrong));
    expect(err.kind).toBe('auth');
    expect(err.message).not.toContain(wrong);
    expect(err.message).not.toContain('WRONGKEY987');
  });
});

describe('anthropic kind against the mock', () => {
  it('forces one tool and returns its input, counting cache reads as cached input', async () => {
    mock.setBehavior({ cachedTokens: 4 });
    const res = await new AnthropicChatAdapter(anthropicMock(mock.url), KEY).send(
      verdictSpec(2, 'anthropic', 'claude-haiku-4-5'),
    );
    expect(res.result.json).toEqual({ winner: 'B', confidence: 0.9, reason: 'clearer' });
    expect(res.result.usage.cachedInputTokens).toBe(4);
    const sent = mock.bodies.at(-1)!;
    expect(sent.mode).toBe('tool');
    expect(sent.body.tool_choice).toEqual({ type: 'tool', name: 'pairwise_verdict' });
    expect((sent.body.tools as { input_schema: unknown }[])[0].input_schema).toEqual(
      verdictSpec(1).response!.schema,
    );
    expect(sent.body.temperature).toBe(0);
  });

  it("shows the SDK's deprecated-model warning once, not on every call (issue 27)", async () => {
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(' '));
    try {
      const adapter = new AnthropicChatAdapter(anthropicMock(mock.url), KEY);
      for (let i = 0; i < 3; i++) {
        // A deprecated model no other test asks: the once-per-process record (sdk-warnings.ts) is
        // shared by the test files one worker runs, and other files ask claude-sonnet-4-5.
        const res = await adapter.send(verdictSpec(i, 'anthropic', 'claude-opus-4-5-20251101'));
        expect(res.result.json).toMatchObject({ winner: 'B' });
      }
    } finally {
      console.warn = warn;
    }
    expect(warned.filter((w) => w.includes("'claude-opus-4-5-20251101' is deprecated"))).toHaveLength(1);
  });

  it('text fallback parses the JSON from the answer text', async () => {
    const res = await new AnthropicChatAdapter(
      anthropicMock(mock.url, { structuredOutput: 'text' }),
      KEY,
    ).send(verdictSpec(2));
    expect(res.result.json).toMatchObject({ winner: 'B' });
    expect(mock.bodies.at(-1)!.body.tools).toBeUndefined();
  });

  it.each<[Fault, string]>([
    ['overloaded', 'server'],
    ['rate_limit', 'rate_limited'],
    ['malformed', 'unparseable'],
  ])('classifies %s as %s', async (fault, kind) => {
    mock.setBehavior({ faultQueue: [fault] });
    const err = await sendError(new AnthropicChatAdapter(anthropicMock(mock.url), KEY));
    expect(err.kind).toBe(kind);
  });

  it('hands a tool input that breaks the schema on to the stage parser', async () => {
    mock.setBehavior({ faultQueue: ['schema_mismatch'] });
    const res = await new AnthropicChatAdapter(anthropicMock(mock.url), KEY).send(verdictSpec(2));
    expect(res.result.json).toEqual({ unexpected: true });
  });
});

describe('test connection', () => {
  it('reports ok, a wrong key, a missing model and an unreachable server in plain words', async () => {
    expect(await testConnection(openaiMock(mock.url), KEY, 'mock-model')).toMatchObject({ ok: true });
    const auth = await testConnection(openaiMock(mock.url), 'sk-wrong-key-000');
    expect(auth).toMatchObject({ ok: false, kind: 'auth' });
    expect(JSON.stringify(auth)).not.toContain('sk-wrong-key-000');
    expect(await testConnection(openaiMock(mock.url), KEY, 'no-such-model')).toMatchObject({
      ok: false,
      kind: 'model_not_found',
    });
    expect(await testConnection(anthropicMock(mock.url), KEY, 'claude-haiku-4-5')).toMatchObject({
      ok: true,
    });
    const down = await testConnection(openaiMock('http://127.0.0.1:9'), KEY);
    expect(down).toMatchObject({ ok: false, kind: 'unreachable' });
  });

  it('tells whether the server offers the Batch API, so the wizard offers the Batch switch (issue 26 item 7)', async () => {
    expect(await testConnection(openaiMock(mock.url), KEY, 'mock-model')).toMatchObject({
      ok: true,
      batch: true,
    });
    expect(await testConnection(anthropicMock(mock.url), KEY)).toMatchObject({ ok: true, batch: true });
    mock.setBehavior({ batchApiMissing: true });
    expect(await testConnection(openaiMock(mock.url), KEY, 'mock-model')).toMatchObject({
      ok: true,
      batch: false,
    });
    expect(await testConnection({ kind: 'simulated' }, '')).toMatchObject({ ok: true, batch: true });
    mock.setBehavior({ batchApiMissing: false });
  });

  it('returns the models the server lists, for the wizard to offer', async () => {
    expect(await testConnection(openaiMock(mock.url), KEY)).toMatchObject({
      ok: true,
      models: ['claude-haiku-4-5', 'gpt-4.1-mini', 'mock-model'],
    });
  });
});

describe('provider config and keys', () => {
  it('rejects unknown keys by name and normalizes endpoint identity', () => {
    const bad = providerConfigSchema.safeParse({ kind: 'openai', rmp: 5 });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain('rmp');
    expect(endpointId({ kind: 'openai' })).toBe('openai:https://api.openai.com/v1');
    expect(endpointId({ kind: 'openai', baseURL: 'HTTP://LocalHost:11434/v1/' })).toBe(
      'openai:http://localhost:11434/v1',
    );
  });

  it('reads keys from the named variable; loopback servers need none', () => {
    const store = new EnvKeyStore({ MY_KEY: ' sk-abc ' });
    expect(store.get('p', { kind: 'openai', apiKeyEnv: 'MY_KEY' })).toBe('sk-abc');
    expect(store.get('p', { kind: 'openai', apiKeyEnv: 'OTHER' })).toBeUndefined();
    expect(store.get('p', { kind: 'openai', baseURL: 'http://127.0.0.1:11434/v1' })).toBe('local-no-key');
    expect(store.get('p', { kind: 'openai', baseURL: 'https://api.deepseek.com' })).toBeUndefined();
  });
});

describe('structured text extraction', () => {
  it('finds one object in prose, fences, or braces inside strings', () => {
    expect(extractJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(extractJsonObject('Sure!\n```json\n{"a": "x}"}\n```')).toEqual({ a: 'x}' });
    expect(extractJsonObject('My verdict: {"winner": "A", "reason": "uses {braces}"} — done')).toEqual({
      winner: 'A',
      reason: 'uses {braces}',
    });
    expect(extractJsonObject('no json here')).toBeUndefined();
    expect(extractJsonObject('[1,2]')).toBeUndefined();
  });
});

describe('pricing', () => {
  it('prices uncached, cached and output tokens separately; unknown models are unpriced', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 500_000 };
    expect(costOf('gpt-4.1-mini', usage).usd).toBeCloseTo(0.2 + 0.05 + 1.6);
    expect(costOf('gpt-4.1-mini-2025-04-14', usage).priced).toBe(true);
    expect(costOf('openai/gpt-4.1-mini', usage).priced).toBe(true);
    expect(priceFor('claude-haiku-4-5-20251001')?.input).toBe(1);
    expect(costOf('llama3.1:8b', usage)).toEqual({ usd: 0, priced: false });
    const edited = mergePrices(
      { 'gpt-4.1-mini': priceFor('gpt-4.1-mini')! },
      { 'gpt-4.1-mini': { output: 2 }, 'llama3.1:8b': { input: 0.1, output: 0.1 } },
    );
    expect(edited['gpt-4.1-mini']).toMatchObject({ input: 0.4, output: 2 });
    expect(costOf('llama3.1:8b', usage, edited).priced).toBe(true);
    expect(() => mergePrices({}, { x: { output: 1 } })).toThrow(/"x".*input/);
  });

  it('estimates a run from tokenized prompts and an output hint', () => {
    const est = estimateCost(
      [
        verdictSpec(1, 'o', 'gpt-4.1-mini'),
        verdictSpec(2, 'o', 'gpt-4.1-mini'),
        verdictSpec(3, 'l', 'local'),
      ],
      {
        expectedOutputTokens: 100,
      },
    );
    expect(est.calls).toBe(3);
    expect(est.outputTokens).toBe(300);
    expect(est.inputTokens).toBeGreaterThan(3 * 20);
    expect(est.unpricedModels).toEqual(['local']);
    const mini = est.byModel.find((r) => r.model === 'gpt-4.1-mini')!;
    expect(mini.usd).toBeCloseTo((mini.inputTokens * 0.4 + 200 * 1.6) / 1e6);
  });
});

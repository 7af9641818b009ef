// Prompt caching: the fixed rubric goes first and byte-identical (Judge-LS templates), Anthropic
// gets cache_control on it, and both providers' cached tokens (Anthropic: reads and writes)
// are stored in the ledger and priced as such, in spend and in estimates.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatAdapter } from '../../src/main/providers/anthropic';
import { endpointId, type ProviderConfig } from '../../src/main/providers/config';
import { OpenAIChatAdapter } from '../../src/main/providers/openai';
import { costOf, DEFAULT_PRICES } from '../../src/main/providers/pricing';
import type { ChatRequestSpec } from '../../src/main/providers/types';
import {
  DEFAULT_TEMPLATES,
  renderJudgePrompt,
  renderTieProbePrompt,
  renderTransformPrompt,
} from '../../src/main/protocols/judge-ls/prompts';
import { RequestEngine } from '../../src/main/queue/engine';
import { ensureRequests, getRequest } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import {
  anthropicMock,
  FAST_RETRY,
  fixedKeys,
  openaiMock,
  tempDb,
  verdictSpec,
  type TempDb,
} from './helpers';

const KEY = 'sk-test-cache';
let mock: MockProvider;
let t: TempDb;
beforeAll(async () => {
  mock = await startMockProvider({
    apiKey: KEY,
    respond: () => ({ winner: 'A', confidence: 0.8, reason: 'r' }),
  });
});
afterAll(() => mock.close());
beforeEach(() => (t = tempDb()));
afterEach(() => t.cleanup());

/** A rubric long enough to be cached (≥ 1024 tokens), fixed across calls. */
const RUBRIC = `You are a careful judge. ${'Check each response against the instruction, rule by rule. '.repeat(120)}`;
const longSpec = (i: number, model: string, system = RUBRIC): ChatRequestSpec => ({
  ...verdictSpec(i, 'mock', model),
  system,
});

describe('the Judge-LS templates lay out the fixed rubric first, byte-identical across calls', () => {
  it('judge and tie-probe calls share the system prompt and the rules before the item', () => {
    const a = renderJudgePrompt(DEFAULT_TEMPLATES, { instruction: 'Sum 2+2.', outputA: '4', outputB: '5' });
    const b = renderJudgePrompt(DEFAULT_TEMPLATES, { instruction: '写一首诗', outputA: 'x', outputB: 'y' });
    expect(a.system).toBe(b.system);
    const fixed = a.user.slice(0, a.user.indexOf('<instruction>'));
    expect(fixed.length).toBeGreaterThan(500);
    expect(b.user.startsWith(fixed)).toBe(true);
    const p = renderTieProbePrompt(DEFAULT_TEMPLATES, { instruction: 'i', outputA: 'a', outputB: 'b' });
    expect(p.system).toBe(a.system);
  });

  it('transform calls of one language share their whole system prompt; the item comes only in the user message', () => {
    const x = renderTransformPrompt(DEFAULT_TEMPLATES, 'ZH', {
      instruction: 'ITEM-ONE',
      output1: 'o1',
      output2: 'o2',
    });
    const y = renderTransformPrompt(DEFAULT_TEMPLATES, 'ZH', {
      instruction: 'ITEM-TWO',
      output1: 'o3',
      output2: 'o4',
    });
    expect(x.system).toBe(y.system);
    expect(x.system).not.toContain('ITEM-');
    expect(x.system).not.toContain('{{');
    expect(x.user).not.toBe(y.user);
  });
});

describe('prompt caching at the providers (mock)', () => {
  it('Anthropic: the system prompt is marked for the cache; the first call writes it, later calls read it', async () => {
    const adapter = new AnthropicChatAdapter(anthropicMock(mock.url), KEY);
    const first = await adapter.send(longSpec(1, 'claude-haiku-4-5'));
    const sent = mock.bodies.at(-1)!.body.system as { type: string; text: string; cache_control?: unknown }[];
    expect(sent).toEqual([{ type: 'text', text: RUBRIC, cache_control: { type: 'ephemeral' } }]);
    expect(first.result.usage.cacheWriteTokens).toBeGreaterThan(1000);
    expect(first.result.usage.cachedInputTokens).toBe(0);
    const second = await adapter.send(longSpec(2, 'claude-haiku-4-5'));
    expect(second.result.usage.cachedInputTokens).toBe(first.result.usage.cacheWriteTokens);
    expect(second.result.usage.cacheWriteTokens).toBe(0);
    // Input counts every token once: uncached + cache reads + cache writes.
    expect(second.result.usage.inputTokens).toBeCloseTo(first.result.usage.inputTokens, -1);
  });

  it('OpenAI: automatic caching of a repeated long prefix is reported as cached tokens; a short one is not cached', async () => {
    const adapter = new OpenAIChatAdapter(openaiMock(mock.url), KEY);
    const a = await adapter.send(longSpec(1, 'gpt-4.1-mini'));
    const b = await adapter.send(longSpec(2, 'gpt-4.1-mini'));
    expect(a.result.usage.cachedInputTokens).toBe(0);
    expect(b.result.usage.cachedInputTokens).toBeGreaterThan(1000);
    const short1 = await adapter.send(verdictSpec(1, 'mock', 'gpt-4.1-mini'));
    const short2 = await adapter.send(verdictSpec(2, 'mock', 'gpt-4.1-mini'));
    expect(short1.result.usage.cachedInputTokens + short2.result.usage.cachedInputTokens).toBe(0);
  });

  it('the ledger stores cache reads and writes and the spend prices them as cached input and cache writes', async () => {
    const providers: Record<string, ProviderConfig> = { mock: anthropicMock(mock.url) };
    const engine = new RequestEngine({
      db: t.db,
      providers,
      keys: fixedKeys(KEY),
      retry: FAST_RETRY,
      progressIntervalMs: 50,
    });
    const model = 'claude-sonnet-4-5';
    const ids = ensureRequests(
      t.db,
      [1, 2, 3].map((i) => ({ endpointId: endpointId(providers.mock), spec: longSpec(i, model) })),
    );
    // One at a time, so the first call writes the cache before the others read it.
    let total = 0;
    for (const id of ids) total += (await engine.run([{ requestId: id, group: 'g' }])).costUsd;
    const rows = ids.map((id) => getRequest(t.db, id)!);
    expect(rows[0].cacheWriteTokens).toBeGreaterThan(1000);
    expect(rows[0].cachedTokens).toBe(0);
    expect(rows[1].cachedTokens).toBe(rows[0].cacheWriteTokens);
    expect(rows[2].cachedTokens).toBe(rows[0].cacheWriteTokens);
    const p = DEFAULT_PRICES[model];
    const expected = (r: (typeof rows)[number]) =>
      ((r.inputTokens! - r.cachedTokens! - r.cacheWriteTokens!) * p.input +
        r.cacheWriteTokens! * p.cacheWrite! +
        r.cachedTokens! * p.cachedInput +
        r.outputTokens! * p.output) /
      1e6;
    for (const r of rows) expect(r.costUsd).toBeCloseTo(expected(r), 12);
    expect(total).toBeCloseTo(
      rows.reduce((n, r) => n + r.costUsd!, 0),
      12,
    );
    // Reading the cache costs a tenth of input: the later calls are cheaper than the first.
    expect(rows[1].costUsd!).toBeLessThan(rows[0].costUsd!);
    expect(p.cacheWrite).toBeCloseTo(p.input * 1.25, 9);
    expect(costOf(model, { inputTokens: 2000, outputTokens: 0, cachedInputTokens: 1500 }).usd).toBeCloseTo(
      (500 * p.input + 1500 * p.cachedInput) / 1e6,
      12,
    );
  });
});

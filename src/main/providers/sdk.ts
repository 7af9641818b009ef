// The provider SDKs and the tokenizer load on first use, not when the core loads: together they
// were ~0.4 CPU-s and ~70 MB of every `judge-lab serve` start and of every CLI command that never
// calls a provider (issue 27). The first call of a run waits for its SDK once.
import { createRequire } from 'node:module';

type AnthropicModule = typeof import('@anthropic-ai/sdk');
type OpenAIModule = typeof import('openai');
type Tokenizer = typeof import('gpt-tokenizer');

let anthropic: Promise<AnthropicModule> | undefined;
let openai: Promise<OpenAIModule> | undefined;
let tokenizer: Tokenizer | undefined;

export function loadAnthropicSdk(): Promise<AnthropicModule> {
  return (anthropic ??= import('@anthropic-ai/sdk'));
}

export function loadOpenAISdk(): Promise<OpenAIModule> {
  return (openai ??= import('openai'));
}

/** Counting is synchronous (an estimate counts thousands of prompts in one pass), so the tokenizer is required, once. */
export function loadTokenizer(): Tokenizer {
  return (tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as Tokenizer);
}

/**
 * A successful call's body as the SDKs' own parse step reads it (non-streamed): JSON when the
 * content type says so, else the text; null for 204 and undefined for an empty JSON body.
 */
export async function jsonBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const mediaType = res.headers.get('content-type')?.split(';')[0]?.trim();
  if (!mediaType?.includes('application/json') && !mediaType?.endsWith('+json')) return res.text();
  if (res.headers.get('content-length') === '0') return undefined;
  return res.json();
}

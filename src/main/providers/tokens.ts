import { encode } from 'gpt-tokenizer';
import type { ChatRequestSpec } from './types';

// Chat formats add a few tokens of framing per message; 4 is OpenAI's documented rule of thumb.
const PER_MESSAGE_OVERHEAD = 4;

/**
 * Input tokens of a request as the provider will roughly count them (o200k encoding):
 * system prompt, messages and the response schema. Used for TPM budgeting and estimates;
 * real usage reported by the provider replaces it afterwards.
 */
export function estimateInputTokens(spec: ChatRequestSpec): number {
  let n = 0;
  if (spec.system) n += encode(spec.system).length + PER_MESSAGE_OVERHEAD;
  for (const m of spec.messages) n += encode(m.content).length + PER_MESSAGE_OVERHEAD;
  if (spec.response) n += encode(JSON.stringify(spec.response.schema)).length;
  return n;
}

/**
 * The shortest prefix the providers cache (OpenAI: automatically from 1024 tokens; Anthropic:
 * with cache_control, from 1024 tokens on Sonnet/Opus, more on Haiku). Below it, nothing is cached.
 */
export const PROMPT_CACHE_MIN_TOKENS = 1024;

/** Tokens of the part every call of a template shares: the system prompt and the schema. */
export function cacheablePrefixTokens(spec: ChatRequestSpec): number {
  let n = spec.system ? encode(spec.system).length + PER_MESSAGE_OVERHEAD : 0;
  if (spec.response) n += encode(JSON.stringify(spec.response.schema)).length;
  return n;
}

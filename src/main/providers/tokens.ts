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

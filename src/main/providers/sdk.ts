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

// Only a process that runs one study and exits (`judge-lab run`) lets the tables go after an
// estimate: a process that runs many (the app, the validation) reloaded and recounted them at every
// run when all did (issue 39: the e2e validation cells 63 s -> 266 s).
let releaseAfterEstimates = false;

/** Asked by `judge-lab run`: after each estimate the tokenizer's tables may be collected (issue 39). */
export function releaseTokenizerAfterEstimates(): void {
  releaseAfterEstimates = true;
}

/**
 * An estimate is done. In a one-study process the tables go (the counts stay in tokens.ts, so a
 * later estimate of the same plan needs no tokenizer; a text not counted yet loads it again).
 * Module-cache entries go too, or `require` would keep them.
 */
export function estimateDone(): void {
  if (!releaseAfterEstimates || !tokenizer) return;
  tokenizer = undefined;
  const req = createRequire(import.meta.url);
  for (const id of Object.keys(req.cache))
    if (/[\\/]node_modules[\\/]gpt-tokenizer[\\/]/.test(id)) delete req.cache[id];
}

/** Whether the tokenizer's tables are loaded (tests of the release above). */
export function tokenizerLoaded(): boolean {
  return tokenizer !== undefined;
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

import { createHash } from 'node:crypto';
import { countInWorker, countsApart, loadTokenizer } from './sdk';
import type { ChatRequestSpec } from './types';

/**
 * Token counts of texts already counted, oldest dropped past TOKEN_CACHE_CHARS characters of keys
 * (at most ~40 characters a key: some 200,000 texts).
 * Every call of a template repeats its system prompt and schema, and a run counts the same
 * prompts again for its first ETA and for each call's TPM budget: tokenizing dominated the start
 * of `judge-lab run` (~1 s per 1,000 calls at each estimate).
 */
const TOKEN_CACHE_CHARS = 8_000_000;
const counted = new Map<string, number>();
let countedChars = 0;

/** Texts that contain "<|endoftext|>" and the like are counted as text, not refused (the tokenizer's default). */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * A long text is remembered by its digest, not kept whole: a study's prompts (10,000 of 3–4 KB)
 * did not fit the cache, so every estimate tokenized them all again; their digests do.
 */
function cacheKey(text: string): string {
  return text.length <= 64 ? text : `${text.length}:${createHash('sha1').update(text).digest('base64')}`;
}

/**
 * The texts counted last, by the text itself (a string lookup hashes it without a digest, and a
 * string seen again is hashed once): every call of a template repeats its system prompt and
 * schema, which made 4 of every 5 digests of an estimate (92,000 calls: ~1 s of sha1 for texts
 * already counted). A few texts: the shared ones hit, and a distinct text passes through.
 */
const RECENT_TEXTS = 16;
const recent = new Map<string, number>();

/** A schema's JSON, made once per schema object (the plan's tasks share their stage's; schemas are never changed once made). */
const schemaJson = new WeakMap<object, string>();
function jsonOf(schema: object): string {
  let json = schemaJson.get(schema);
  if (json === undefined) schemaJson.set(schema, (json = JSON.stringify(schema)));
  return json;
}

function tokensOf(text: string): number {
  const near = recent.get(text);
  if (near !== undefined) {
    // Most recently used last, so a distinct text pushes out another distinct one, not these.
    recent.delete(text);
    recent.set(text, near);
    return near;
  }
  const n = countedTokens(text);
  recent.set(text, n);
  if (recent.size > RECENT_TEXTS) recent.delete(recent.keys().next().value!);
  return n;
}

function countedTokens(text: string): number {
  const key = cacheKey(text);
  const hit = counted.get(key);
  if (hit !== undefined) return hit;
  // A long text new to the cache is mostly words counted before (a study's prompts share their
  // template's and items' words): summed word by word it costs a third of encoding it whole
  // once its words are known (2,095 LLMBar texts: 30 against 80 ms), and the sum is exact.
  const n = key === text ? encodedTokens(text) : countByLines(text, (line) => countByWords(line, wordTokens));
  remember(key, n);
  return n;
}

/** A word's tokens (countByWords' parts), remembered; a word is never cut again. */
function wordTokens(word: string): number {
  const key = cacheKey(word);
  const hit = counted.get(key);
  if (hit !== undefined) return hit;
  const n = encodedTokens(word);
  remember(key, n);
  return n;
}

let encoded = 0;
function encodedTokens(text: string): number {
  encoded++;
  return loadTokenizer().countTokens(text, AS_TEXT);
}

/** How many texts the tokenizer has encoded in this thread (tests: what an estimate counts). */
export function textsEncoded(): number {
  return encoded;
}

function remember(key: string, n: number): void {
  counted.set(key, n);
  countedChars += key.length;
  for (const [oldest] of counted) {
    if (countedChars <= TOKEN_CACHE_CHARS) break;
    counted.delete(oldest);
    countedChars -= oldest.length;
  }
}

// Chat formats add a few tokens of framing per message; 4 is OpenAI's documented rule of thumb.
const PER_MESSAGE_OVERHEAD = 4;

/**
 * Input tokens of a request as the provider will roughly count them (o200k encoding):
 * system prompt, messages and the response schema. Used for TPM budgeting and estimates;
 * real usage reported by the provider replaces it afterwards.
 */
export function estimateInputTokens(spec: ChatRequestSpec): number {
  return inputTokensWith(spec, tokensOf);
}

function inputTokensWith(spec: ChatRequestSpec, count: (text: string) => number): number {
  let n = 0;
  if (spec.system) n += count(spec.system) + PER_MESSAGE_OVERHEAD;
  for (const m of spec.messages) n += count(m.content) + PER_MESSAGE_OVERHEAD;
  if (spec.response) n += count(jsonOf(spec.response.schema));
  return n;
}

/**
 * `estimateInputTokens` and `cacheablePrefixTokens` for the many requests of one plan, each
 * text and part of a text counted once: a plan's tasks share texts (a system prompt, a prompt
 * rendered once for several judges), and their prompts share lines and words (a template's fixed
 * lines, an item's question under each setting, a language's words), so the tokenizer sees each
 * distinct word about once. A text already seen
 * here is found by the string itself (whose hash V8 keeps), not by a digest of its characters.
 * Counts are exact, the same as the functions' (see `countByLines`); the maps live as long as
 * the counter.
 */
export function planTokenCounter(): {
  input(spec: ChatRequestSpec): number;
  prefix(spec: ChatRequestSpec): number;
  /** Counts ahead, in a one-study process, the words of these requests (see `precountApart`). */
  precount(specs: Iterable<ChatRequestSpec>): void;
} {
  const once = (count: (text: string) => number) => {
    const counted = new Map<string, number>();
    return (text: string) => {
      let n = counted.get(text);
      if (n === undefined) counted.set(text, (n = count(text)));
      return n;
    };
  };
  const countWord = once(wordTokens);
  const countLine = once((line) => countByWords(line, countWord));
  const count = once((text) => countByLines(text, countLine));
  return {
    input: (spec) => inputTokensWith(spec, count),
    prefix: (spec) => prefixTokensWith(spec, count),
    precount: precountApart,
  };
}

/**
 * In a process that runs one study (`judge-lab run`, sdk.ts `countsApart`): the words a plan's
 * counter will ask `wordTokens` for and that are not counted yet, counted in one pass by a
 * worker thread that ends after it (sdk.ts `countInWorker`), so the tokenizer's tables never load
 * in this thread. The words are cut exactly as the counter cuts them (`countByLines`,
 * `countByWords`), so the counter then finds every one counted and the counts are the same. If the
 * worker cannot count, nothing is remembered and the counter counts here as before.
 */
function precountApart(specs: Iterable<ChatRequestSpec>): void {
  if (!countsApart()) return;
  const missing = new Set<string>();
  const lines = new Set<string>();
  const texts = new Set<string>();
  const word = (w: string) => {
    if (!missing.has(w) && !counted.has(cacheKey(w))) missing.add(w);
    return 0;
  };
  const line = (l: string) => {
    if (lines.has(l)) return 0;
    lines.add(l);
    return countByWords(l, word);
  };
  const text = (t: string) => {
    if (texts.has(t)) return 0;
    texts.add(t);
    return countByLines(t, line);
  };
  for (const spec of specs) inputTokensWith(spec, text);
  const words = [...missing];
  const counts = countInWorker(words);
  if (!counts) return;
  for (let i = 0; i < words.length; i++) remember(cacheKey(words[i]), counts[i]);
}

const SLASH = 47;
/** More line breaks in the same run of white space after a break. */
const MORE_BREAKS = /[^\S\r\n]*[\r\n]/y;
const WHITE = /\s/y;

/**
 * A text's tokens as the sum of its lines' (each with its line break), and a line's as the sum
 * of its words' (each with the space before it). Both are exact: o200k cuts a text into pieces
 * by a pattern before encoding each piece on its own, and these cut only where a piece ends.
 * A piece that holds a line break ends at the last break of its run of white space
 * (`\s*[\r\n]+`), or runs on into "/" after punctuation (`[^\s\p{L}\p{N}]+[\r\n/]*`), so a
 * line is cut off only after the last break of a run and not before a "/". A space after a
 * character that is not white space always starts a piece (a space sits only at the start of
 * one or inside a run of white space). The pattern looks ahead but never behind, so a part
 * counted alone is cut as it is in the text (test/providers/tokens.test.ts checks the sums
 * against the whole on the bundled samples and on drawn texts of the characters that matter).
 */
export function countByLines(text: string, count: (line: string) => number): number {
  let n = 0;
  let from = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i + 1 === text.length || text.charCodeAt(i + 1) === SLASH) continue;
    MORE_BREAKS.lastIndex = i + 1;
    if (MORE_BREAKS.test(text)) continue;
    n += count(text.slice(from, i + 1));
    from = i + 1;
  }
  return n + count(from === 0 ? text : text.slice(from));
}

/** A text's tokens as the sum of its words' (see `countByLines`). */
export function countByWords(text: string, count: (word: string) => number): number {
  let n = 0;
  let from = 0;
  for (let i = text.indexOf(' ', 1); i !== -1; i = text.indexOf(' ', i + 1)) {
    WHITE.lastIndex = i - 1;
    if (WHITE.test(text)) continue;
    n += count(text.slice(from, i));
    from = i;
  }
  return n + count(from === 0 ? text : text.slice(from));
}

/**
 * The shortest prefix the providers cache (OpenAI: automatically from 1024 tokens; Anthropic:
 * with cache_control, from 1024 tokens on Sonnet/Opus, more on Haiku). Below it, nothing is cached.
 */
export const PROMPT_CACHE_MIN_TOKENS = 1024;

/** Tokens of the part every call of a template shares: the system prompt and the schema. */
export function cacheablePrefixTokens(spec: ChatRequestSpec): number {
  return prefixTokensWith(spec, tokensOf);
}

function prefixTokensWith(spec: ChatRequestSpec, count: (text: string) => number): number {
  let n = spec.system ? count(spec.system) + PER_MESSAGE_OVERHEAD : 0;
  if (spec.response) n += count(jsonOf(spec.response.schema));
  return n;
}

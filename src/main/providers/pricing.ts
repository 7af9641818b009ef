import { estimateInputTokens } from './tokens';
import type { ChatRequestSpec, Usage } from './types';

/** USD per 1M tokens. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
  /** Prompt-cache writes (Anthropic: 1.25 × input for the 5-minute cache); absent: 1.25 × input. */
  cacheWrite?: number;
  /** Batch API prices (where the provider has one). */
  batchInput?: number;
  batchOutput?: number;
}

export type PriceTable = Record<string, ModelPrice>;

/**
 * Prompt-cache writes where the table gives no price: only Anthropic reports writes, and it bills
 * them at 1.25 × the input price for the default 5-minute cache (docs.anthropic.com, pricing).
 */
export const CACHE_WRITE_FACTOR = 1.25;

/** What a Batch API bills of the list price where the table has no batch price (OpenAI, Anthropic, Gemini: half). */
export const BATCH_DISCOUNT = 0.5;

// List prices, standard tier, short-context tier, USD per 1M tokens, as published on the
// providers' pricing pages (openai.com/api/pricing, docs.anthropic.com/en/docs/about-claude/pricing,
// ai.google.dev/gemini-api/docs/pricing, api-docs.deepseek.com/quick_start/pricing), as known
// on 2025-11-30. Prices change: users edit them (mergePrices) and the table says which it used.
// Batch = 50% of input/output for OpenAI, Anthropic and Gemini; DeepSeek has no batch API.
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4.1': { input: 2.0, cachedInput: 0.5, output: 8.0, batchInput: 1.0, batchOutput: 4.0 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6, batchInput: 0.2, batchOutput: 0.8 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4, batchInput: 0.05, batchOutput: 0.2 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10.0, batchInput: 1.25, batchOutput: 5.0 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6, batchInput: 0.075, batchOutput: 0.3 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4, batchInput: 0.55, batchOutput: 2.2 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10.0, batchInput: 0.625, batchOutput: 5.0 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2.0, batchInput: 0.125, batchOutput: 1.0 },
  // Anthropic "cached input" = cache reads (0.1x input); cache writes (5-minute cache) 1.25x input.
  'claude-opus-4-1': {
    input: 15.0,
    cachedInput: 1.5,
    cacheWrite: 18.75,
    output: 75.0,
    batchInput: 7.5,
    batchOutput: 37.5,
  },
  'claude-sonnet-4-5': {
    input: 3.0,
    cachedInput: 0.3,
    cacheWrite: 3.75,
    output: 15.0,
    batchInput: 1.5,
    batchOutput: 7.5,
  },
  'claude-haiku-4-5': {
    input: 1.0,
    cachedInput: 0.1,
    cacheWrite: 1.25,
    output: 5.0,
    batchInput: 0.5,
    batchOutput: 2.5,
  },
  'claude-3-5-haiku': {
    input: 0.8,
    cachedInput: 0.08,
    cacheWrite: 1.0,
    output: 4.0,
    batchInput: 0.4,
    batchOutput: 2.0,
  },
  // Gemini: prompts up to 200k tokens (2.5 Pro doubles above that).
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.125, output: 10.0, batchInput: 0.625, batchOutput: 5.0 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5, batchInput: 0.15, batchOutput: 1.25 },
  // DeepSeek V3.2 pricing (from 2025-09-29): input cache miss / cache hit / output, both models.
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, cachedInput: 0.028, output: 0.42 },
};

/**
 * The table entry for a model id as the API is called: exact, then without a router
 * prefix ("openai/gpt-4.1", "models/gemini-2.5-pro"), then without a date or "-latest"
 * suffix ("claude-haiku-4-5-20251001", "gpt-4.1-mini-2025-04-14").
 */
export function priceFor(model: string, prices: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  const tries = [model];
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  tries.push(bare);
  tries.push(bare.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, ''));
  for (const t of tries) if (Object.hasOwn(prices, t)) return prices[t];
  return undefined;
}

export interface Cost {
  usd: number;
  /** False for models missing from the table (local models): their cost shows as 0, marked unpriced. */
  priced: boolean;
}

/** Cost of a call: uncached input + cached input + output, each at its own price. */
export function costOf(
  model: string,
  usage: Usage,
  prices: PriceTable = DEFAULT_PRICES,
  opts: { batch?: boolean; flex?: boolean } = {},
): Cost {
  const p = priceFor(model, prices);
  if (!p) return { usd: 0, priced: false };
  // OpenAI bills its flex tier at its Batch prices: the same discount, answered live.
  if (opts.flex) opts = { batch: true };
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  // Batch APIs bill half of list unless the table says otherwise; cache discounts stack on it.
  const input = opts.batch ? (p.batchInput ?? p.input * BATCH_DISCOUNT) : p.input;
  const output = opts.batch ? (p.batchOutput ?? p.output * BATCH_DISCOUNT) : p.output;
  const cachedInput = opts.batch ? p.cachedInput * BATCH_DISCOUNT : p.cachedInput;
  // Cache writes are part of the uncached input, billed at their own rate where there is one.
  const writes = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const cacheWrite =
    p.cacheWrite !== undefined
      ? p.cacheWrite * (opts.batch ? BATCH_DISCOUNT : 1)
      : input * CACHE_WRITE_FACTOR; // batch discounts stack on the 1.25×, as for reads
  const usd =
    ((usage.inputTokens - cached - writes) * input +
      writes * cacheWrite +
      cached * cachedInput +
      usage.outputTokens * output) /
    1e6;
  return { usd, priced: true };
}

/** User edits over the shipped table: overrides win, per model; other models stay as shipped. */
export function mergePrices(
  base: PriceTable,
  overrides: Partial<Record<string, Partial<ModelPrice>>>,
): PriceTable {
  const out: PriceTable = { ...base };
  for (const [model, o] of Object.entries(overrides)) {
    if (!o) continue;
    const prev = out[model];
    const merged = { ...prev, ...o } as Partial<ModelPrice>;
    if (merged.input === undefined || merged.output === undefined)
      throw new Error(
        `Price for "${model}": "input" and "output" (USD per 1M tokens) are required for a new model`,
      );
    out[model] = {
      ...merged,
      input: merged.input,
      output: merged.output,
      cachedInput: merged.cachedInput ?? merged.input,
    } as ModelPrice;
  }
  return out;
}

export interface CostEstimateRow {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  priced: boolean;
}

export interface CostEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  byModel: CostEstimateRow[];
  unpricedModels: string[];
}

export interface EstimateOptions {
  prices?: PriceTable;
  /** Expected answer length per call (a hint: the real length is unknown before the run). */
  expectedOutputTokens?: number | ((spec: ChatRequestSpec) => number);
  batch?: boolean;
}

/** The pre-run estimate: input tokens counted with gpt-tokenizer, output from the hint. */
export function estimateCost(specs: readonly ChatRequestSpec[], opts: EstimateOptions = {}): CostEstimate {
  const prices = opts.prices ?? DEFAULT_PRICES;
  const hint = opts.expectedOutputTokens;
  const rows = new Map<string, CostEstimateRow>();
  for (const spec of specs) {
    const inputTokens = estimateInputTokens(spec);
    const outputTokens =
      typeof hint === 'function' ? hint(spec) : (hint ?? Math.min(spec.maxOutputTokens ?? 256, 256));
    const cost = costOf(spec.model, { inputTokens, outputTokens, cachedInputTokens: 0 }, prices, {
      batch: opts.batch,
    });
    let row = rows.get(spec.model);
    if (!row) {
      row = { model: spec.model, calls: 0, inputTokens: 0, outputTokens: 0, usd: 0, priced: cost.priced };
      rows.set(spec.model, row);
    }
    row.calls++;
    row.inputTokens += inputTokens;
    row.outputTokens += outputTokens;
    row.usd += cost.usd;
  }
  const byModel = [...rows.values()];
  return {
    calls: specs.length,
    inputTokens: byModel.reduce((n, r) => n + r.inputTokens, 0),
    outputTokens: byModel.reduce((n, r) => n + r.outputTokens, 0),
    usd: byModel.reduce((n, r) => n + r.usd, 0),
    byModel,
    unpricedModels: byModel.filter((r) => !r.priced).map((r) => r.model),
  };
}

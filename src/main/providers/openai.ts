import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { DEFAULT_TIMEOUT_MS, resolvedBaseURL, type ProviderConfig } from './config';
import { classifyError, ProviderError } from './errors';
import { keepAliveFetch } from './http-fetch';
import { jsonBody, loadOpenAISdk } from './sdk';
import { parseStructured, readFromCutOff, systemWithSchema } from './structured';
import type { ChatAdapter, ChatRequestSpec, ChatResult, ProviderResponse, Usage } from './types';

/** Flex answers take longer: OpenAI advises a 15-minute client timeout for them. */
export const FLEX_TIMEOUT_MS = 15 * 60_000;

/** OpenAI's own API has replaced max_tokens; compatible servers mostly still read max_tokens. */
function usesMaxCompletionTokens(baseURL: string): boolean {
  return new URL(baseURL).hostname === 'api.openai.com';
}

export function buildOpenAIRequest(
  spec: ChatRequestSpec,
  cfg: ProviderConfig,
  baseURL = resolvedBaseURL(cfg),
): ChatCompletionCreateParamsNonStreaming {
  const mode = cfg.structuredOutput ?? 'json_schema';
  const system = mode === 'json_schema' ? spec.system : systemWithSchema(spec);
  const messages: ChatCompletionMessageParam[] = [];
  if (system) messages.push({ role: 'system', content: system });
  for (const m of spec.messages) messages.push({ role: m.role, content: m.content });
  const body: ChatCompletionCreateParamsNonStreaming = { model: spec.model, messages };
  // Not part of the request's hash (the ledger's): a flex answer is the same answer, stored once.
  if (cfg.serviceTier === 'flex') body.service_tier = 'flex';
  if (spec.temperature !== undefined) body.temperature = spec.temperature;
  if (spec.maxOutputTokens !== undefined) {
    if (usesMaxCompletionTokens(baseURL)) body.max_completion_tokens = spec.maxOutputTokens;
    else body.max_tokens = spec.maxOutputTokens;
  }
  if (!spec.response) {
    // plain text: no response_format at all
  } else if (mode === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: spec.response.name,
        ...(spec.response.description ? { description: spec.response.description } : {}),
        strict: true,
        schema: spec.response.schema,
      },
    };
  } else if (mode === 'json_object') {
    body.response_format = { type: 'json_object' };
  }
  return body;
}

/**
 * The official client for one provider entry: its base URL, timeout and keep-alive fetch, and
 * no organization or project picked up from the environment (one key, the configured one).
 */
export async function openAIClient(cfg: ProviderConfig, apiKey: string, maxRetries: number): Promise<OpenAI> {
  const { default: Client } = await loadOpenAISdk();
  return new Client({
    apiKey,
    baseURL: resolvedBaseURL(cfg),
    maxRetries,
    timeout: cfg.timeoutMs ?? (cfg.serviceTier === 'flex' ? FLEX_TIMEOUT_MS : DEFAULT_TIMEOUT_MS),
    fetch: keepAliveFetch,
    organization: null,
    project: null,
  });
}

/** The `openai` kind: OpenAI and every server speaking its chat-completions format. */
export class OpenAIChatAdapter implements ChatAdapter {
  private client: Promise<OpenAI> | undefined;
  private readonly baseURL: string;

  constructor(
    private readonly cfg: ProviderConfig,
    private readonly apiKey: string,
  ) {
    this.baseURL = resolvedBaseURL(cfg);
  }

  async send(spec: ChatRequestSpec, opts: { signal?: AbortSignal } = {}): Promise<ProviderResponse> {
    let data: OpenAI.Chat.Completions.ChatCompletion;
    let headers: Headers;
    try {
      // The queue owns retries; a second retry loop inside the SDK would pay twice.
      const client = await (this.client ??= openAIClient(this.cfg, this.apiKey, 0));
      // The raw response, read here: the SDK's own parse step formats its debug-log details
      // and chains promises on every call (a few per cent of a call's CPU, issue 27); errors
      // are still the SDK's (it throws them before the response is handed over).
      const response = await client.chat.completions
        .create(buildOpenAIRequest(spec, this.cfg, this.baseURL), { signal: opts.signal })
        .asResponse();
      data = (await jsonBody(response)) as OpenAI.Chat.Completions.ChatCompletion;
      headers = response.headers;
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
    return { result: openAIResult(data, spec, headers), headers };
  }
}

/**
 * A chat completion as the engine stores it (live or from a batch's output file): usage with
 * OpenAI's automatically cached prompt tokens, and the answer parsed as the request asked.
 * Throws ProviderError('unparseable') with the paid usage when the answer is unusable.
 */
export function openAIResult(
  data: OpenAI.Chat.Completions.ChatCompletion,
  spec: ChatRequestSpec,
  headers: Headers = new Headers(),
): ChatResult {
  const usage: Usage = {
    inputTokens: data.usage?.prompt_tokens ?? 0,
    outputTokens: data.usage?.completion_tokens ?? 0,
    cachedInputTokens: data.usage?.prompt_tokens_details?.cached_tokens ?? 0,
  };
  const message = data.choices?.[0]?.message;
  const text = message?.content ?? '';
  if (!message || (!text && message.refusal))
    throw new ProviderError(
      'unparseable',
      `The model gave no answer${message?.refusal ? ' (refusal)' : ''}.`,
      {
        rawText: message?.refusal ?? '',
        usage,
        headers,
      },
    );
  const cutOff = data.choices?.[0]?.finish_reason === 'length';
  const json = parseStructured(spec.response, { text, cutOff }, usage, headers);
  return cutOff && readFromCutOff(text, json)
    ? { text, json, usage, readFromCutOff: true }
    : { text, json, usage };
}

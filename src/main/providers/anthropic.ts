import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, Tool } from '@anthropic-ai/sdk/resources/messages';
import { DEFAULT_TIMEOUT_MS, resolvedBaseURL, type ProviderConfig } from './config';
import { classifyError, ProviderError } from './errors';
import { keepAliveFetch } from './http-fetch';
import { jsonBody, loadAnthropicSdk } from './sdk';
import { warnOnce } from './sdk-warnings';
import { parseStructured, readFromCutOff, systemWithSchema } from './structured';
import type { ChatAdapter, ChatRequestSpec, ChatResult, ProviderResponse, Usage } from './types';

/** Anthropic requires max_tokens; this is enough for a verdict or a translated item pair. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

export function buildAnthropicRequest(
  spec: ChatRequestSpec,
  cfg: ProviderConfig,
): MessageCreateParamsNonStreaming {
  // Only one structured mode exists here: a forced tool. 'json_object' and 'text' both
  // fall back to the schema in the prompt (e.g. for Anthropic-compatible servers without tools).
  const forcedTool = (cfg.structuredOutput ?? 'json_schema') === 'json_schema' && spec.response !== undefined;
  const system = forcedTool ? spec.system : systemWithSchema(spec);
  const body: MessageCreateParamsNonStreaming = {
    model: spec.model,
    max_tokens: spec.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: spec.messages.map((m) => ({ role: m.role, content: m.content })),
  };
  // The system prompt is the fixed rubric every call of a template shares, byte for byte: mark
  // it for Anthropic's prompt cache (tools and system are cached together; below the model's
  // minimum prefix length the mark is ignored and nothing extra is billed).
  if (system) body.system = [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }];
  // This SDK's types no longer list temperature; the Messages API takes it where the model
  // supports it, and a model that does not answers 400, which the queue reports as such.
  if (spec.temperature !== undefined) Object.assign(body, { temperature: spec.temperature });
  if (forcedTool && spec.response) {
    const tool: Tool = {
      name: spec.response.name,
      description: spec.response.description ?? `Record the answer as "${spec.response.name}".`,
      input_schema: spec.response.schema as Tool.InputSchema,
    };
    body.tools = [tool];
    body.tool_choice = { type: 'tool', name: spec.response.name };
  }
  return body;
}

/** The official client for one provider entry: its base URL, timeout and keep-alive fetch. */
export async function anthropicClient(
  cfg: ProviderConfig,
  apiKey: string,
  maxRetries: number,
): Promise<Anthropic> {
  const { default: Client } = await loadAnthropicSdk();
  return new Client({
    apiKey,
    // Never pick up ANTHROPIC_AUTH_TOKEN from the environment: one key, the configured one.
    authToken: null,
    baseURL: resolvedBaseURL(cfg),
    maxRetries,
    timeout: cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetch: keepAliveFetch,
    // The SDK traces every call with OpenTelemetry by default (a span and its attributes per
    // call, ~30 µs of CPU, issue 27) even when nothing collects them; nothing here does.
    openTelemetry: false,
  });
}

/** The `anthropic` kind: the Messages API with one forced tool carrying the structured answer. */
export class AnthropicChatAdapter implements ChatAdapter {
  private client: Promise<Anthropic> | undefined;

  constructor(
    private readonly cfg: ProviderConfig,
    private readonly apiKey: string,
  ) {}

  async send(spec: ChatRequestSpec, opts: { signal?: AbortSignal } = {}): Promise<ProviderResponse> {
    let data: Anthropic.Message;
    let headers: Headers;
    try {
      // The queue owns retries; a second retry loop inside the SDK would pay twice.
      const client = await (this.client ??= anthropicClient(this.cfg, this.apiKey, 0));
      // The raw response, read here (as in openai.ts): the SDK's parse step costs more per call
      // than reading the body; errors are still the SDK's.
      const response = await warnOnce(() =>
        client.messages.create(buildAnthropicRequest(spec, this.cfg), { signal: opts.signal }),
      ).asResponse();
      data = (await jsonBody(response)) as Anthropic.Message;
      headers = response.headers;
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
    return { result: anthropicResult(data, spec, this.cfg, headers), headers };
  }
}

/**
 * A message as the engine stores it (live or from a batch's results): usage with prompt-cache
 * reads and writes, and the forced tool's input (or the text) parsed as the request asked.
 * Throws ProviderError('unparseable') with the paid usage when the answer is unusable.
 */
export function anthropicResult(
  data: Anthropic.Message,
  spec: ChatRequestSpec,
  cfg: Pick<ProviderConfig, 'structuredOutput'>,
  headers: Headers = new Headers(),
): ChatResult {
  const cacheRead = data.usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = data.usage?.cache_creation_input_tokens ?? 0;
  // Anthropic reports cache reads and writes apart from input_tokens; count them all as
  // input (as OpenAI does) so cost = uncached + cached + output works for both kinds.
  const usage: Usage = {
    inputTokens: (data.usage?.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: data.usage?.output_tokens ?? 0,
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
  const blocks = data.content ?? [];
  const toolUse = spec.response
    ? blocks.find((b) => b.type === 'tool_use' && b.name === spec.response?.name)
    : undefined;
  if (toolUse && toolUse.type === 'tool_use') {
    const text = JSON.stringify(toolUse.input);
    const json = parseStructured(spec.response, { text, value: toolUse.input }, usage, headers);
    return { text, json, usage };
  }
  const text = blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('')
    .trim();
  if (spec.response && (cfg.structuredOutput ?? 'json_schema') === 'json_schema' && !text)
    throw new ProviderError('unparseable', `The model did not call the tool "${spec.response.name}".`, {
      rawText: JSON.stringify(blocks),
      usage,
      headers,
    });
  const cutOff = data.stop_reason === 'max_tokens';
  const json = parseStructured(spec.response, { text, cutOff }, usage, headers);
  return cutOff && readFromCutOff(text, json)
    ? { text, json, usage, readFromCutOff: true }
    : { text, json, usage };
}

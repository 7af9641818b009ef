// The provider-neutral request a protocol plans and the engine sends. Its canonical JSON
// (with the endpoint name) is what the ledger hashes, so it must hold everything that
// changes the answer, and nothing that does not (no keys, no timeouts).

export type StructuredOutputMode = 'json_schema' | 'json_object' | 'text';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface ResponseSchema {
  /** DESIGN.md section 6: 'language_variant' or 'pairwise_verdict'. */
  name: string;
  description?: string;
  /** A JSON Schema object (strict: all properties required, no additional properties). */
  schema: Record<string, unknown>;
}

export interface ChatRequestSpec {
  /** The provider name from the experiment config (e.g. "openai", "local"). */
  provider: string;
  model: string;
  system?: string;
  messages: ChatMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  /**
   * The structured answer wanted; how it is asked for depends on the provider's mode. Absent:
   * a plain-text answer (generated QA answers), returned as the JSON string of the text.
   */
  response?: ResponseSchema;
  /**
   * Which ask of the same question this is (0 = the first; repeats for a judge's run-to-run
   * stability). Never sent to the provider: it makes each repeat its own ledger row, so a repeat
   * is paid once and never twice, and seeds the simulated provider's answer.
   */
  sample?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Input tokens written to the provider's prompt cache (Anthropic bills them apart; OpenAI: 0). */
  cacheWriteTokens?: number;
}

/** What the engine stores for a done request: the raw text and the parsed JSON object (plain-text requests: the text). */
export interface ChatResult {
  text: string;
  json: unknown;
  usage: Usage;
  /**
   * The answer stopped at the output-token limit (OpenAI finish_reason "length", Anthropic
   * stop_reason "max_tokens") and `json` holds only the members written out whole.
   */
  readFromCutOff?: boolean;
}

/** How a failed call is classified; the queue's retry policy is a function of this. */
export type ProviderErrorKind =
  | 'rate_limited'
  | 'quota_exhausted'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'auth'
  | 'not_found'
  | 'bad_request'
  | 'unparseable'
  /** The recorded provider's file has no answer for the request (never retried, never invented). */
  | 'not_recorded'
  | 'cancelled';

/** A successful call: the result plus the response headers that carry rate-limit state. */
export interface ProviderResponse {
  result: ChatResult;
  headers: Headers;
}

/** One configured endpoint, speaking its wire format through the official SDK. */
export interface ChatAdapter {
  send(spec: ChatRequestSpec, opts?: { signal?: AbortSignal }): Promise<ProviderResponse>;
}

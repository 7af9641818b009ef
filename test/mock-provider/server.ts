import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createMockBatches, type BatchBehavior, type MockBatches } from './batches';

// A loopback stand-in for the OpenAI chat-completions and Anthropic messages APIs, spoken
// to by the real SDKs through baseURL. It enforces RPM/TPM limits with the real header
// names, injects faults on demand, and logs every request it receives.

export type MockApi = 'openai' | 'anthropic';

export type Fault =
  | 'server_error' // 500
  | 'overloaded' // 529 (Anthropic's overloaded_error; OpenAI-compatible servers use 503)
  | 'hang' // never answers: the client's timeout fires
  | 'drop' // the connection is destroyed without an answer
  | 'malformed' // 200 with text that is not JSON
  | 'truncated' // 200 with the JSON cut off (finish_reason "length")
  | 'schema_mismatch' // 200 with valid JSON that breaks the schema
  | 'rate_limit' // 429 with retry-after
  | 'quota' // 429 insufficient_quota
  | 'bad_request' // 400
  | 'not_found'; // 404 model not found

export interface MockRequest {
  api: MockApi;
  model: string;
  system?: string;
  messages: { role: string; content: string }[];
  /** The last user message: handy for telling requests apart in tests. */
  lastUser: string;
  /** How the structured answer was asked for. */
  mode: 'json_schema' | 'json_object' | 'text' | 'tool';
  schemaName?: string;
  schema?: Record<string, unknown>;
  maxTokens?: number;
  temperature?: number;
  /** Anthropic: the system prompt carries cache_control (prompt caching asked for). */
  cacheControl?: boolean;
  body: Record<string, unknown>;
}

export interface LogEntry {
  seq: number;
  at: number;
  api: MockApi;
  path: string;
  model?: string;
  lastUser?: string;
  mode?: MockRequest['mode'];
  authorized: boolean;
  status: number | 'hang' | 'drop';
  fault?: Fault;
  /** When the exchange ended: the answer written, or the connection dropped. Unset: on the wire. */
  endedAt?: number;
}

export interface MockBehavior extends BatchBehavior {
  /** Answer delay, uniform in [min, max] ms. */
  latencyMs: [number, number];
  /** Per-model limits; 429 beyond them. */
  rpm?: number;
  tpm?: number;
  /** Seconds of budget the limit buckets hold (60 = a full minute, as providers count). */
  burstSeconds: number;
  /** When set, any other key gets 401 (with the key echoed back, as some servers do). */
  apiKey?: string;
  /** Answer object for a request; by default one that satisfies the schema. */
  respond: (req: MockRequest) => unknown;
  /** A fault for this request (n = 1-based request number), or undefined for a normal answer. */
  faultFor?: (req: MockRequest, n: number) => Fault | undefined;
  /**
   * A poison request: the connection is destroyed at once, before any latency, for every
   * request this matches (e.g. one body that always breaks the server), whatever faultFor says.
   */
  dropAtOnce?: (req: MockRequest) => boolean;
  /** Faults applied to the next requests in order (consumed), before faultFor. */
  faultQueue: Fault[];
  /** retry-after seconds sent with injected or limit 429s. */
  retryAfterSec: number;
  /** Cached prompt tokens reported in usage (fixed); 0: prompt caching as the providers do it. */
  cachedTokens: number;
  /**
   * Prompt caching when `cachedTokens` is 0: a system prompt of at least this many tokens seen
   * before for the model is read from the cache (OpenAI: automatic; Anthropic: with
   * cache_control, written the first time). Providers' minimum: 1024.
   */
  promptCacheMinTokens: number;
  /** In text mode, wrap the JSON in prose and a ```json fence (as chatty models do). */
  wrapText: boolean;
  /**
   * OpenAI's flex tier: a request with \`service_tier: "flex"\` this says no to (n = 1-based
   * request number) gets 429 "resource unavailable", as OpenAI answers when flex has no capacity.
   */
  flexUnavailable?: (req: MockRequest, n: number) => boolean;
  /** Keep request bodies out of the log (benchmarks). */
  logBodies: boolean;
}

export interface MockProvider {
  url: string;
  port: number;
  log: LogEntry[];
  /** Bodies of logged requests (same index as log) when logBodies is on. */
  bodies: MockRequest[];
  setBehavior(patch: Partial<MockBehavior>): void;
  /** Answers per model/mode/schema name, for "calls per kind" checks. */
  countBy(key: (e: LogEntry) => string): Record<string, number>;
  /** From now on answers wait (after their latency) until released: calls stay on the wire. */
  hold(): void;
  /** Sends the oldest `n` (default: all) answers waiting now; later ones keep waiting. Returns how many. */
  releaseHeld(n?: number): number;
  /** Answers waiting now. */
  heldCount(): number;
  /** Stops holding and sends every waiting answer. */
  stopHolding(): void;
  /** Stops listening and drops every connection: calls are refused, as by a server that is down. */
  goDown(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
  /** The batch endpoints (OpenAI Files + Batches, Anthropic Message Batches). */
  batches: MockBatches;
}

class Bucket {
  private level: number;
  private last = Date.now();
  constructor(
    private readonly perMinute: number,
    private readonly capacity: number,
  ) {
    this.level = capacity;
  }
  private refill(now: number) {
    this.level = Math.min(this.capacity, this.level + ((now - this.last) * this.perMinute) / 60_000);
    this.last = now;
  }
  take(n: number, now: number): boolean {
    this.refill(now);
    if (this.level < Math.min(n, this.capacity)) return false;
    this.level -= n;
    return true;
  }
  remaining(now: number): number {
    this.refill(now);
    return Math.max(0, Math.floor(this.level));
  }
  /** ms until the bucket is full again. */
  resetMs(now: number): number {
    this.refill(now);
    return Math.ceil(((this.capacity - this.level) * 60_000) / this.perMinute);
  }
  waitMs(n: number, now: number): number {
    this.refill(now);
    const deficit = Math.min(n, this.capacity) - this.level;
    return deficit <= 0 ? 0 : Math.ceil((deficit * 60_000) / this.perMinute);
  }
}

/** A value satisfying a (simple) JSON Schema: first enum value, midpoint numbers, short strings. */
export function sampleFromSchema(schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return {};
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sampleFromSchema(v)]));
    }
    case 'number':
    case 'integer': {
      const lo = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const hi = typeof schema.maximum === 'number' ? schema.maximum : 1;
      return schema.type === 'integer' ? Math.round((lo + hi) / 2) : (lo + hi) / 2;
    }
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return 'ok';
  }
}

/** Go-style duration, as OpenAI writes x-ratelimit-reset-*: "20ms", "1s", "1m30s". */
function goDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const totalSec = ms / 1000;
  const m = Math.floor(totalSec / 60);
  const s = Math.round((totalSec - m * 60) * 1000) / 1000;
  return m ? `${m}m${s}s` : `${s}s`;
}

const approxTokens = (text: string) => Math.ceil(text.length / 4);

export function parseOpenAI(body: Record<string, unknown>): MockRequest {
  const msgs = (body.messages ?? []) as { role: string; content: string }[];
  const system = msgs.find((m) => m.role === 'system')?.content;
  const messages = msgs.filter((m) => m.role !== 'system');
  const rf = body.response_format as {
    type?: string;
    json_schema?: { name: string; schema: Record<string, unknown> };
  };
  const mode =
    rf?.type === 'json_schema' ? 'json_schema' : rf?.type === 'json_object' ? 'json_object' : 'text';
  let schemaName = rf?.json_schema?.name;
  let schema = rf?.json_schema?.schema;
  if (!schema && system) ({ schemaName, schema } = schemaFromPrompt(system));
  return {
    api: 'openai',
    model: String(body.model),
    system,
    messages,
    lastUser: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
    mode,
    schemaName,
    schema,
    maxTokens: (body.max_completion_tokens ?? body.max_tokens) as number | undefined,
    temperature: body.temperature as number | undefined,
    body,
  };
}

function parseAnthropic(body: Record<string, unknown>): MockRequest {
  const messages = (body.messages ?? []) as { role: string; content: string }[];
  const raw = body.system as string | { type: string; text: string; cache_control?: unknown }[] | undefined;
  const system = Array.isArray(raw) ? raw.map((b) => b.text).join('') : raw;
  const cacheControl = Array.isArray(raw) && raw.some((b) => b.cache_control);
  const tools = body.tools as { name: string; input_schema: Record<string, unknown> }[] | undefined;
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  const tool = tools?.find((t) => t.name === choice?.name);
  let schemaName = tool?.name;
  let schema = tool?.input_schema;
  if (!schema && system) ({ schemaName, schema } = schemaFromPrompt(system));
  return {
    api: 'anthropic',
    model: String(body.model),
    system,
    messages,
    lastUser: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
    mode: tool ? 'tool' : 'text',
    schemaName,
    schema,
    maxTokens: body.max_tokens as number | undefined,
    temperature: body.temperature as number | undefined,
    cacheControl,
    body,
  };
}

/** In the prompt-described modes the schema is the JSON after "JSON Schema exactly:". */
function schemaFromPrompt(system: string): { schemaName?: string; schema?: Record<string, unknown> } {
  const name = /one JSON object named "([^"]+)"/.exec(system)?.[1];
  const at = system.indexOf('{', system.indexOf('JSON Schema'));
  if (at < 0) return { schemaName: name };
  try {
    return { schemaName: name, schema: JSON.parse(system.slice(at)) as Record<string, unknown> };
  } catch {
    return { schemaName: name };
  }
}

export async function startMockProvider(initial: Partial<MockBehavior> = {}): Promise<MockProvider> {
  const behavior: MockBehavior = {
    latencyMs: [0, 0],
    burstSeconds: 60,
    respond: (req) => sampleFromSchema(req.schema),
    faultQueue: [],
    retryAfterSec: 1,
    cachedTokens: 0,
    wrapText: true,
    logBodies: true,
    batchTurnaroundMs: 50,
    promptCacheMinTokens: 1024,
    ...initial,
  };
  /** System prompts seen per model: what a provider's prompt cache would hold. */
  const cachedPrefixes = new Set<string>();
  /** Cache reads and writes of a request, as the provider would report them. */
  const cacheUsage = (req: MockRequest, input: number): { read: number; write: number } => {
    if (behavior.cachedTokens > 0) return { read: Math.min(behavior.cachedTokens, input), write: 0 };
    const prefix = approxTokens(req.system ?? '');
    if (!req.system || prefix < behavior.promptCacheMinTokens) return { read: 0, write: 0 };
    if (req.api === 'anthropic' && !req.cacheControl) return { read: 0, write: 0 };
    const key = `${req.api}\u0000${req.model}\u0000${req.system}`;
    if (cachedPrefixes.has(key)) return { read: prefix, write: 0 };
    cachedPrefixes.add(key);
    return { read: 0, write: req.api === 'anthropic' ? prefix : 0 };
  };
  const log: LogEntry[] = [];
  const bodies: MockRequest[] = [];
  const buckets = new Map<string, { rpm?: Bucket; tpm?: Bucket }>();
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  let holding = false;
  let held: (() => void)[] = [];
  let seq = 0;

  const limitsFor = (model: string) => {
    let b = buckets.get(model);
    if (!b) {
      const cap = (perMin: number) => Math.max(1, (perMin * behavior.burstSeconds) / 60);
      b = {
        rpm: behavior.rpm ? new Bucket(behavior.rpm, cap(behavior.rpm)) : undefined,
        tpm: behavior.tpm ? new Bucket(behavior.tpm, cap(behavior.tpm)) : undefined,
      };
      buckets.set(model, b);
    }
    return b;
  };

  const rateHeaders = (api: MockApi, model: string, now: number): Record<string, string> => {
    const b = limitsFor(model);
    const h: Record<string, string> = {};
    if (api === 'openai') {
      if (b.rpm && behavior.rpm) {
        h['x-ratelimit-limit-requests'] = String(behavior.rpm);
        h['x-ratelimit-remaining-requests'] = String(b.rpm.remaining(now));
        h['x-ratelimit-reset-requests'] = goDuration(b.rpm.resetMs(now));
      }
      if (b.tpm && behavior.tpm) {
        h['x-ratelimit-limit-tokens'] = String(behavior.tpm);
        h['x-ratelimit-remaining-tokens'] = String(b.tpm.remaining(now));
        h['x-ratelimit-reset-tokens'] = goDuration(b.tpm.resetMs(now));
      }
    } else {
      if (b.rpm && behavior.rpm) {
        h['anthropic-ratelimit-requests-limit'] = String(behavior.rpm);
        h['anthropic-ratelimit-requests-remaining'] = String(b.rpm.remaining(now));
        h['anthropic-ratelimit-requests-reset'] = new Date(now + b.rpm.resetMs(now)).toISOString();
      }
      if (b.tpm && behavior.tpm) {
        h['anthropic-ratelimit-tokens-limit'] = String(behavior.tpm);
        h['anthropic-ratelimit-tokens-remaining'] = String(b.tpm.remaining(now));
        h['anthropic-ratelimit-tokens-reset'] = new Date(now + b.tpm.resetMs(now)).toISOString();
      }
    }
    return h;
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const errorBody = (api: MockApi, type: string, message: string, code?: string) =>
    api === 'openai'
      ? { error: { message, type, code: code ?? null, param: null } }
      : { type: 'error', error: { type, message } };

  const answer = (req: MockRequest, fault: Fault | undefined) => {
    let obj = behavior.respond(req);
    if (fault === 'schema_mismatch') obj = { unexpected: true };
    // A request without a schema asks for plain text: a string answer goes out as it is.
    const plain = typeof obj === 'string' && !req.schema;
    let text = plain ? (obj as string) : JSON.stringify(obj);
    if (plain) {
      // plain text is never wrapped in a JSON fence
    } else if (fault === 'malformed') text = 'I think the first answer is better, but I cannot say for sure.';
    else if (fault === 'truncated') text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    else if (req.mode === 'text' && behavior.wrapText)
      text = `Here is my answer.\n\n\`\`\`json\n${JSON.stringify(obj, null, 2)}\n\`\`\`\nHope this helps.`;
    const promptText = (req.system ?? '') + req.messages.map((m) => m.content).join('\n');
    const usage = { input: approxTokens(promptText), output: approxTokens(text) };
    const cache = cacheUsage(req, usage.input);
    const finish = fault === 'truncated' ? 'length' : 'stop';
    if (req.api === 'openai')
      return {
        id: `chatcmpl-${seq}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: req.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: finish },
        ],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
          prompt_tokens_details: { cached_tokens: cache.read },
        },
      };
    const useTool = req.mode === 'tool' && fault !== 'malformed' && fault !== 'truncated';
    return {
      id: `msg_${seq}`,
      type: 'message',
      role: 'assistant',
      model: req.model,
      content: useTool
        ? [{ type: 'tool_use', id: `toolu_${seq}`, name: req.schemaName, input: obj }]
        : [{ type: 'text', text }],
      stop_reason: fault === 'truncated' ? 'max_tokens' : useTool ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: usage.input - cache.read - cache.write,
        output_tokens: usage.output,
        cache_read_input_tokens: cache.read,
        cache_creation_input_tokens: cache.write,
      },
    };
  };

  const batches = createMockBatches({
    behavior: () => behavior,
    parseOpenAI,
    parseAnthropic,
    answer: (req) => answer(req, undefined),
    send,
    authorized: (httpReq, api) => {
      const bearer = String(httpReq.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      const key = api === 'anthropic' ? String(httpReq.headers['x-api-key'] ?? bearer) : bearer;
      return !behavior.apiKey || key === behavior.apiKey;
    },
  });

  const handle = async (httpReq: IncomingMessage, res: ServerResponse, rawBytes: Buffer) => {
    const path = (httpReq.url ?? '').split('?')[0];
    if (batches.handle(httpReq, res, path, rawBytes)) return;
    const raw = rawBytes.toString('utf8');
    const api: MockApi = path.endsWith('/messages') ? 'anthropic' : 'openai';
    // Anthropic takes x-api-key; its SDK (1.x) sends the key as a bearer token. Accept both.
    const bearer = String(httpReq.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const key = api === 'anthropic' ? String(httpReq.headers['x-api-key'] ?? bearer) : bearer;
    const authorized = !behavior.apiKey || key === behavior.apiKey;
    const n = ++seq;
    const entry: LogEntry = { seq: n, at: Date.now(), api, path, authorized, status: 200 };
    log.push(entry);
    res.once('close', () => (entry.endedAt ??= Date.now()));

    if (httpReq.method === 'GET' && path.endsWith('/models')) {
      bodies.push(undefined as unknown as MockRequest);
      if (!authorized) return unauthorized(res, api, key, entry);
      const models = ['gpt-4.1-mini', 'mock-model', 'claude-haiku-4-5'];
      return send(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock' })),
      });
    }
    if (httpReq.method !== 'POST' || !(path.endsWith('/chat/completions') || path.endsWith('/messages'))) {
      entry.status = 404;
      bodies.push(undefined as unknown as MockRequest);
      return send(res, 404, errorBody(api, 'not_found_error', `No route ${path}`));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      entry.status = 400;
      bodies.push(undefined as unknown as MockRequest);
      return send(res, 400, errorBody(api, 'invalid_request_error', 'Body is not JSON'));
    }
    const req = api === 'openai' ? parseOpenAI(body) : parseAnthropic(body);
    entry.model = req.model;
    entry.lastUser = req.lastUser;
    entry.mode = req.mode;
    bodies.push(behavior.logBodies ? req : (undefined as unknown as MockRequest));
    if (!authorized) return unauthorized(res, api, key, entry);

    if (behavior.dropAtOnce?.(req)) {
      entry.status = 'drop';
      entry.fault = 'drop';
      httpReq.socket.destroy();
      return;
    }
    if (api === 'openai' && body.service_tier === 'flex' && behavior.flexUnavailable?.(req, n)) {
      entry.status = 429;
      return send(
        res,
        429,
        errorBody(
          api,
          'resource_unavailable',
          'Resource unavailable: the flex processing tier has no capacity right now. Please retry later.',
          'resource_unavailable',
        ),
      );
    }
    const fault = behavior.faultQueue.length ? behavior.faultQueue.shift() : behavior.faultFor?.(req, n);
    if (fault) entry.fault = fault;
    const now = Date.now();
    const limits = limitsFor(req.model);
    const tokens =
      approxTokens((req.system ?? '') + req.messages.map((m) => m.content).join('\n')) + (req.maxTokens ?? 0);
    let limited = fault === 'rate_limit';
    let retryMs = behavior.retryAfterSec * 1000;
    if (!fault) {
      const rw = limits.rpm?.waitMs(1, now) ?? 0;
      const tw = limits.tpm?.waitMs(tokens, now) ?? 0;
      if (rw > 0 || tw > 0) {
        limited = true;
        retryMs = Math.max(rw, tw);
      } else {
        limits.rpm?.take(1, now);
        limits.tpm?.take(tokens, now);
      }
    }
    if (limited) {
      entry.status = 429;
      return send(
        res,
        429,
        errorBody(
          api,
          api === 'openai' ? 'requests' : 'rate_limit_error',
          'Rate limit reached',
          'rate_limit_exceeded',
        ),
        {
          ...rateHeaders(api, req.model, now),
          'retry-after': String(Math.max(1, Math.ceil(retryMs / 1000))),
          ...(api === 'openai' ? { 'retry-after-ms': String(Math.ceil(retryMs)) } : {}),
        },
      );
    }
    const [lo, hi] = behavior.latencyMs;
    const delay = lo + Math.random() * (hi - lo);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (holding) await new Promise<void>((r) => held.push(r));
    switch (fault) {
      case 'hang':
        entry.status = 'hang';
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      case 'drop':
        entry.status = 'drop';
        httpReq.socket.destroy();
        return;
      case 'server_error':
        entry.status = 500;
        return send(
          res,
          500,
          errorBody(api, 'server_error', 'The server had an error while processing your request.'),
        );
      case 'overloaded':
        entry.status = 529;
        return send(res, 529, errorBody(api, 'overloaded_error', 'Overloaded'));
      case 'quota':
        entry.status = 429;
        return send(
          res,
          429,
          errorBody(
            api,
            'insufficient_quota',
            'You exceeded your current quota, please check your plan and billing details.',
            'insufficient_quota',
          ),
        );
      case 'bad_request':
        entry.status = 400;
        return send(res, 400, errorBody(api, 'invalid_request_error', "Invalid value for 'temperature'."));
      case 'not_found':
        entry.status = 404;
        return send(
          res,
          404,
          errorBody(api, 'not_found_error', `The model '${req.model}' does not exist`, 'model_not_found'),
        );
      default:
        return send(res, 200, answer(req, fault), rateHeaders(api, req.model, Date.now()));
    }
  };

  const unauthorized = (res: ServerResponse, api: MockApi, key: string, entry: LogEntry) => {
    entry.status = 401;
    // Echo the key like a careless server would, so tests can check it never leaks further.
    send(
      res,
      401,
      errorBody(
        api,
        api === 'openai' ? 'invalid_request_error' : 'authentication_error',
        `Incorrect API key provided: ${key}.`,
        'invalid_api_key',
      ),
    );
  };

  const server = createServer((httpReq, res) => {
    const chunks: Buffer[] = [];
    httpReq.on('data', (c: Buffer) => chunks.push(c));
    httpReq.on('end', () => {
      handle(httpReq, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent) send(res, 500, { error: { message: String(err) } });
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    bodies,
    batches,
    setBehavior(patch) {
      Object.assign(behavior, patch);
      if (patch.rpm !== undefined || patch.tpm !== undefined || patch.burstSeconds !== undefined)
        buckets.clear();
    },
    countBy(key) {
      const out: Record<string, number> = {};
      for (const e of log) {
        const k = key(e);
        out[k] = (out[k] ?? 0) + 1;
      }
      return out;
    },
    hold() {
      holding = true;
    },
    releaseHeld(n = Infinity) {
      const now = held.splice(0, n);
      for (const go of now) go();
      return now.length;
    },
    heldCount: () => held.length,
    stopHolding() {
      holding = false;
      const now = held;
      held = [];
      for (const go of now) go();
    },
    goDown: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const res of hanging) res.destroy();
        for (const s of sockets) s.destroy();
      }),
    comeBack: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const go of held.splice(0)) go();
        for (const res of hanging) res.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

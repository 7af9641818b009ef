import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { Agent } from 'undici';

// The SDKs accept a custom fetch. Node's built-in fetch (undici's fetch + web streams) costs more
// CPU per call than the whole rest of the engine; for small non-streaming JSON calls undici's own
// request API on a keep-alive agent does the same job several times cheaper (~64 µs of CPU a call
// against ~130 through node:http and ~330 through fetch, measured on Node 20 at 16 calls at once,
// issue 39). Anything this does not handle (streamed or form bodies) goes to the built-in fetch.

/**
 * One agent for every origin, loaded with the first call (like the SDKs: a command that never
 * calls a provider does not load it). No timeouts of its own: the SDKs time each call with an
 * abort signal (OpenAI's flex tier waits up to 15 minutes), and undici's defaults (300 s for
 * headers and for the body) would cut slow answers short.
 */
let agent: Promise<Agent> | undefined;
const dispatcher = () =>
  (agent ??= import('undici').then(
    ({ Agent }) => new Agent({ connections: 512, headersTimeout: 0, bodyTimeout: 0 }),
  ));

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  return err;
}

function headerRecord(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers) h.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(h)) for (const [k, v] of h) out[k.toLowerCase()] = v;
  else for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

/** The body's bytes, decoded as fetch decodes them (gzip, deflate, br). */
async function bodyBytes(body: Readable, encoding: string): Promise<Buffer<ArrayBuffer>> {
  const unzip =
    encoding === 'gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  const chunks: Buffer[] = [];
  if (unzip) {
    body.on('error', (err) => unzip.destroy(err));
    body.pipe(unzip);
  }
  for await (const c of unzip ?? body) chunks.push(c as Buffer);
  return Buffer.concat(chunks) as Buffer<ArrayBuffer>;
}

const utf8 = new TextDecoder();

/**
 * A body's bytes as a web stream, filled when first read. The Anthropic SDK reads `body` of every
 * answer (to tie its abort listener's lifetime to it) before handing the Response over, so it is
 * made for every call: `new Response(buf).body` built a whole second Response for it (~25 µs
 * against ~11 µs, measured on Node 20; a third of the study's calls are Anthropic's).
 */
function bodyStream(buf: Buffer<ArrayBuffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      // A copy: a byte stream's enqueue detaches the buffer it is given.
      if (buf.byteLength > 0) controller.enqueue(new Uint8Array(buf));
      controller.close();
    },
  });
}

function unusable(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/**
 * A Response over a body already in memory. `new Response(buffer)` wraps it in a web
 * ReadableStream that json() then reads back through undici: for a small JSON answer that
 * costs about as much CPU as the SDK's own handling. The SDKs read answers with json() or
 * text(), answered here straight from the buffer; `body` is still a real stream, made when
 * first asked for, and reading it or a text method uses the body up as usual.
 */
class BufferedResponse extends Response {
  readonly #buf: Buffer<ArrayBuffer>;
  #used = false;
  #stream: ReadableStream<Uint8Array> | null = null;

  constructor(buf: Buffer<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#buf = buf;
  }

  static {
    // `body` and `bodyUsed` are accessors of Response.prototype; these shadow them.
    Object.defineProperties(BufferedResponse.prototype, {
      body: {
        get(this: BufferedResponse) {
          return (this.#stream ??= bodyStream(this.#buf));
        },
      },
      bodyUsed: {
        get(this: BufferedResponse) {
          return this.#used || (this.#stream?.locked ?? false);
        },
      },
    });
  }

  #take(): Buffer<ArrayBuffer> {
    if (this.#used || this.#stream?.locked) throw unusable();
    this.#used = true;
    return this.#buf;
  }

  override async text(): Promise<string> {
    return utf8.decode(this.#take());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(utf8.decode(this.#take())) as unknown;
  }

  // Copies, as a stream's bytes would be: the caller may keep or change them.
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.#take()).buffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(this.#take());
  }

  override async blob(): Promise<Blob> {
    return new Blob([new Uint8Array(this.#take())], { type: this.headers.get('content-type') ?? '' });
  }

  override clone(): Response {
    if (this.#used || this.#stream?.locked) throw unusable();
    return new BufferedResponse(this.#buf, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }
}

/**
 * The origin and path of a URL, parsed once: an SDK asks the same few URLs (one per endpoint and
 * path) thousands of times a second.
 */
const targets = new Map<string, { protocol: string; origin: string; path: string }>();

function target(href: string) {
  let t = targets.get(href);
  if (!t) {
    const url = new URL(href);
    t = { protocol: url.protocol, origin: url.origin, path: `${url.pathname}${url.search}` };
    if (targets.size >= 256) targets.clear();
    targets.set(href, t);
  }
  return t;
}

/** Headers as fetch gives them, as pairs (a Response builds its own Headers from them once). */
function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name in headers) {
    // The body is handed over decoded, and its length is the Response's own.
    if (name === 'content-encoding' || name === 'content-length') continue;
    const v = headers[name];
    if (Array.isArray(v)) for (const one of v) pairs.push([name, one]);
    else if (v !== undefined) pairs.push([name, v]);
  }
  return pairs;
}

export const keepAliveFetch: typeof fetch = async (input, init) => {
  const body = init?.body;
  const simpleBody = body == null || typeof body === 'string' || body instanceof Uint8Array;
  const url = target(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  if (!simpleBody || !web || (typeof input !== 'string' && !(input instanceof URL)))
    return fetch(input, init);
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) throw abortError(signal);
  const aborted = (err: unknown) => (signal?.aborted ? abortError(signal) : err);
  let res: Awaited<ReturnType<Agent['request']>>;
  try {
    res = await (
      await dispatcher()
    ).request({
      origin: url.origin,
      path: url.path,
      method: (init?.method ?? 'GET') as 'GET',
      headers: headerRecord(init?.headers),
      body: body ?? null,
      signal,
    });
  } catch (err) {
    throw aborted(err);
  }
  const status = res.statusCode;
  const responseInit = { status, statusText: res.statusText, headers: headerPairs(res.headers) };
  if (status === 204 || status === 205 || status === 304) {
    await res.body.dump();
    return new Response(null, responseInit);
  }
  let bytes: Buffer<ArrayBuffer>;
  try {
    bytes = await bodyBytes(res.body, String(res.headers['content-encoding'] ?? '').toLowerCase());
  } catch (err) {
    if (signal?.aborted) throw abortError(signal);
    // As fetch says it (errors.ts reads "terminated" as a connection lost, to be asked again).
    throw new Error('The connection was closed before the answer was complete (terminated)', {
      cause: err,
    });
  }
  return new BufferedResponse(bytes, responseInit);
};

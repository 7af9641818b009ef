// The providers' batch endpoints for the mock: OpenAI's Files + Batch API (JSONL upload,
// polling, output and error files) and Anthropic's Message Batches (results stream). Each
// entry is answered by the same responder as a live call. Knobs: turnaround, expiry of some
// entries (the batch then ends "expired"), partial failure (errored entries), cancel.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockRequest } from './server';

/** What the batch endpoints do with one entry. */
export type BatchEntryOutcome = 'ok' | 'error' | 'expired';

export interface BatchBehavior {
  /** Time from create to the end of processing, ms. */
  batchTurnaroundMs: number;
  /** Outcome per entry (n = 1-based entry number across all batches); default 'ok'. */
  batchOutcome?: (customId: string, req: MockRequest, n: number) => BatchEntryOutcome;
  /** The next this-many result downloads (OpenAI file content, Anthropic results) answer 500. */
  batchResultFailures?: number;
  /**
   * The next this-many batch creates (either API) are accepted, and then the connection is
   * dropped before the reply: the client cannot know the batch exists.
   */
  batchCreateReplyLost?: number;
  /** A new batch shows in the list endpoints only this long after its create (providers lag). */
  batchListLagMs?: number;
  /** The next this-many OpenAI file uploads answer 500 (nothing is stored). */
  batchUploadFailures?: number;
  /** Batch creates are accepted, and their reply is never sent (the client waits, or dies). */
  batchCreateHold?: boolean;
  /** A server without a Batch API (most OpenAI-compatible ones): its endpoints answer 404. */
  batchApiMissing?: boolean;
}

interface FileObj {
  id: string;
  filename: string;
  purpose: string;
  content: string;
  created: number;
}

interface Entry {
  customId: string;
  req: MockRequest;
  outcome: BatchEntryOutcome;
}

interface BatchState {
  api: 'openai' | 'anthropic';
  id: string;
  created: number;
  endsAt: number;
  entries: Entry[];
  cancelledAt?: number;
  endedAt?: number;
  /** Which entries had an answer before the batch ended (cancel stops the rest). */
  answered?: number;
  inputFileId?: string;
  outputFileId?: string | null;
  errorFileId?: string | null;
  metadata?: unknown;
  /** Retrieves so far: the first one always reads 'validating' (OpenAI checks the file first). */
  retrieved?: number;
}

export interface BatchLogEntry {
  api: 'openai' | 'anthropic';
  op: 'upload' | 'create' | 'retrieve' | 'results' | 'cancel' | 'content' | 'list';
  id: string;
  at: number;
  entries?: number;
}

export interface MockBatches {
  /** Returns true when it answered the request. */
  handle(httpReq: IncomingMessage, res: ServerResponse, path: string, raw: Buffer): boolean;
  log: BatchLogEntry[];
  /** Batches created, by provider id: their entries' custom ids, and the requests they stand for. */
  created(): { api: string; id: string; customIds: string[]; requests: string[] }[];
}

export interface BatchDeps {
  behavior: () => BatchBehavior;
  parseOpenAI: (body: Record<string, unknown>) => MockRequest;
  parseAnthropic: (body: Record<string, unknown>) => MockRequest;
  /** The live answer body (chat completion or message) for a request. */
  answer: (req: MockRequest) => unknown;
  send: (res: ServerResponse, status: number, body: unknown) => void;
  authorized: (httpReq: IncomingMessage, api: 'openai' | 'anthropic') => boolean;
}

/** The request a custom id stands for: Judge Lab ends each with its batch's nonce (`r12_<nonce>`). */
export const requestOf = (customId: string): string => customId.replace(/_[0-9a-f]{12}$/, '');

const iso = (ms: number) => new Date(ms).toISOString();
const secs = (ms: number) => Math.floor(ms / 1000);
const DAY_MS = 24 * 3600 * 1000;

/** The parts of a multipart/form-data body, by field name (text fields and files alike). */
export function parseMultipart(
  raw: Buffer,
  contentType: string,
): Map<string, { filename?: string; data: Buffer }> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const out = new Map<string, { filename?: string; data: Buffer }>();
  if (!boundary) return out;
  const delim = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let at = raw.indexOf(delim);
  while (at >= 0) {
    const start = at + delim.length;
    const next = raw.indexOf(delim, start);
    if (next < 0) break;
    const part = raw.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd >= 0) {
      const head = part.subarray(0, headEnd).toString('utf8');
      const name = /name="([^"]*)"/.exec(head)?.[1];
      const filename = /filename="([^"]*)"/.exec(head)?.[1];
      if (name) out.set(name, { filename, data: part.subarray(headEnd + 4) });
    }
    at = next;
  }
  return out;
}

export function createMockBatches(deps: BatchDeps): MockBatches {
  const files = new Map<string, FileObj>();
  const batches = new Map<string, BatchState>();
  const log: BatchLogEntry[] = [];
  let seq = 0;
  let entrySeq = 0;

  const failDownload = (): boolean => {
    const b = deps.behavior();
    if (!b.batchResultFailures) return false;
    b.batchResultFailures--;
    return true;
  };

  /** Answers a create, or loses/holds the reply when a knob says so (the batch exists either way). */
  const createReply = (res: ServerResponse, body: unknown) => {
    const b = deps.behavior();
    if (b.batchCreateHold) return; // never answered: the client times out, or is killed first
    if (b.batchCreateReplyLost) {
      b.batchCreateReplyLost--;
      res.socket?.destroy();
      return;
    }
    deps.send(res, 200, body);
  };

  /** One page of a list, newest first, after the cursor id (both APIs page this way). */
  const page = <T extends { id: string }>(all: T[], after: string | null, limit: number) => {
    const newest = [...all].reverse();
    const start = after ? newest.findIndex((b) => b.id === after) + 1 : 0;
    const data = newest.slice(start, start + limit);
    return { data, has_more: start + limit < newest.length };
  };
  const limitOf = (url: URL) => Math.min(1000, Math.max(1, Number(url.searchParams.get('limit') ?? 20)));

  const outcomeFor = (customId: string, req: MockRequest): BatchEntryOutcome =>
    deps.behavior().batchOutcome?.(customId, req, ++entrySeq) ?? 'ok';

  /** Settles a batch whose time has come: which entries got answers, and its files. */
  const settle = (b: BatchState, now: number) => {
    if (b.endedAt !== undefined) return;
    if (b.cancelledAt !== undefined) {
      // Entries answered before the cancel keep their answers; the rest are cancelled.
      const frac = Math.min(1, (b.cancelledAt - b.created) / Math.max(1, b.endsAt - b.created));
      b.answered = Math.floor(b.entries.length * frac);
      b.endedAt = now;
    } else if (now >= b.endsAt) {
      b.answered = b.entries.length;
      b.endedAt = now;
    } else return;
    if (b.api === 'openai') {
      const out: string[] = [];
      const err: string[] = [];
      b.entries.forEach((e, i) => {
        if (i >= (b.answered ?? 0)) return; // cancelled: in neither file
        const id = `batch_req_${b.id}_${i}`;
        if (e.outcome === 'ok')
          out.push(
            JSON.stringify({
              id,
              custom_id: e.customId,
              response: { status_code: 200, request_id: `req_${i}`, body: deps.answer(e.req) },
              error: null,
            }),
          );
        else if (e.outcome === 'error')
          err.push(
            JSON.stringify({
              id,
              custom_id: e.customId,
              response: {
                status_code: 500,
                request_id: `req_${i}`,
                body: { error: { message: 'The server had an error.', type: 'server_error' } },
              },
              error: null,
            }),
          );
        else
          err.push(
            JSON.stringify({
              id,
              custom_id: e.customId,
              response: null,
              error: {
                code: 'batch_expired',
                message: 'This request could not be executed before the completion window expired.',
              },
            }),
          );
      });
      const file = (lines: string[], name: string) => {
        if (!lines.length) return null;
        const f: FileObj = {
          id: `file-${++seq}`,
          filename: name,
          purpose: 'batch_output',
          content: lines.join('\n') + '\n',
          created: now,
        };
        files.set(f.id, f);
        return f.id;
      };
      b.outputFileId = file(out, 'output.jsonl');
      b.errorFileId = file(err, 'errors.jsonl');
    }
  };

  const counts = (b: BatchState) => {
    const ended = b.endedAt !== undefined;
    const done = ended ? b.entries.slice(0, b.answered) : [];
    return {
      ok: done.filter((e) => e.outcome === 'ok').length,
      error: done.filter((e) => e.outcome === 'error').length,
      expired: done.filter((e) => e.outcome === 'expired').length,
      cancelled: ended ? b.entries.length - done.length : 0,
    };
  };

  const openaiView = (b: BatchState, now: number) => {
    settle(b, now);
    const c = counts(b);
    const span = b.endsAt - b.created;
    let status: string;
    if (b.endedAt !== undefined)
      status = b.cancelledAt !== undefined ? 'cancelled' : c.expired ? 'expired' : 'completed';
    else if (b.cancelledAt !== undefined) status = 'cancelling';
    else if (!b.retrieved || now < b.created + span * 0.1) status = 'validating';
    else if (now < b.created + span * 0.9) status = 'in_progress';
    else status = 'finalizing';
    return {
      id: b.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      errors: null,
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status,
      output_file_id: b.outputFileId ?? null,
      error_file_id: b.errorFileId ?? null,
      created_at: secs(b.created),
      in_progress_at: secs(b.created),
      expires_at: secs(b.created + DAY_MS),
      finalizing_at: b.endedAt ? secs(b.endedAt) : null,
      completed_at: status === 'completed' ? secs(b.endedAt!) : null,
      failed_at: null,
      expired_at: status === 'expired' ? secs(b.endedAt!) : null,
      cancelling_at: b.cancelledAt ? secs(b.cancelledAt) : null,
      cancelled_at: status === 'cancelled' ? secs(b.endedAt!) : null,
      request_counts: { total: b.entries.length, completed: c.ok, failed: c.error + c.expired },
      metadata: b.metadata ?? null,
    };
  };

  const anthropicView = (b: BatchState, now: number, base: string) => {
    settle(b, now);
    const c = counts(b);
    const ended = b.endedAt !== undefined;
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : b.cancelledAt !== undefined ? 'canceling' : 'in_progress',
      request_counts: {
        processing: ended ? 0 : b.entries.length,
        succeeded: c.ok,
        errored: c.error,
        canceled: c.cancelled,
        expired: c.expired,
      },
      ended_at: ended ? iso(b.endedAt!) : null,
      created_at: iso(b.created),
      expires_at: iso(b.created + DAY_MS),
      cancel_initiated_at: b.cancelledAt ? iso(b.cancelledAt) : null,
      archived_at: null,
      results_url: ended ? `${base}/v1/messages/batches/${b.id}/results` : null,
    };
  };

  const anthropicResults = (b: BatchState): string =>
    b.entries
      .map((e, i) => {
        let result: unknown;
        if (i >= (b.answered ?? 0)) result = { type: 'canceled' };
        else if (e.outcome === 'ok') result = { type: 'succeeded', message: deps.answer(e.req) };
        else if (e.outcome === 'error')
          result = {
            type: 'errored',
            error: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
          };
        else result = { type: 'expired' };
        return JSON.stringify({ custom_id: e.customId, result }) + '\n';
      })
      .join('');

  const notFound = (res: ServerResponse, api: 'openai' | 'anthropic', what: string) =>
    deps.send(
      res,
      404,
      api === 'openai'
        ? { error: { message: `No such ${what}`, type: 'invalid_request_error', code: null, param: null } }
        : { type: 'error', error: { type: 'not_found_error', message: `No such ${what}` } },
    );
  const bad = (res: ServerResponse, api: 'openai' | 'anthropic', message: string) =>
    deps.send(
      res,
      400,
      api === 'openai'
        ? { error: { message, type: 'invalid_request_error', code: null, param: null } }
        : { type: 'error', error: { type: 'invalid_request_error', message } },
    );

  const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

  const handleOpenAI = (
    httpReq: IncomingMessage,
    res: ServerResponse,
    path: string,
    raw: Buffer,
  ): boolean => {
    const now = Date.now();
    const m = /\/(files|batches)(?:\/([^/]+))?(?:\/(content|cancel))?$/.exec(path);
    if (!m) return false;
    const [, kind, id, action] = m;
    if (!deps.authorized(httpReq, 'openai')) {
      deps.send(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
      });
      return true;
    }
    if (kind === 'files' && !id && httpReq.method === 'POST') {
      const knobs = deps.behavior();
      if (knobs.batchUploadFailures) {
        knobs.batchUploadFailures--;
        deps.send(res, 500, { error: { message: 'The server had an error.', type: 'server_error' } });
        return true;
      }
      const parts = parseMultipart(raw, String(httpReq.headers['content-type'] ?? ''));
      const file = parts.get('file');
      if (!file) return (bad(res, 'openai', 'file is required'), true);
      const f: FileObj = {
        id: `file-${++seq}`,
        filename: file.filename ?? 'upload.jsonl',
        purpose: parts.get('purpose')?.data.toString('utf8') ?? 'batch',
        content: file.data.toString('utf8'),
        created: now,
      };
      files.set(f.id, f);
      log.push({ api: 'openai', op: 'upload', id: f.id, at: now });
      deps.send(res, 200, {
        id: f.id,
        object: 'file',
        bytes: Buffer.byteLength(f.content),
        created_at: secs(now),
        filename: f.filename,
        purpose: f.purpose,
        status: 'processed',
      });
      return true;
    }
    if (kind === 'files' && id && action === 'content' && httpReq.method === 'GET') {
      const f = files.get(id);
      if (!f) return (notFound(res, 'openai', `file ${id}`), true);
      if (failDownload()) {
        deps.send(res, 500, { error: { message: 'The server had an error.', type: 'server_error' } });
        return true;
      }
      log.push({ api: 'openai', op: 'content', id, at: now });
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': Buffer.byteLength(f.content),
      });
      res.end(f.content);
      return true;
    }
    if (kind === 'batches' && !id && httpReq.method === 'POST') {
      const body = JSON.parse(raw.toString('utf8')) as {
        input_file_id?: string;
        endpoint?: string;
        metadata?: unknown;
      };
      const f = body.input_file_id ? files.get(body.input_file_id) : undefined;
      if (!f) return (notFound(res, 'openai', `file ${body.input_file_id}`), true);
      if (body.endpoint !== '/v1/chat/completions')
        return (bad(res, 'openai', `unsupported endpoint ${body.endpoint}`), true);
      const entries: Entry[] = [];
      const seen = new Set<string>();
      for (const [i, line] of f.content.split('\n').entries()) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as {
          custom_id: string;
          method: string;
          url: string;
          body: Record<string, unknown>;
        };
        if (!CUSTOM_ID.test(e.custom_id) || seen.has(e.custom_id))
          return (
            bad(
              res,
              'openai',
              `line ${i + 1}: custom_id ${JSON.stringify(e.custom_id)} is invalid or repeated`,
            ),
            true
          );
        if (e.method !== 'POST' || e.url !== '/v1/chat/completions')
          return (bad(res, 'openai', `line ${i + 1}: method/url must be POST /v1/chat/completions`), true);
        seen.add(e.custom_id);
        const req = deps.parseOpenAI(e.body);
        entries.push({ customId: e.custom_id, req, outcome: outcomeFor(e.custom_id, req) });
      }
      const b: BatchState = {
        api: 'openai',
        id: `batch_${++seq}`,
        created: now,
        endsAt: now + deps.behavior().batchTurnaroundMs,
        entries,
        inputFileId: f.id,
        metadata: body.metadata,
      };
      batches.set(b.id, b);
      log.push({ api: 'openai', op: 'create', id: b.id, at: now, entries: entries.length });
      createReply(res, openaiView(b, now));
      return true;
    }
    if (kind === 'batches' && !id && httpReq.method === 'GET') {
      const url = new URL(httpReq.url ?? '/', 'http://mock');
      const lag = deps.behavior().batchListLagMs ?? 0;
      const all = [...batches.values()].filter((x) => x.api === 'openai' && now >= x.created + lag);
      const p = page(all, url.searchParams.get('after'), limitOf(url));
      log.push({ api: 'openai', op: 'list', id: '', at: now });
      deps.send(res, 200, {
        object: 'list',
        data: p.data.map((x) => openaiView(x, now)),
        first_id: p.data[0]?.id ?? null,
        last_id: p.data.at(-1)?.id ?? null,
        has_more: p.has_more,
      });
      return true;
    }
    if (kind === 'batches' && id) {
      const b = batches.get(id);
      if (!b || b.api !== 'openai') return (notFound(res, 'openai', `batch ${id}`), true);
      if (action === 'cancel' && httpReq.method === 'POST') {
        if (b.endedAt === undefined && b.cancelledAt === undefined) b.cancelledAt = now;
        log.push({ api: 'openai', op: 'cancel', id, at: now });
        deps.send(res, 200, openaiView(b, now));
        return true;
      }
      if (!action && httpReq.method === 'GET') {
        log.push({ api: 'openai', op: 'retrieve', id, at: now });
        deps.send(res, 200, openaiView(b, now));
        b.retrieved = (b.retrieved ?? 0) + 1;
        return true;
      }
    }
    return false;
  };

  const handleAnthropic = (
    httpReq: IncomingMessage,
    res: ServerResponse,
    path: string,
    raw: Buffer,
  ): boolean => {
    const now = Date.now();
    const m = /\/v1\/messages\/batches(?:\/([^/]+))?(?:\/(results|cancel))?$/.exec(path);
    if (!m) return false;
    const [, id, action] = m;
    if (!deps.authorized(httpReq, 'anthropic')) {
      deps.send(res, 401, {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
      });
      return true;
    }
    const base = `http://${httpReq.headers.host}`;
    if (!id && httpReq.method === 'POST') {
      const body = JSON.parse(raw.toString('utf8')) as {
        requests?: { custom_id: string; params: Record<string, unknown> }[];
      };
      const entries: Entry[] = [];
      const seen = new Set<string>();
      for (const [i, r] of (body.requests ?? []).entries()) {
        if (!CUSTOM_ID.test(r.custom_id) || seen.has(r.custom_id))
          return (bad(res, 'anthropic', `requests.${i}.custom_id: invalid or repeated`), true);
        seen.add(r.custom_id);
        const req = deps.parseAnthropic(r.params);
        entries.push({ customId: r.custom_id, req, outcome: outcomeFor(r.custom_id, req) });
      }
      if (!entries.length) return (bad(res, 'anthropic', 'requests: at least one request is required'), true);
      const b: BatchState = {
        api: 'anthropic',
        id: `msgbatch_${++seq}`,
        created: now,
        endsAt: now + deps.behavior().batchTurnaroundMs,
        entries,
      };
      batches.set(b.id, b);
      log.push({ api: 'anthropic', op: 'create', id: b.id, at: now, entries: entries.length });
      createReply(res, anthropicView(b, now, base));
      return true;
    }
    if (!id && httpReq.method === 'GET') {
      const url = new URL(httpReq.url ?? '/', 'http://mock');
      const lag = deps.behavior().batchListLagMs ?? 0;
      const all = [...batches.values()].filter((x) => x.api === 'anthropic' && now >= x.created + lag);
      const p = page(all, url.searchParams.get('after_id'), limitOf(url));
      log.push({ api: 'anthropic', op: 'list', id: '', at: now });
      deps.send(res, 200, {
        data: p.data.map((x) => anthropicView(x, now, base)),
        first_id: p.data[0]?.id ?? null,
        last_id: p.data.at(-1)?.id ?? null,
        has_more: p.has_more,
      });
      return true;
    }
    const b = id ? batches.get(id) : undefined;
    if (!b || b.api !== 'anthropic') return (notFound(res, 'anthropic', `batch ${id}`), true);
    if (action === 'cancel' && httpReq.method === 'POST') {
      if (b.endedAt === undefined && b.cancelledAt === undefined) b.cancelledAt = now;
      log.push({ api: 'anthropic', op: 'cancel', id: b.id, at: now });
      deps.send(res, 200, anthropicView(b, now, base));
      return true;
    }
    if (action === 'results' && httpReq.method === 'GET') {
      settle(b, now);
      if (b.endedAt === undefined) return (bad(res, 'anthropic', 'batch has not ended'), true);
      if (failDownload()) {
        deps.send(res, 500, {
          type: 'error',
          error: { type: 'api_error', message: 'Internal server error' },
        });
        return true;
      }
      log.push({ api: 'anthropic', op: 'results', id: b.id, at: now });
      const text = anthropicResults(b);
      res.writeHead(200, { 'content-type': 'application/binary', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return true;
    }
    if (!action && httpReq.method === 'GET') {
      log.push({ api: 'anthropic', op: 'retrieve', id: b.id, at: now });
      deps.send(res, 200, anthropicView(b, now, base));
      return true;
    }
    return false;
  };

  return {
    log,
    created: () =>
      [...batches.values()].map((b) => ({
        api: b.api,
        id: b.id,
        customIds: b.entries.map((e) => e.customId),
        requests: b.entries.map((e) => requestOf(e.customId)),
      })),
    handle(httpReq, res, path, raw) {
      const ours = path.includes('/messages/batches') || /\/(files|batches)(\/|$)/.test(path);
      if (ours && deps.behavior().batchApiMissing) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `No route ${path}`, type: 'not_found' } }));
        return true;
      }
      if (path.includes('/messages/batches')) return handleAnthropic(httpReq, res, path, raw);
      if (/\/(files|batches)(\/|$)/.test(path)) return handleOpenAI(httpReq, res, path, raw);
      return false;
    },
  };
}

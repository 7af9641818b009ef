import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { METHOD_NAMES, type Envelope, type MethodName } from '../../shared/api';
import type { Core } from '../facade/core';
import { toErrorPayload } from '../base/errors';
import { formatBytes, INPUT_LIMITS } from '../base/input-limits';
import { parseRequestTarget } from './request-target';

export interface WebServerOptions {
  core: Pick<Core, 'call' | 'onAny'>;
  /** 0 picks a free port. */
  port?: number;
  /** The built renderer; without it only the API is served. */
  staticDir?: string;
  /** Fixed token for tests; random per start otherwise. */
  token?: string;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  /** Resolves once a page (any static file) has been answered; never when no UI is served. */
  firstPage: Promise<void>;
  close(): Promise<void>;
}

// Only loopback: the API can read and spend with the user's keys.
const HOST = '127.0.0.1';
/**
 * Body caps per method, from the largest call each legitimately makes. Files travel as base64
 * inside the JSON call (4 bytes per 3), so an upload's cap is its file limit in base64 plus
 * 1 MiB for the rest of the call. Everything else is a config or a query: 2 MiB (a config file
 * may be 1 MiB). Measured: the full LLMBar sample (557 KB) is a 743 KB datasets.import body.
 * There is no streaming upload route: a body is read whole (up to its cap) and parsed as JSON.
 */
const MiB = 1024 * 1024;
const base64Bytes = (bytes: number) => Math.ceil(bytes / 3) * 4;
const DEFAULT_BODY_BYTES = 2 * MiB;
const BODY_BYTES: Partial<Record<MethodName, number>> = {
  'datasets.import': base64Bytes(INPUT_LIMITS.datasetFileBytes) + MiB,
  // src/shared/api/annotation-methods.ts: a package or labels file of up to 200 MiB of base64.
  'annotation.importLabels': 200 * MiB + MiB,
  'annotation.importPackage': 200 * MiB + MiB,
  // A reference-sensitivity config may carry its answers file as text (up to 50 M characters,
  // 3 bytes each at most in UTF-8 outside the astral planes).
  'experiments.estimate': 150 * MiB + MiB,
  'experiments.create': 150 * MiB + MiB,
  'experiments.editSetup': 150 * MiB + MiB,
  'experiments.previewPrompts': 150 * MiB + MiB,
  // A study bundle travels whole, as a file: its own stated cap.
  'bundles.verify': base64Bytes(INPUT_LIMITS.bundle.fileBytes) + MiB,
  'bundles.open': base64Bytes(INPUT_LIMITS.bundle.fileBytes) + MiB,
};

/** The most a call to `method` may send. */
export function bodyLimit(method: MethodName): number {
  return BODY_BYTES[method] ?? DEFAULT_BODY_BYTES;
}
// The browser only listens on the event socket; nothing it may send needs more.
const MAX_WS_MESSAGE_BYTES = 64 * 1024;
const KNOWN_METHODS = new Set<string>(METHOD_NAMES);
/**
 * Calls only the app's own page makes: entering or removing an API key. A browser always sends
 * Origin on a POST, so a call without it (curl, a script holding the token) is refused, as is a
 * page of another site; the answer never carries the key (issue 38 item 5).
 */
const OWN_PAGE_ONLY = new Set<string>(['keys.set', 'keys.delete'] satisfies MethodName[]);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  // A reply already under way cannot change its status: cut it short instead.
  if (res.headersSent) return void res.destroy();
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

// After a 413 the client may still be sending. Node ends a `Connection: close` answer with
// `socket.destroySoon()`: the socket is destroyed as soon as the answer is written, with the
// client's bytes unread, and the kernel answers unread bytes with a reset, which can throw away
// our answer before the client has read it (seen in full suite runs: a reset and no 413). So for
// this socket "destroy soon" lingers instead: FIN after the answer, what still arrives is dropped,
// and the socket closes when the client closes or after LINGER_MS or LINGER_BYTES, whichever
// comes first — bounded, so an oversized body is still never read to its end.
const LINGER_MS = 2_000;
const LINGER_BYTES = 32 * MiB;

function lingerAfterAnswer(req: IncomingMessage): void {
  const socket = req.socket;
  socket.destroySoon = () => {
    let dropped = 0;
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.end();
    req.on('data', (c: Buffer) => {
      dropped += c.length;
      if (dropped > LINGER_BYTES) close();
    });
    req.resume();
  };
}

/** A request the door answers with an HTTP status of its own (the envelope says why). */
class RequestRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function tooLarge(method: string, limit: number): RequestRefused {
  return new RequestRefused(
    413,
    `The request body is larger than ${formatBytes(limit)}, the most a ${method} call needs.`,
  );
}

/**
 * Reads a body of at most `limit` bytes. A larger Content-Length is refused before anything is
 * read; a body that grows past the limit (chunked) is refused as soon as it does, without
 * keeping more: what came so far is dropped and the connection is closed after the answer.
 */
function readBody(req: IncomingMessage, method: string, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(method, limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      req.off('data', onData);
      chunks.length = 0;
      req.pause();
      reject(tooLarge(method, limit));
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The call's body as JSON; a body that is not JSON is the caller's mistake, named. */
function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch (err) {
    throw new RequestRefused(400, `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The last line, not the fix: a handler that throws is a bug to log, but it must not end
 * the process (and a run inside it) or leave the client hanging.
 */
function lastResort(res: ServerResponse, err: unknown): void {
  console.error('judge-lab serve: request failed', err);
  try {
    sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'Internal error' } });
  } catch {
    res.destroy();
  }
}

/** Serves the renderer and the core's API on 127.0.0.1, behind a per-start token. */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const { core } = opts;
  let port = 0;

  // DNS rebinding defence: a browser on another site can resolve its own name to
  // 127.0.0.1, but it cannot make the Host header say 127.0.0.1 or localhost.
  const hostAllowed = (host: string | undefined) =>
    host === `${HOST}:${port}` || host === `localhost:${port}`;
  // Browsers always send Origin on cross-origin POSTs and WebSocket handshakes; tools
  // such as the CLI or curl send none and still need the token.
  const originAllowed = (origin: string | undefined) =>
    origin === undefined || origin === `http://${HOST}:${port}` || origin === `http://localhost:${port}`;

  // Fetch metadata, where the browser sends it: a request from the page itself.
  const ownFetch = (req: IncomingMessage) => {
    const site = req.headers['sec-fetch-site'];
    return site === undefined || site === 'same-origin';
  };

  const staticRoot = opts.staticDir ? realpathSync(resolve(opts.staticDir)) : undefined;
  let pageServed!: () => void;
  const firstPage = new Promise<void>((resolve) => (pageServed = resolve));

  /** The renderer file a decoded path names, or index.html (the app's own routes); never a file outside. */
  const staticFile = (root: string, pathname: string): string | null => {
    const index = join(root, 'index.html');
    const rel = pathname.replace(/^\/+/, '');
    if (!rel) return index;
    let real: string;
    try {
      real = realpathSync(join(root, rel));
    } catch {
      return index; // no such file: a client-side route
    }
    // realpath also resolves symlinks, so a link inside the folder cannot lead out of it.
    if (!real.startsWith(root + sep)) return null;
    return statSync(real, { throwIfNoEntry: false })?.isFile() ? real : index;
  };

  const serveStatic = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    if (!staticRoot)
      return sendJson(res, 404, { ok: false, error: { code: 'not_found', message: 'No UI built' } });
    const target = staticFile(staticRoot, pathname);
    if (!target) return sendJson(res, 403, { ok: false });
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[extname(target)] ?? 'application/octet-stream',
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': target.endsWith('index.html') ? 'no-store' : 'max-age=3600',
    });
    res.once('finish', pageServed);
    if (req.method === 'HEAD') return res.end();
    createReadStream(target)
      .on('error', () => res.destroy())
      .pipe(res);
  };

  const handleCall = async (req: IncomingMessage, res: ServerResponse, method: string) => {
    const auth = req.headers.authorization;
    const given = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
    if (!sameToken(given, token)) {
      return sendJson(res, 401, {
        ok: false,
        error: { code: 'invalid_params', message: 'Missing or wrong token' },
      });
    }
    if (!KNOWN_METHODS.has(method)) {
      return sendJson(res, 404, {
        ok: false,
        error: { code: 'not_found', message: `Unknown method "${method}"` },
      });
    }
    let envelope: Envelope<unknown>;
    let status = 200;
    try {
      const text = await readBody(req, method, bodyLimit(method as MethodName));
      const body = parseBody(text);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new RequestRefused(400, 'The request body must be a JSON object: {"params": …}');
      const result = await core.call(method as MethodName, (body as { params?: unknown }).params);
      envelope = { ok: true, result: result ?? null };
    } catch (err) {
      if (err instanceof RequestRefused) {
        status = err.status;
        envelope = { ok: false, error: { code: 'invalid_params', message: err.message } };
        // The rest of an oversized body is not read: close the connection once answered.
        if (status === 413) {
          res.setHeader('Connection', 'close');
          lingerAfterAnswer(req);
        }
      } else envelope = { ok: false, error: toErrorPayload(err) };
    }
    sendJson(res, status, envelope);
  };

  const route = (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req.headers.host))
      return sendJson(res, 403, { ok: false, error: { message: 'Bad Host' } });
    const target = parseRequestTarget(req.url);
    if (!target.ok) return sendJson(res, target.status, { ok: false, error: { message: target.message } });
    const { pathname } = target;
    if (pathname.startsWith('/api/')) {
      if (!originAllowed(req.headers.origin)) {
        return sendJson(res, 403, {
          ok: false,
          error: { code: 'invalid_params', message: 'Foreign origin' },
        });
      }
      const m = /^\/api\/call\/([\w.]+)$/.exec(pathname);
      if (m && OWN_PAGE_ONLY.has(m[1]) && (req.headers.origin === undefined || !ownFetch(req))) {
        return sendJson(res, 403, {
          ok: false,
          error: { code: 'invalid_params', message: 'Keys are entered on the app’s own page only' },
        });
      }
      if (req.method === 'POST' && m) {
        handleCall(req, res, m[1]).catch((err) => lastResort(res, err));
        return;
      }
      return sendJson(res, 404, { ok: false, error: { code: 'not_found', message: 'No such endpoint' } });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { ok: false });
    serveStatic(req, res, pathname);
  };

  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (err) {
      lastResort(res, err);
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });
  const clients = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    // After an upgrade the socket is ours: an unhandled reset would end the process.
    socket.on('error', () => socket.destroy());
    try {
      const target = parseRequestTarget(req.url);
      const ok =
        target.ok &&
        target.pathname === '/api/events' &&
        hostAllowed(req.headers.host) &&
        originAllowed(req.headers.origin) &&
        sameToken(target.query.get('token'), token);
      if (!ok) {
        const status = target.ok ? '403 Forbidden' : '400 Bad Request';
        socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        clients.add(ws);
        // A malformed frame is reported here; without a listener it would end the process.
        ws.on('error', () => ws.terminate());
        ws.on('close', () => clients.delete(ws));
      });
    } catch (err) {
      console.error('judge-lab serve: upgrade failed', err);
      socket.destroy();
    }
  });
  const offEvents = core.onAny((event, payload) => {
    const msg = JSON.stringify({ event, payload });
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(msg);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, HOST, () => resolve());
    });
  } catch (err) {
    // A port in use: nothing stays subscribed, so the caller may try another.
    offEvents();
    wss.close();
    throw err;
  }
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    token,
    firstPage,
    close: async () => {
      offEvents();
      for (const ws of clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

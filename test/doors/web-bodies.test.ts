// Request bodies at the web door (issue 22 item 9): a body that is not JSON is answered 400
// naming the problem, and a body larger than its call can need is refused with 413 and the
// connection closed early, without the server reading (or keeping) the rest of it.
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { bodyLimit, startWebServer, type WebServer } from '../../src/main/doors/web';
import { INPUT_LIMITS } from '../../src/main/base/input-limits';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let core: Core;
let server: WebServer;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'web' });
  server = await startWebServer({ core });
});
afterAll(async () => {
  await server.close();
  core.close();
  cleanup();
});

const MiB = 1024 * 1024;

interface Sent {
  /** The status line and headers the server answered, and its body. */
  reply: string;
  /** Body bytes the client got onto the socket before the server closed it. */
  sent: number;
  closedEarly: boolean;
  /** The server reset the connection (unread bytes at its close), which can lose its answer. */
  reset: boolean;
}

/**
 * Sends a POST whose body is `total` bytes of JSON-ish filler in 1 MiB pieces, declared with a
 * Content-Length or chunked, and stops sending once the server answers (as browsers and curl
 * do) or closes the connection.
 */
function sendBig(method: string, total: number, chunked: boolean): Promise<Sent> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    let reply = '';
    let sent = 0;
    let closed = false;
    let reset = false;
    const piece = Buffer.alloc(MiB, 'a');
    const finish = () => {
      if (closed) return;
      closed = true;
      resolve({ reply, sent, closedEarly: sent < total, reset });
    };
    let answered = false;
    socket.on('data', (d) => {
      reply += d.toString('latin1');
      answered = true;
    });
    // The server's FIN after its answer: this side is done too.
    socket.on('end', () => socket.end());
    socket.on('error', (e: NodeJS.ErrnoException) => {
      reset = e.code === 'ECONNRESET' || e.code === 'EPIPE';
      finish();
    });
    socket.on('close', finish);
    socket.write(
      `POST /api/call/${method} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
        `Authorization: Bearer ${server.token}\r\nContent-Type: application/json\r\n` +
        (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${total}\r\n`) +
        '\r\n',
    );
    const pump = () => {
      while (!closed && !answered && sent < total) {
        const frame = chunked
          ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
          : piece;
        sent += piece.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
      if (!closed && !answered && chunked) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

function post(method: string, body: string): Promise<{ status: number; json: unknown }> {
  return fetch(`http://127.0.0.1:${server.port}/api/call/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body,
  }).then(async (r) => ({ status: r.status, json: await r.json() }));
}

describe('web door request bodies', () => {
  it('a body that is not JSON: 400, naming the problem', async () => {
    const r = await post('app.info', '{"params": {nope');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_params',
        message: expect.stringMatching(/^The request body is not valid JSON: /),
      },
    });
    const arr = await post('app.info', '[1]');
    expect(arr.status).toBe(400);
    expect(arr.json).toMatchObject({ error: { message: expect.stringMatching(/must be a JSON object/) } });
    // The door is fine afterwards.
    expect((await post('app.info', '{}')).status).toBe(200);
  });

  it('caps each call by what it needs: a dataset upload as big as a dataset may be, others small', () => {
    expect(bodyLimit('datasets.import')).toBeGreaterThan((INPUT_LIMITS.datasetFileBytes * 4) / 3);
    expect(bodyLimit('datasets.import')).toBeLessThan(140 * MiB);
    expect(bodyLimit('datasets.list')).toBe(2 * MiB);
    // The full LLMBar sample goes through, as base64 in the call.
    const llmbar = readFileSync(join(ROOT, 'resources', 'samples', 'llmbar.jsonl'));
    const body = JSON.stringify({
      params: { fileName: 'llmbar.jsonl', contentBase64: llmbar.toString('base64') },
    });
    expect(Buffer.byteLength(body)).toBeLessThan(bodyLimit('datasets.import'));
  });

  it('imports the full LLMBar file through the door', async () => {
    const llmbar = readFileSync(join(ROOT, 'resources', 'samples', 'llmbar.jsonl'));
    const r = await post(
      'datasets.import',
      JSON.stringify({ params: { fileName: 'llmbar.jsonl', contentBase64: llmbar.toString('base64') } }),
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: true });
  });

  it('a 506 MiB upload is refused with 413 from its Content-Length, and the connection closed early', async () => {
    const r = await sendBig('datasets.import', 506 * MiB, false);
    expect(r.reset).toBe(false);
    expect(r.reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.reply).toMatch(/larger than .* datasets\.import call needs/);
    expect(r.closedEarly).toBe(true);
    expect(r.sent).toBeLessThan(bodyLimit('datasets.import'));
  });

  it('a chunked body past its cap is refused with 413 once it passes the cap, and the connection closed', async () => {
    const r = await sendBig('datasets.list', 300 * MiB, true);
    // Closed after the answer, not reset under it.
    expect(r.reset).toBe(false);
    expect(r.reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.reply).toMatch(/larger than 2 MiB, the most a datasets\.list call needs/);
    expect(r.closedEarly).toBe(true);
    expect(r.sent).toBeLessThan(100 * MiB);
    expect((await post('app.info', '{}')).status).toBe(200);
  });
});

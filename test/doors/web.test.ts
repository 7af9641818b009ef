import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Core } from '../../src/main/facade/core';
import { startWebServer, type WebServer } from '../../src/main/doors/web';
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

interface Reply {
  status: number;
  body: string;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(data),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const auth = () => ({ Authorization: `Bearer ${server.token}` });

describe('local web door', () => {
  it('binds to loopback only and prints a URL with the token', () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=`));
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('answers a call that carries the token', async () => {
    const r = await post('/api/call/app.info', {}, auth());
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, result: { door: 'web' } });
  });

  it('rejects a call without the token, or with a wrong one', async () => {
    expect((await post('/api/call/datasets.list', {})).status).toBe(401);
    expect((await post('/api/call/datasets.list', {}, { Authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('rejects a call from a foreign Origin even with the token', async () => {
    const r = await post('/api/call/datasets.list', {}, { ...auth(), Origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    const ok = await post(
      '/api/call/datasets.list',
      {},
      { ...auth(), Origin: `http://127.0.0.1:${server.port}` },
    );
    expect(ok.status).toBe(200);
  });

  it('rejects a foreign Host header (DNS rebinding)', async () => {
    const r = await post('/api/call/datasets.list', {}, { ...auth(), Host: `evil.example:${server.port}` });
    expect(r.status).toBe(403);
  });

  it('returns validation errors as an error envelope', async () => {
    const r = await post('/api/call/items.get', { params: { itemId: 'x' } }, auth());
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    const u = await post('/api/call/nope.never', {}, auth());
    expect(u.status).toBe(404);
  });

  it('pushes events over a WebSocket that needs the token', async () => {
    const base = `ws://127.0.0.1:${server.port}/api/events`;
    await expect(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${base}?token=wrong`);
        ws.on('open', () => resolve('opened'));
        ws.on('error', reject);
      }),
    ).rejects.toThrow(/403/);
    const ws = new WebSocket(`${base}?token=${server.token}`);
    await new Promise((resolve) => ws.on('open', resolve));
    const got = new Promise((resolve) => ws.on('message', (m) => resolve(JSON.parse(String(m)))));
    await post('/api/call/datasets.loadSample', { params: { sampleId: 'llmbar' } }, auth());
    expect(await got).toMatchObject({ event: 'datasets.changed' });
    ws.close();
  });
});

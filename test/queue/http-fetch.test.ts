import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAliveFetch } from '../../src/main/providers/http-fetch';

// The SDKs' fetch: answers are read from memory, and behave as fetch's Responses do.

let server: http.Server;
let base: string;
const ANSWER = { id: 'x', text: 'héllo, 世界' };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify(ANSWER)));
    } else if (req.url === '/empty') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
      res.end(`\uFEFF${JSON.stringify(ANSWER)}`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('keepAliveFetch', () => {
  it('answers json() and text() from the received bytes (UTF-8, BOM dropped), with status and headers', async () => {
    const res = await keepAliveFetch(`${base}/json`, { method: 'POST', body: '{}' });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('req_1');
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual(ANSWER);
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
    const again = await keepAliveFetch(`${base}/json`);
    expect(await again.text()).toBe(JSON.stringify(ANSWER));
  });

  it('still offers the body as a stream, which uses it up', async () => {
    const res = await keepAliveFetch(`${base}/json`);
    const copy = res.clone();
    const text = await new Response(res.body).text();
    expect(JSON.parse(text.replace(/^\uFEFF/, ''))).toEqual(ANSWER);
    expect(res.bodyUsed).toBe(true);
    await expect(res.json()).rejects.toThrow(TypeError);
    expect(await copy.json()).toEqual(ANSWER);
    const bytes = new Uint8Array(await (await keepAliveFetch(`${base}/json`)).arrayBuffer());
    expect(new TextDecoder().decode(bytes)).toBe(JSON.stringify(ANSWER));
  });

  it("leaves a body only looked at unread (the Anthropic SDK looks at every answer's), and a reader gets its bytes", async () => {
    const res = await keepAliveFetch(`${base}/json`);
    const body = res.body;
    expect(body).toBeInstanceOf(ReadableStream);
    expect(res.body).toBe(body);
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual(ANSWER);
    const read = await keepAliveFetch(`${base}/json`);
    const reader = read.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`\uFEFF${JSON.stringify(ANSWER)}`);
    expect(read.bodyUsed).toBe(true);
    await expect(read.text()).rejects.toThrow(TypeError);
  });

  it('decodes gzip and gives a 204 no body', async () => {
    const res = await keepAliveFetch(`${base}/gzip`);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual(ANSWER);
    const empty = await keepAliveFetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });
});

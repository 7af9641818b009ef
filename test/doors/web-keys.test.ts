// Issue 38 item 5: the person at the machine enters an API key (and, for a custom server, its
// address) on the web app's page. Through the real web door: only the app's own page may set or
// remove a key, no answer ever carries it, it takes effect without a restart, a run sends it
// to the mock (which checks the Authorization header), and no file the app writes (store,
// exports, bundle, methods, answers file) holds it; the key file is its owner's alone.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { startWebServer, type WebServer } from '../../src/main/doors/web';
import { SERVE_KEYS_FILE } from '../../src/main/providers/key-store';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';

// A name no environment sets, so the key can only come from the page.
const NAME = 'JLTEST_WEBDOOR_API_KEY';
const KEY = 'sk-webdoor-9f3c1e7a5b2d4f60a8c9';

let core: Core;
let server: WebServer;
let mock: MockProvider;
let dataDir: string;
let cleanup: () => void;
const bodies: string[] = [];
const logged: string[] = [];
const spies: { mockRestore(): void }[] = [];

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  dataDir = t.dir;
  // Whatever the app says on the console while a key is set, used and removed.
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    spies.push(
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
      }),
    );
  mock = await startMockProvider({ apiKey: KEY, latencyMs: [0, 1] });
  // The web door's own key store (no `keys` option): what `judge-lab serve` opens.
  core = new Core({ dataDir, door: 'web' });
  server = await startWebServer({ core });
});
afterAll(async () => {
  await server.close();
  await core.shutdown();
  await mock.close();
  for (const s of spies) s.mockRestore();
  cleanup();
});

interface Reply {
  status: number;
  body: string;
}

const own = () => `http://127.0.0.1:${server.port}`;

function call(method: string, params: unknown, headers: Record<string, string> = { Origin: own() }) {
  return new Promise<Reply>((resolve, reject) => {
    const data = JSON.stringify({ params });
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: `/api/call/${method}`,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(data),
          Authorization: `Bearer ${server.token}`,
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          bodies.push(text);
          resolve({ status: res.statusCode ?? 0, body: text });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function result<T>(method: string, params: unknown): Promise<T> {
  const r = await call(method, params);
  const env = JSON.parse(r.body) as { ok: boolean; result?: T; error?: { message: string } };
  if (!env.ok) throw new Error(`${method}: ${env.error?.message}`);
  return env.result as T;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('an API key entered in the web app', () => {
  const provider = () => ({ kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: NAME });

  it('is refused unless the call comes from the app’s own page', async () => {
    const set = { name: NAME, value: KEY, baseURL: `${mock.url}/v1` };
    // A script with the token but no browser page (no Origin), another site, a cross-site fetch.
    for (const headers of [
      {} as Record<string, string>,
      { Origin: 'http://evil.example' },
      { Origin: own(), 'Sec-Fetch-Site': 'cross-site' },
    ]) {
      const r = await call('keys.set', set, headers);
      expect(r.status).toBe(403);
    }
    expect((await call('keys.delete', { name: NAME }, {})).status).toBe(403);
    expect((await result<{ stored: string[] }>('keys.status', undefined)).stored).toEqual([]);
  });

  it('takes effect at once, only for the server it was entered with, and is never sent back', async () => {
    // Before: the custom server is refused for want of a key, and nothing went out.
    expect(await result('providers.keyStatus', { providers: { custom: provider() } })).toEqual({
      custom: 'missing',
    });
    const set = await result<{ stored: string[] }>('keys.set', {
      name: NAME,
      value: `  ${KEY}  `,
      baseURL: `${mock.url}/v1`,
    });
    expect(set).toEqual({ stored: [NAME] });
    const status = await result<{ stored: string[]; storage: string; addresses: Record<string, string> }>(
      'keys.status',
      undefined,
    );
    expect(status).toMatchObject({ managed: true, stored: [NAME], storage: 'file' });
    expect(status.addresses).toEqual({ [NAME]: `${mock.url}/v1` });
    expect(await result('providers.keyStatus', { providers: { custom: provider() } })).toEqual({
      custom: 'set',
    });
    // Another server than the one it was entered with does not get it.
    const elsewhere = { ...provider(), baseURL: 'http://127.0.0.2:9/v1' };
    expect(await result('providers.keyStatus', { providers: { other: elsewhere } })).toEqual({
      other: 'withheld',
    });
    const refused = await call('providers.testConnection', { name: 'other', provider: elsewhere });
    expect(refused.body).toMatch(/entered in the app .* enter the key again with this server's address/);
    const test = await result<{ ok: boolean }>('providers.testConnection', {
      name: 'custom',
      provider: provider(),
    });
    expect(test).toMatchObject({ ok: true });
    expect(mock.log.length).toBeGreaterThan(0);
    expect(mock.log.every((e) => e.authorized)).toBe(true);
    // Owner read/write only.
    if (process.platform !== 'win32')
      expect(statSync(join(dataDir, SERVE_KEYS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('runs a study with it, and no file the app writes holds it', async () => {
    const { dataset } = await result<{ dataset: { id: number } }>('datasets.loadSample', {
      sampleId: 'llmbar',
    });
    const { id } = await result<{ id: number }>('experiments.create', {
      config: {
        name: 'keyed',
        protocol: 'self-consistency',
        dataset: dataset.id,
        limit: 2,
        providers: { custom: provider() },
        judges: [{ label: 'Judge', provider: 'custom', model: 'mock-judge', temperature: 1 }],
        repeats: 2,
        orders: 'one',
      },
    });
    const before = mock.log.length;
    const end = await result<{ status: string }>('experiments.runToEnd', { experimentId: id });
    expect(end.status).toBe('finished');
    const sent = mock.log.slice(before);
    expect(sent.length).toBe(4);
    expect(sent.every((e) => e.authorized)).toBe(true);

    // Everything a user takes away: the bundle (which carries the export folder, as `export/`),
    // Methods, the answers file.
    const bundle = await result<{ contentBase64: string }>('experiments.exportBundle', { experimentId: id });
    const entries = unzipSync(Buffer.from(bundle.contentBase64, 'base64'));
    expect(Object.keys(entries).filter((n) => n.startsWith('export/')).length).toBeGreaterThan(3);
    for (const [name, bytes] of Object.entries(entries))
      expect(Buffer.from(bytes).includes(KEY), `bundle entry ${name}`).toBe(false);
    await result('experiments.methods', { experimentId: id });
    await result('experiments.exportAnswers', { experimentId: id, format: 'jsonl' });

    // The data folder: the store (and its WAL), locks, pending answers, the token.
    const files = filesUnder(dataDir);
    expect(files.some((f) => f.endsWith('judge-lab.sqlite'))).toBe(true);
    const keyFile = join(dataDir, SERVE_KEYS_FILE);
    for (const f of files) {
      if (f === keyFile) continue;
      expect(readFileSync(f).includes(KEY), f).toBe(false);
    }
    expect(readFileSync(keyFile, 'utf8')).toContain(KEY);
  });

  it('can be removed, after which the server has no key again', async () => {
    expect(await result('keys.delete', { name: NAME })).toEqual({ stored: [] });
    expect(await result('providers.keyStatus', { providers: { custom: provider() } })).toEqual({
      custom: 'missing',
    });
    expect(readdirSync(dataDir)).not.toContain(SERVE_KEYS_FILE);
  });

  it('never appeared in an answer of the door nor on the console', () => {
    expect(bodies.length).toBeGreaterThan(10);
    for (const b of bodies) expect(b.includes(KEY)).toBe(false);
    for (const line of logged) expect(line.includes(KEY)).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import { resolveToken, takeToken, WebClient, type SocketLike } from './web-client';

interface Recorded {
  url: string;
  init: RequestInit;
}

/** A fake fetch that answers from a table of (status, body) and records requests. */
function fakeFetch(status: number, body: string) {
  const calls: Recorded[] = [];
  const fn = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body, { status, statusText: status === 200 ? 'OK' : 'Error' });
  }) as unknown as typeof fetch;
  return { fn, calls };
}

function client(fetchFn: typeof fetch, createSocket?: (url: string) => SocketLike) {
  return new WebClient({ origin: 'http://127.0.0.1:4321', token: 'tok123', fetch: fetchFn, createSocket });
}

describe('WebClient calls', () => {
  it('posts params to /api/call/<method> with the bearer token and unwraps the result', async () => {
    const { fn, calls } = fakeFetch(200, JSON.stringify({ ok: true, result: { deleted: true } }));
    const result = await client(fn).call('datasets.delete', { datasetId: 3 });
    expect(result).toEqual({ deleted: true });
    expect(calls[0].url).toBe('http://127.0.0.1:4321/api/call/datasets.delete');
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.headers).toMatchObject({
      Authorization: 'Bearer tok123',
      'Content-Type': 'application/json',
    });
    expect(JSON.parse(calls[0].init.body as string)).toEqual({ params: { datasetId: 3 } });
  });

  it('omits params for methods that take none', async () => {
    const { fn, calls } = fakeFetch(200, JSON.stringify({ ok: true, result: [] }));
    await client(fn).call('datasets.list');
    expect(JSON.parse(calls[0].init.body as string)).toEqual({});
  });

  it('turns an error envelope into an ApiError carrying code and issues', async () => {
    const issues = [
      { file: 'bad.jsonl', line: 2, field: 'label', message: 'must be 1 or 2' },
      { file: 'bad.jsonl', line: 5, field: 'output_1', message: 'is missing' },
    ];
    const { fn } = fakeFetch(
      400,
      JSON.stringify({ ok: false, error: { code: 'invalid_input', message: 'bad file', issues } }),
    );
    const err = await client(fn)
      .call('datasets.import', { fileName: 'bad.jsonl', contentBase64: '' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('invalid_input');
    expect((err as ApiError).message).toBe('bad file');
    expect((err as ApiError).issues).toEqual(issues);
  });

  it('reports an HTTP failure without an envelope as http_error with the status', async () => {
    const { fn } = fakeFetch(502, 'Bad Gateway');
    const err = (await client(fn)
      .call('app.info')
      .catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('http_error');
    expect(err.message).toContain('502');
  });

  it('reports a refused token as unauthorized, telling the page its token is outdated', async () => {
    const { fn } = fakeFetch(
      401,
      JSON.stringify({ ok: false, error: { code: 'invalid_params', message: 'Missing or wrong token' } }),
    );
    const err = (await client(fn)
      .call('app.info')
      .catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('unauthorized');
    expect(err.message).toBe(
      "This page's token is outdated: open the URL printed by judge-lab serve (it carries the current token).",
    );
  });

  it('reports an unreachable server as network_error', async () => {
    const fn = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const err = (await client(fn)
      .call('app.info')
      .catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('network_error');
    expect(err.message).toContain('Failed to fetch');
  });
});

describe('resolveToken', () => {
  beforeEach(() => sessionStorage.clear());

  it('takes the token from the query and remembers it for later loads', () => {
    expect(resolveToken('?token=abc', sessionStorage)).toBe('abc');
    expect(resolveToken('', sessionStorage)).toBe('abc');
  });

  it('returns null when there is no token anywhere', () => {
    expect(resolveToken('?x=1', sessionStorage)).toBeNull();
  });

  it('takes the token out of the address bar, keeping the route, and a reload still has it', () => {
    window.history.replaceState(null, '', '/?lang=zh&token=abc#/datasets');
    expect(takeToken()).toBe('abc');
    expect(window.location.search).toBe('?lang=zh');
    expect(window.location.hash).toBe('#/datasets');
    expect(window.location.href).not.toContain('abc');
    expect(takeToken()).toBe('abc');
  });

  it('leaves the token in the address bar when the browser keeps no session storage', () => {
    window.history.replaceState(null, '', '/?token=abc');
    const forgetful = { getItem: () => null, setItem: () => {} } as unknown as Storage;
    expect(takeToken(window.location, window.history, forgetful)).toBe('abc');
    expect(window.location.search).toBe('?token=abc');
    window.history.replaceState(null, '', '/');
  });
});

class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.onclose?.({});
  }
}

describe('WebClient events', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('connects to /api/events with the token and delivers messages to listeners', () => {
    const c = client(fakeFetch(200, '').fn, (url) => new FakeSocket(url));
    const seen: unknown[] = [];
    const off = c.on('datasets.changed', (p) => seen.push(p));
    const ws = FakeSocket.all[0];
    expect(ws.url).toBe('ws://127.0.0.1:4321/api/events?token=tok123');
    ws.onopen?.({});
    ws.onmessage?.({ data: JSON.stringify({ event: 'datasets.changed', payload: { datasetId: 4 } }) });
    ws.onmessage?.({ data: 'not json' });
    off();
    ws.onmessage?.({ data: JSON.stringify({ event: 'datasets.changed', payload: { datasetId: 5 } }) });
    expect(seen).toEqual([{ datasetId: 4 }]);
    c.close();
  });

  it('reconnects with growing delays and signals a change after reconnecting', () => {
    const connection: boolean[] = [];
    const c = new WebClient({
      origin: 'http://127.0.0.1:4321',
      token: 't',
      fetch: fakeFetch(200, '').fn,
      createSocket: (url) => new FakeSocket(url),
      onConnectionChange: (up) => connection.push(up),
    });
    const seen: unknown[] = [];
    c.on('datasets.changed', (p) => seen.push(p));
    FakeSocket.all[0].onopen?.({});
    FakeSocket.all[0].onclose?.({});
    vi.advanceTimersByTime(300);
    expect(FakeSocket.all).toHaveLength(1); // waits at least ~375 ms before the first retry
    vi.advanceTimersByTime(400);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1].onclose?.({}); // second failure: the delay doubles
    vi.advanceTimersByTime(700);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(700);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2].onopen?.({});
    expect(seen).toEqual([{ datasetId: null }]);
    expect(connection).toEqual([true, false, false, true]);
    c.close();
  });
});

import { describe, expect, it } from 'vitest';
import { jsonBody } from '../../src/main/providers/sdk';

// The adapters read answers from the SDK's raw response; the body must come out as the SDK's
// own parse step would give it.
describe('jsonBody reads a raw answer as the SDKs do', () => {
  const res = (body: string | null, status: number, type?: string) =>
    new Response(body, { status, headers: type ? { 'content-type': type } : {} });

  it('parses JSON content types, +json included', async () => {
    expect(await jsonBody(res('{"a":1}', 200, 'application/json; charset=utf-8'))).toEqual({ a: 1 });
    expect(await jsonBody(res('{"b":2}', 200, 'application/vnd.api+json'))).toEqual({ b: 2 });
  });

  it('gives other content types as text, and null for 204', async () => {
    expect(await jsonBody(res('{"a":1}', 200, 'text/plain'))).toBe('{"a":1}');
    expect(await jsonBody(res('<html>', 200))).toBe('<html>');
    expect(await jsonBody(res(null, 204))).toBeNull();
  });
});

// Issue 40 items 1 and 4 at the web door: a zip bomb posted to `bundles.verify` of a real
// `judge-lab serve` is refused with the app's message and serve answers the next call (a 164 KB
// bundle once took serve down with every run inside it). A bundle travels as a file with its own
// cap, not the 2 MiB of a config call: an 8 MB one reaches the bundle reader and is judged there.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { craftZip, deflated, zerosDeflated } from '../helpers/zip-craft';

let serve: { url: string; stop: () => Promise<void> };
let cleanup: () => void;

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  serve = await startServe(join(t.dir, 'data'));
}, 180_000);

afterAll(async () => {
  await serve?.stop();
  cleanup?.();
});

async function call(method: string, params: unknown): Promise<{ status: number; body: unknown }> {
  const url = new URL(serve.url);
  const res = await fetch(new URL(`/api/call/${method}`, url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${url.searchParams.get('token')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ params }),
  });
  return { status: res.status, body: await res.json() };
}

const MiB = 1024 * 1024;

describe('a bundle bomb at the web door', () => {
  it('overlapping entries (6 GiB from ~200 KB): refused, and serve answers the next call', async () => {
    const data = zerosDeflated(150);
    const first = { name: 'export/a.bin', data, method: 8, size: 150 * MiB, crc: 0 };
    const copies = Array.from({ length: 40 }, (_, k) => ({
      ...first,
      name: `export/c${k}.bin`,
      sharesDataOf: 0,
    }));
    const zip = craftZip([deflated('bundle.json', new TextEncoder().encode('{}')), first, ...copies]);
    expect(zip.length).toBeLessThan(2 * MiB);
    const r = await call('bundles.verify', {
      fileName: 'bomb.judgelab',
      contentBase64: zip.toString('base64'),
    });
    expect(r.body).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect((r.body as { error: { message: string } }).error.message).toMatch(
      /^bomb\.judgelab: export\/\w+\.bin: /,
    );
    expect(await call('datasets.list', undefined)).toEqual({ status: 200, body: { ok: true, result: [] } });
  }, 120_000);

  it('a size that lies (8 MB unpacking to 6 GiB): past the 2 MiB call cap, refused by the reader', async () => {
    const bomb = { name: 'bundle.json', data: zerosDeflated(6 * 1024), method: 8, size: 100, crc: 0 };
    const zip = craftZip([bomb]);
    expect(zip.length).toBeGreaterThan(2 * MiB);
    const r = await call('bundles.verify', {
      fileName: 'liar.judgelab',
      contentBase64: zip.toString('base64'),
    });
    expect(r.body).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message:
          'liar.judgelab: bundle.json: unpacks to more than the 100 bytes the zip declares for it (stopped there)',
      },
    });
    expect(await call('datasets.list', undefined)).toEqual({ status: 200, body: { ok: true, result: [] } });
  }, 120_000);
});

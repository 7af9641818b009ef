// Issue 40 at the web door of a real `judge-lab serve` (one process for the whole file):
// - items 1 and 4: a zip bomb posted to `bundles.verify` is refused with the app's message and
//   serve answers the next call (a 164 KB bundle once took serve down with every run inside it).
//   A bundle travels as a file with its own cap, not the 2 MiB of a config call: an 8 MB one
//   reaches the bundle reader and is judged there.
// - the fuzz suite's crafted bundles (bombs, traversal, duplicates, truncation, wrong hashes and
//   CRCs: test/helpers/bundle-fuzz.ts, ≥ 100 seeded cases) each through the page's own call, each
//   refused cleanly (no 5xx, no stack), an ordinary call answered after each, serve's memory bounded.
// - item 14: "__proto__", "constructor" and "prototype" keys in a plan or a config sent by a
//   page are refused, naming the field (a schema's copy used to drop "__proto__" silently).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { craftedKinds, honest, rng } from '../helpers/bundle-fuzz';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { craftZip, deflated, zerosDeflated } from '../helpers/zip-craft';

let serve: Awaited<ReturnType<typeof startServe>>;
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

/** A call as the page makes it; `raw` sends the body text as given (JSON.stringify drops "__proto__"). */
async function call(
  method: string,
  params: unknown,
  raw?: string,
): Promise<{ status: number; body: unknown }> {
  const url = new URL(serve.url);
  const res = await fetch(new URL(`/api/call/${method}`, url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${url.searchParams.get('token')}`,
      'content-type': 'application/json',
    },
    body: raw ?? JSON.stringify({ params }),
  });
  return { status: res.status, body: await res.json() };
}

type Envelope =
  | { ok: true; result: unknown }
  | { ok: false; error: { code: string; message: string; refusal?: { key: string } } };

/** serve's resident memory now and at its peak, from the kernel (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** An ordinary call answered: serve is up and its core with it. */
async function stillUp(after: string): Promise<void> {
  const r = await call('datasets.list', undefined);
  expect(r.status, `serve after ${after}`).toBe(200);
  expect((r.body as Envelope).ok, `serve after ${after}`).toBe(true);
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
    await stillUp('the bomb');
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
    await stillUp('the bomb');
  }, 120_000);
});

/** A finished simulated study of the page's own making, exported as a bundle through the web door. */
async function bundleFromServe(): Promise<{ id: number; files: Record<string, Uint8Array> }> {
  const ok = async (method: string, params: unknown) => {
    const r = await call(method, params);
    expect(r.body, method).toMatchObject({ ok: true });
    return (r.body as { result: unknown }).result;
  };
  const { dataset } = (await ok('datasets.loadSample', { sampleId: 'llmbar' })) as {
    dataset: { id: number };
  };
  const { id } = (await ok('experiments.create', {
    config: {
      name: 'fuzz-base',
      protocol: 'self-consistency',
      dataset: dataset.id,
      limit: 4,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong', temperature: 1 }],
      repeats: 2,
    },
  })) as { id: number };
  await ok('experiments.start', { experimentId: id });
  await expect
    .poll(
      async () => ((await ok('experiments.progress', { experimentId: id })) as { status: string }).status,
      {
        timeout: 120_000,
      },
    )
    .toBe('finished');
  const { contentBase64 } = (await ok('experiments.exportBundle', { experimentId: id })) as {
    contentBase64: string;
  };
  return { id, files: unzipSync(Buffer.from(contentBase64, 'base64')) };
}

let base: { id: number; files: Record<string, Uint8Array> };

describe("the fuzz suite's crafted bundles through the web door", () => {
  it("120 seeded crafted bundles: each refused with the app's message, serve answering after each, its memory bounded", async () => {
    base ??= await bundleFromServe();
    const start = memoryOf(serve.pid);
    const kinds = craftedKinds(base.files);
    const names = Object.keys(kinds);
    const seen = new Set<string>();
    let peakRss = start.rss;
    for (let seed = 1; seed <= 120; seed++) {
      const kind = names[seed % names.length];
      const crafted = kinds[kind](rng(seed), honest(base.files));
      const name = `fuzz-${seed}-${kind}.judgelab`;
      const r = await call('bundles.verify', {
        fileName: name,
        contentBase64: Buffer.from(crafted.zip).toString('base64'),
      });
      // The app's refusal: a 200 envelope with its error, never a 5xx or the last-resort "internal".
      expect(r.status, name).toBe(200);
      const env = r.body as Envelope;
      if (!env.ok) {
        expect(env.error.code, `${name}: ${env.error.message}`).toBe('invalid_input');
        expect(env.error.message.startsWith(`${name}: `), env.error.message).toBe(true);
        expect(env.error.message, name).not.toMatch(/\n\s+at |Error:/);
        if (crafted.expect) expect(env.error.message, name).toMatch(crafted.expect);
        seen.add(kind);
      } else expect(crafted.mayPass, `${name} was not refused`).toBe(true);
      await stillUp(name);
      peakRss = Math.max(peakRss, memoryOf(serve.pid).rss);
    }
    // Every kind was met (a flipped byte may land where no check looks, so it may pass).
    for (const k of names) if (k !== 'flipped') expect(seen.has(k), k).toBe(true);
    // Nothing reached serve's last resort (a handler that threw).
    expect(serve.stderr()).not.toMatch(/request failed|\n\s+at /);
    // Bounded: a bomb costs at most its declared size, far below the gigabytes it unpacks to.
    const end = memoryOf(serve.pid);
    console.info(
      `serve RSS: ${Math.round(start.rss / MiB)} MiB before the crafted bundles, ${Math.round(peakRss / MiB)} MiB at most after one, ${Math.round(end.peak / MiB)} MiB peak (VmHWM)`,
    );
    expect(end.peak).toBeLessThan(1024 * MiB);
    expect(peakRss - start.rss).toBeLessThan(512 * MiB);
  }, 600_000);
});

describe('"__proto__", "constructor" and "prototype" keys from a page', () => {
  const refusal = (field: string) => ({
    ok: false,
    error: {
      code: 'invalid_input',
      message: `${field}: is not allowed as a key (it names a JavaScript object internal); remove it`,
      refusal: { key: 'input.forbiddenKey', params: { field } },
    },
  });

  /** A Judge-LS draft (nothing run) and a comparison its power plan makes: a plan it would lock. */
  let target: { id: number; comparison: string } | undefined;
  async function preregTarget(): Promise<{ id: number; comparison: string }> {
    if (target) return target;
    const result = async (method: string, params: unknown) => {
      const r = await call(method, params);
      expect(r.body, method).toMatchObject({ ok: true });
      return (r.body as { result: unknown }).result;
    };
    const { dataset } = (await result('datasets.loadSample', { sampleId: 'llmbar-demo' })) as {
      dataset: { id: number };
    };
    const config = {
      name: 'prereg-proto',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 3,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
    };
    const { id } = (await result('experiments.create', { config })) as { id: number };
    const estimate = (await result('experiments.estimate', { config })) as {
      power: { comparisons: { id: string }[] };
    };
    return (target = { id, comparison: estimate.power.comparisons[0].id });
  }

  it.each(['__proto__', 'constructor', 'prototype'])(
    'a plan with a "%s" key is refused naming it, and nothing is locked',
    async (key) => {
      const { id, comparison } = await preregTarget();
      // Valid but for the key: a plan that loses its "__proto__" on the way locks without it.
      const raw = `{"params":{"experimentId":${id},"plan":{"confirmatory":[${JSON.stringify(comparison)}],"${key}":{"alpha":0.5},"exclusions":"none","stopping":"all planned items"}}}`;
      const r = await call('experiments.preregister', undefined, raw);
      expect(r).toMatchObject({ status: 200, body: refusal(`plan.${key}`) });
      const view = await call('experiments.preregistration', { experimentId: id });
      expect(view.body).toMatchObject({ ok: true, result: { active: null } });
    },
  );

  it.each(['__proto__', 'constructor', 'prototype'])(
    'a config with a "%s" key, deep in a judge, is refused naming it, and nothing is created',
    async (key) => {
      const before = await call('experiments.list', undefined);
      const raw = `{"params":{"config":{"name":"proto-${key}","protocol":"self-consistency","dataset":"LLMBar (sample)","limit":2,"providers":{"sim":{"kind":"simulated"}},"judges":[{"label":"J","provider":"sim","model":"sim-judge-strong","${key}":{"temperature":2}}]}}}`;
      for (const method of ['experiments.create', 'experiments.estimate']) {
        const r = await call(method, undefined, raw);
        expect(r, method).toMatchObject({ status: 200, body: refusal(`config.judges[0].${key}`) });
      }
      expect(await call('experiments.list', undefined)).toEqual(before);
    },
  );
});

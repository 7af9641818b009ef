// Issue 40 (items 1, 2, 13): a study bundle is someone else's file. Crafted bundles — zip bombs
// that lie about their size or declare gigabytes, entries beyond the count limit, overlapping
// entries, names that climb out (`..`, absolute), duplicate names, truncation, wrong hashes and
// CRCs, flipped bytes — are refused by `bundles.verify` with the app's error naming the bundle
// (never another exception), and memory stays bounded (a 6 GiB bomb of a few megabytes once took
// the process down). bundle.json must describe the config it ships, and a config that names a file
// by path is refused without the file being opened or quoted.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/main/base/errors';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { BundleJson } from '../../src/shared/paper/bundle';
import {
  BUNDLE_REFUSALS_EN,
  fillRefusal,
  type BundleRefusalKey,
} from '../../src/shared/paper/bundle-refusals';
import { tempDir } from '../helpers/tmp';
import { craftedKinds, honest, rng } from '../helpers/bundle-fuzz';
import { craftZip, deflated } from '../helpers/zip-craft';

let core: Core;
let dir: string;
let cleanup: () => void;
/** The self-consistency bundle's entries, as written (bundle.json first). */
let files: Record<string, Uint8Array>;
/** The reference-sensitivity bundle's entries (its answers file sealed into the config). */
let rsFiles: Record<string, Uint8Array>;

const MiB = 1024 * 1024;
const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function exportOf(id: number): Promise<Record<string, Uint8Array>> {
  const b = await core.call('experiments.exportBundle', { experimentId: id });
  return unzipSync(Buffer.from(b.contentBase64, 'base64'));
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({ dataDir: join(dir, 'store'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const sim = { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } };
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const sc = core.experiments.createOrUpdate({
    name: 'hostile-base',
    protocol: 'self-consistency',
    dataset: dataset.id,
    limit: 4,
    providers: sim,
    judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong', temperature: 1 }],
    repeats: 2,
  });
  expect((await core.experiments.runToEnd(sc.id)).status).toBe('finished');
  files = await exportOf(sc.id);

  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  const rs = core.experiments.createOrUpdate({
    name: 'hostile-rs',
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    limit: 2,
    providers: sim,
    answers: {
      fileName: 'mine.jsonl',
      text: '{"item_id":"english-5888115353945373749-2","generator":"mine","answer":"Amos"}\n',
    },
    parts: { calibration: false },
    judges: [{ label: 'Sim', provider: 'sim', model: 'sim-judge-strong' }],
  });
  expect((await core.experiments.runToEnd(rs.id)).status).toBe('finished');
  rsFiles = await exportOf(rs.id);
}, 300_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

/** Verifies through the core (the call the CLI and the web page make); the error, or null. */
async function verify(name: string, zip: Uint8Array): Promise<AppError | null> {
  try {
    await core.call('bundles.verify', { fileName: name, contentBase64: Buffer.from(zip).toString('base64') });
    return null;
  } catch (err) {
    // Nothing but the app's own refusal may come out of a bundle, whatever its bytes.
    expect(err, String((err as Error)?.stack)).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_input');
    const e = err as AppError;
    expect(e.message.startsWith(`${name}: `), e.message).toBe(true);
    // A keyed refusal reads the same from its key as from the core (the page's English is the key's).
    if (e.refusal?.key.startsWith('bundle.'))
      expect(fillRefusal(BUNDLE_REFUSALS_EN[e.refusal.key as BundleRefusalKey], e.refusal.params ?? {})).toBe(
        e.message,
      );
    return e;
  }
}

/** The bundle with bundle.json and some entries replaced, every hash in bundle.json made to match. */
function rebundle(
  f: Record<string, Uint8Array>,
  change: (meta: BundleJson, entries: Record<string, Uint8Array>) => void,
): Uint8Array {
  const entries = { ...f };
  delete entries['bundle.json'];
  const meta = JSON.parse(text(f['bundle.json'])) as BundleJson;
  change(meta, entries);
  for (const [n, b] of Object.entries(entries)) if (n in meta.entries) meta.entries[n] = sha(b);
  return craftZip(honest({ 'bundle.json': utf8(JSON.stringify(meta)), ...entries }));
}

describe('crafted bundles', () => {
  it('the honest bundle, zipped by hand, verifies identical (the workbook read within its limits)', async () => {
    const report = await core.call('bundles.verify', {
      fileName: 'honest.judgelab',
      contentBase64: craftZip(honest(files)).toString('base64'),
    });
    expect(report.identical).toBe(true);
    expect(report.notRecompared.filter((n) => n.reason === 'unreadable')).toEqual([]);
  }, 120_000);

  it('120 seeded crafted bundles are each refused cleanly, in bounded memory', async () => {
    const base = honest(files);
    const all = craftedKinds(files);
    const kinds = Object.keys(all);
    const startRss = process.memoryUsage().rss;
    let peak = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const kind = kinds[seed % kinds.length];
      const crafted = all[kind](rng(seed), base);
      const name = `fuzz-${seed}-${kind}.judgelab`;
      const err = await verify(name, crafted.zip);
      if (!crafted.mayPass) expect(err, `${name} was not refused`).not.toBeNull();
      if (crafted.expect) expect(err?.message, name).toMatch(crafted.expect);
      // Said in the page's language too: every refusal of the zip itself has its key.
      if (crafted.expect && kind !== 'wrongHash') expect(err?.refusal?.key, name).toMatch(/^bundle\./);
      peak = Math.max(peak, process.memoryUsage().rss - startRss);
    }
    // A refused bomb costs at most its declared size: far below the gigabytes it unpacks to.
    expect(peak).toBeLessThan(768 * MiB);
  }, 600_000);

  it('overlapping entries with headers of their own are refused', async () => {
    const inner = Buffer.from('{"inner":true}');
    const b = { name: 'export/b.json', data: inner, method: 0, size: inner.length, crc: crc32(inner) };
    const header = craftZip([b]).subarray(0, 30 + b.name.length + inner.length);
    const a = { name: 'export/a.json', data: header, method: 0, size: header.length, crc: crc32(header) };
    // a's header is the zip's first; b's directory entry points at the copy of b's header in a's data.
    const zip = craftZip([a, { ...b, localOffset: 30 + a.name.length }, ...honest(files)]);
    const err = await verify('overlap.judgelab', zip);
    expect(err?.message).toMatch(/export\/b\.json: its data overlap those of "export\/a\.json"/);
  });

  it('more entries than the limit are refused from the directory alone', async () => {
    const empty = deflated('x', new Uint8Array());
    const many = Array.from({ length: 10_001 }, (_, k) => ({ ...empty, name: `export/e${k}` }));
    const err = await verify('many.judgelab', craftZip([...honest(files), ...many]));
    expect(err?.message).toMatch(/10,\d{3} entries, above the limit of 10,000/);
  });
});

describe('bundle.json against the config', () => {
  it.each([
    [
      'the experiment name',
      (m: BundleJson) => void (m.experiment.name = 'another-study'),
      /config\.json: name: "hostile-base", but bundle\.json says "another-study"/,
    ],
    [
      'the protocol',
      (m: BundleJson) => void (m.experiment.protocol = 'judge-ls'),
      /config\.json: protocol: "self-consistency", but bundle\.json says "judge-ls"/,
    ],
    [
      'the simulated mark',
      (m: BundleJson) => void (m.simulated = false),
      /config\.json: providers: a simulated provider, but bundle\.json says simulated: false/,
    ],
    [
      'a status other than finished',
      (m: BundleJson) => void (m.experiment.status = 'running'),
      /bundle\.json: experiment\.status: a study bundle is written from a finished experiment/,
    ],
    [
      'a date that is not one',
      (m: BundleJson) => void (m.created_at = 'last Tuesday'),
      /bundle\.json: created_at: not a date and time/,
    ],
    [
      'an entry listed with a climbing name',
      (m: BundleJson) => void (m.entries['../outside.json'] = '0'.repeat(64)),
      /bundle\.json \(entries: "\.\.\/outside\.json"\): refused: a "\.\." in its name/,
    ],
  ])('refuses %s', async (_what, change, message) => {
    const err = await verify(
      'meta.judgelab',
      rebundle(files, (meta) => change(meta)),
    );
    expect(err?.message).toMatch(message);
  });
});

describe("a bundle's config names no file of the reviewer's disk", () => {
  it('an answers path is refused without the file being opened or quoted', async () => {
    const secret = join(dir, 'reviewer-secret.jsonl');
    writeFileSync(secret, '{"item_id":"SECRET-ITEM-7731","generator":"g","answer":"a"}\n');
    for (const path of [secret, '/etc/shadow', '/etc/passwd']) {
      const zip = rebundle(rsFiles, (_meta, entries) => {
        const config = JSON.parse(text(entries['config.json'])) as Record<string, unknown>;
        entries['config.json'] = utf8(JSON.stringify({ ...config, answers: path }));
      });
      const err = await verify('paths.judgelab', zip);
      expect(err?.message).toBe(
        'paths.judgelab: config.json: answers: names a file by path; a study bundle carries its files (sealed into the config), and verify opens no file outside the bundle',
      );
      expect(JSON.stringify(err?.issues)).not.toContain('SECRET');
    }
  });

  it('the sealed bundle verifies identical (its answers travel in its config)', async () => {
    const report = await core.call('bundles.verify', {
      fileName: 'rs.judgelab',
      contentBase64: craftZip(honest(rsFiles)).toString('base64'),
    });
    expect(report.identical).toBe(true);
  }, 120_000);
});

// The study bundle (issue 24): a finished 3-judge Judge-LS study (unusable answers included) and a
// bias-probes study with human labels, each run live against the mock provider with a key in the
// environment, bundled, the mock closed (no call could go out), and verified: every metric, table
// and figure recomputed from the bundle's answers is byte-identical to the stored one, and the mock
// saw no call. No byte of the bundle (raw or unzipped) holds a key. A bundle with one byte changed is
// refused naming the entry; a bundle whose stored numbers were changed (hash updated to match)
// opens, replays and reports where it differs.
import ExcelJS from 'exceljs';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { AppError } from '../../src/main/base/errors';
import { canonicalSvg } from '../../src/main/paper/bundle-verify';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import type { BundleJson } from '../../src/shared/paper/bundle';
import { tempDir } from '../helpers/tmp';
import { biasResponder, type PairRecord } from '../mock-provider/bias-responder';
import { DEFAULT_PROFILES, judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

const SAMPLES = join(import.meta.dirname, '../../resources/samples');
// Keys that would be recognisable anywhere they ended up.
const KEYS = {
  MOCK_OPENAI_KEY: 'sk-bundle-test-OPENAI-7f3a9c1e5b',
  MOCK_ANTHROPIC_KEY: 'sk-ant-bundle-test-ANTHROPIC-2d8e4f6a0c',
};

let core: Core;
let dir: string;
let cleanup: () => void;
let items: Item[];
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  // In the environment of the exporting process too, as a user's shell would have them.
  for (const [k, v] of Object.entries(KEYS)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  core = new Core({
    dataDir: join(dir, 'store'),
    door: 'cli',
    keys: new EnvOnlyKeyStore(KEYS),
    engine: { progressIntervalMs: 200 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  items = (await Promise.all(
    (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  cleanup?.();
});

const providers = (m: MockProvider) => ({
  openai: { kind: 'openai', baseURL: `${m.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
  anthropic: { kind: 'anthropic', baseURL: m.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 8 },
});

async function runLive(config: Record<string, unknown>): Promise<number> {
  const { id } = await core.call('experiments.create', { config });
  const final = await core.experiments.runToEnd(id);
  expect(final.status, final.message ?? '').toBe('finished');
  return id;
}

function expectNoKey(bytes: Uint8Array): Record<string, Uint8Array> {
  const raw = Buffer.from(bytes);
  const files = unzipSync(bytes);
  for (const key of Object.values(KEYS)) {
    expect(raw.includes(key)).toBe(false);
    for (const [name, content] of Object.entries(files))
      expect(Buffer.from(content).includes(key), `${key} in ${name}`).toBe(false);
  }
  return files;
}

/** Bundled while the mock is up, verified after it is closed: no call could reach a provider. */
async function bundleAndVerify(experimentId: number, mock: MockProvider) {
  const b = await core.call('experiments.exportBundle', { experimentId });
  const bytes = Buffer.from(b.contentBase64, 'base64');
  const files = expectNoKey(bytes);
  const calls = mock.log.length;
  await mock.close();
  const report = await core.call('bundles.verify', {
    fileName: b.fileName,
    contentBase64: b.contentBase64,
  });
  expect(mock.log.length).toBe(calls);
  return { b, bytes, files, report };
}

describe('canonicalSvg', () => {
  it("renumbers only the chart library's instance-counted names, so any other change still shows", () => {
    const a =
      '<g clip-path="url(#zr6-c0)"/><path class="zr16-cls-108"/><g class="zr16-cls-109"/><use href="#zr16-gradient-3"/><path class="zr16-cls-108"/>';
    const b =
      '<g clip-path="url(#zr14-c0)"/><path class="zr20-cls-124"/><g class="zr20-cls-125"/><use href="#zr20-gradient-7"/><path class="zr20-cls-124"/>';
    expect(canonicalSvg(a)).toBe(canonicalSvg(b));
    // Two distinct names stay distinct; a moved point stays a difference.
    const c =
      '<g clip-path="url(#zr14-c0)"/><path class="zr20-cls-124"/><g class="zr20-cls-124"/><use href="#zr20-gradient-7"/><path class="zr20-cls-124"/>';
    expect(canonicalSvg(c)).not.toBe(canonicalSvg(a));
    expect(canonicalSvg('<path d="M1 2" class="zr1-cls-1"/>')).not.toBe(
      canonicalSvg('<path d="M1 3" class="zr2-cls-5"/>'),
    );
  });
});

describe('study bundle', () => {
  it('Judge-LS, three judges, unusable answers included: verify recomputes everything identical, offline; no key in it; tampering is refused', async () => {
    // A third judge model with a profile of its own.
    const profiles = {
      ...DEFAULT_PROFILES,
      'gpt-4.1-nano': { ...DEFAULT_PROFILES['gpt-4.1-mini'], accuracy: { EN: 0.7, ZH: 0.6, LS: 0.55 } },
    };
    const responder = judgeLsResponder(items, { failRate: 0.08, profiles });
    const mock = await startMockProvider({
      latencyMs: [0, 1],
      respond: responder.respond,
      faultFor: responder.faultFor,
      logBodies: false,
    });
    const id = await runLive({
      name: 'bundle-judge-ls',
      protocol: 'judge-ls',
      dataset: 'LLMBar (sample)',
      limit: 6,
      providers: providers(mock),
      transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
      judges: [
        { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini', temperature: 0 },
        { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
        { label: 'GPT nano mock', provider: 'openai', model: 'gpt-4.1-nano' },
      ],
      maxParseRetries: 2,
    });
    const { b, bytes, files, report } = await bundleAndVerify(id, mock);
    expect(b.fileName).toBe('bundle-judge-ls.judgelab');

    // The layout: bundle.json lists every other entry with its SHA-256.
    const meta = JSON.parse(new TextDecoder().decode(files['bundle.json'])) as BundleJson;
    expect(meta).toMatchObject({
      layout: 1,
      experiment: { name: 'bundle-judge-ls', protocol: 'judge-ls', status: 'finished' },
      simulated: false,
    });
    expect(Object.keys(files).sort()).toEqual(['bundle.json', ...Object.keys(meta.entries)].sort());
    for (const [name, sha] of Object.entries(meta.entries))
      expect(createHash('sha256').update(files[name]).digest('hex')).toBe(sha);
    for (const name of [
      'config.json',
      'dataset.json',
      'prompts.json',
      'answers.jsonl',
      'ledger.jsonl',
      'export/metrics.json',
      'export/manifest.json',
      'export/methods.md',
    ])
      expect(Object.keys(files)).toContain(name);
    // The ledger: one row per planned slot, with the request as sent, the raw response and usage.
    const ledger = new TextDecoder()
      .decode(files['ledger.jsonl'])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(ledger).toHaveLength(results.counts.planned);
    expect(ledger[0]).toMatchObject({
      stage: expect.any(String),
      task_key: expect.any(String),
      model: expect.any(String),
      request: expect.objectContaining({ model: expect.any(String) }),
      status: expect.any(String),
      created_at: expect.any(String),
    });
    expect(ledger.some((r) => String(r.failure_reason ?? '').startsWith('unparseable'))).toBe(true);

    // Recomputed offline: metrics.json, every table (.csv, .tex) and figure (.svg), all identical.
    expect(
      report.identical,
      JSON.stringify(
        report.checks.filter((c) => !c.equal),
        null,
        2,
      ),
    ).toBe(true);
    expect(report.replayed).toBeGreaterThan(0);
    const checked = report.checks.map((c) => c.file);
    expect(checked).toContain('export/metrics.json');
    expect(checked).toEqual(
      expect.arrayContaining(['export/tables/quality.csv', 'export/tables/quality.tex']),
    );
    expect(checked.some((f) => f.startsWith('export/figures/') && f.endsWith('.svg'))).toBe(true);
    // Every table, the workbook (by cell values), every figure and its PNG (by pixels) was compared.
    const exported = Object.keys(files).filter((f) =>
      /^export\/(tables\/.*\.(csv|tex|xlsx)|figures\/.*\.(svg|png))$/.test(f),
    );
    expect(exported).toContain('export/tables/tables.xlsx');
    expect(exported.some((f) => f.endsWith('.png'))).toBe(true);
    expect([...checked].filter((f) => f !== 'export/metrics.json').sort()).toEqual(exported.sort());
    // Every other file of the export folder is listed as not recompared, with why; none twice.
    const notRecompared = new Map(report.notRecompared.map((n) => [n.file, n.reason]));
    expect(notRecompared.get('export/manifest.json')).toBe('manifest');
    expect(notRecompared.get('export/methods.md')).toBe('methods');
    const everyExportFile = Object.keys(files).filter((f) => f.startsWith('export/'));
    expect([...checked, ...notRecompared.keys()].sort()).toEqual(everyExportFile.sort());

    // One cell of the workbook changed (bundle.json's hash updated to match): that cell differs.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(files['export/tables/tables.xlsx']) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('quality')!;
    const stored = sheet.getCell('C2').value;
    sheet.getCell('C2').value = typeof stored === 'number' ? stored + 1 : 'changed';
    const xlsx = new Uint8Array(await workbook.xlsx.writeBuffer());
    const xlsxMeta = JSON.parse(new TextDecoder().decode(files['bundle.json'])) as BundleJson;
    xlsxMeta.entries['export/tables/tables.xlsx'] = createHash('sha256').update(xlsx).digest('hex');
    const changedCell = await core.call('bundles.verify', {
      fileName: 'cell.judgelab',
      contentBase64: Buffer.from(
        zipSync({
          ...files,
          'export/tables/tables.xlsx': xlsx,
          'bundle.json': new TextEncoder().encode(JSON.stringify(xlsxMeta)),
        }),
      ).toString('base64'),
    });
    expect(changedCell.identical).toBe(false);
    expect(changedCell.checks.filter((c) => !c.equal)).toEqual([
      {
        file: 'export/tables/tables.xlsx',
        equal: false,
        differences: [
          {
            where: 'quality!C2',
            stored: JSON.stringify(sheet.getCell('C2').value),
            recomputed: JSON.stringify(stored),
          },
        ],
      },
    ]);
    // The stored metrics.json is the one the results page shows.
    expect(JSON.parse(new TextDecoder().decode(files['export/metrics.json']))).toEqual(results.metrics);

    // One byte changed in a response: refused, naming the bundle and the entry; nothing replayed.
    const answers = Buffer.from(files['answers.jsonl']);
    const at = answers.indexOf('"answer":"') + 12;
    answers[at] = answers[at] === 0x41 ? 0x42 : 0x41;
    const tampered = zipSync({ ...files, 'answers.jsonl': new Uint8Array(answers) });
    const err = await core
      .call('bundles.verify', {
        fileName: 'tampered.judgelab',
        contentBase64: Buffer.from(tampered).toString('base64'),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toMatch(
      /^tampered\.judgelab: answers\.jsonl: content does not match its SHA-256 in bundle\.json/,
    );
    expect((err as AppError).code).toBe('invalid_input');

    // An entry not listed, and a listed one missing: refused too.
    const extra = zipSync({ ...files, 'extra.txt': new TextEncoder().encode('x') });
    await expect(
      core.call('bundles.verify', {
        fileName: 'extra.judgelab',
        contentBase64: Buffer.from(extra).toString('base64'),
      }),
    ).rejects.toThrow(/extra\.judgelab: extra\.txt: in the bundle but not listed/);
    const { 'ledger.jsonl': _dropped, ...rest } = files;
    await expect(
      core.call('bundles.verify', {
        fileName: 'short.judgelab',
        contentBase64: Buffer.from(zipSync(rest)).toString('base64'),
      }),
    ).rejects.toThrow(/short\.judgelab: ledger\.jsonl: listed in bundle\.json but missing/);
    await expect(
      core.call('bundles.verify', {
        fileName: 'not.judgelab',
        contentBase64: bytes.subarray(0, 100).toString('base64'),
      }),
    ).rejects.toThrow(/not\.judgelab: not a study bundle/);

    // Stored numbers changed and the hash updated to match: the bundle opens, and verify says where it differs.
    const metrics = JSON.parse(new TextDecoder().decode(files['export/metrics.json'])) as {
      quality: { n: number }[];
    };
    metrics.quality[1].n += 1;
    const forged = new TextEncoder().encode(JSON.stringify(metrics, null, 2) + '\n');
    const forgedMeta = {
      ...meta,
      entries: { ...meta.entries, 'export/metrics.json': createHash('sha256').update(forged).digest('hex') },
    };
    const forgedZip = zipSync({
      ...files,
      'bundle.json': new TextEncoder().encode(JSON.stringify(forgedMeta)),
      'export/metrics.json': forged,
    });
    const forgedReport = await core.call('bundles.verify', {
      fileName: 'forged.judgelab',
      contentBase64: Buffer.from(forgedZip).toString('base64'),
    });
    expect(forgedReport.identical).toBe(false);
    const differing = forgedReport.checks.filter((c) => !c.equal);
    expect(differing.map((c) => c.file)).toEqual(['export/metrics.json']);
    expect(differing[0].differences).toEqual([
      {
        where: 'quality[1].n',
        stored: String(metrics.quality[1].n),
        recomputed: String(metrics.quality[1].n - 1),
      },
    ]);
  }, 900_000);

  it('bias probes with human labels: the labels travel in the bundle, verify recomputes everything identical', async () => {
    const records = readFileSync(join(SAMPLES, 'llmbar.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as PairRecord);
    const mock = await startMockProvider({
      latencyMs: [0, 1],
      respond: biasResponder(records).respond,
      logBodies: false,
    });
    const id = await runLive({
      name: 'bundle-bias',
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      sample: 'random',
      seed: 3,
      limit: 8,
      providers: providers(mock),
      rewriter: { provider: 'openai', model: 'rewriter-model' },
      judges: [
        { label: 'Mock judge', provider: 'openai', model: 'judge-model' },
        { label: 'Mock judge B', provider: 'anthropic', model: 'judge-model-2' },
      ],
      mode: 'pairwise',
    });
    const set = await core.call('annotation.createSet', { experimentId: id, size: 6, seed: 1 });
    const session = await core.call('annotation.session', { setId: set.id, annotator: 'alice' });
    const value = (scale: typeof set.scale) =>
      scale.kind === 'score' ? scale.min : scale.kind === 'preference' ? '1' : scale.labels[0];
    for (const item of session.items.slice(0, 4))
      await core.call('annotation.label', {
        setId: set.id,
        annotator: 'alice',
        unitUid: item.unitUid,
        value: value(set.scale),
      });

    const { files, report } = await bundleAndVerify(id, mock);
    const labels = new TextDecoder()
      .decode(files['labels.jsonl'])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(labels).toHaveLength(4);
    expect(labels[0]).toMatchObject({ annotator: 'alice', set_uid: set.uid, value: value(set.scale) });
    expect(
      report.identical,
      JSON.stringify(
        report.checks.filter((c) => !c.equal),
        null,
        2,
      ),
    ).toBe(true);
    expect(report.checks.map((c) => c.file)).toEqual(
      expect.arrayContaining(['export/metrics.json', 'export/tables/bias_profile.csv']),
    );
  }, 900_000);
});

// Golden copies of metrics.json: each protocol on a small slice of its bundled sample, on the
// simulated provider and against the mock provider (both wire formats), run in-process through
// the core. The files in test/fixtures/golden/ were written before the judging core was rebuilt
// (issue 21); a refactoring that changes one byte of any protocol's numbers fails here.
// JUDGE_LAB_WRITE_GOLDEN=1 rewrites them (only when a change of the numbers is meant).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import { getProtocol } from '../../src/main/protocols';
import { metricsJson } from '../../src/main/report/export-folder';
import type { Item } from '../../src/shared/domain';
import { tempDir } from '../helpers/tmp';
import { biasResponder, type PairRecord } from '../mock-provider/bias-responder';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { refSensResponder, type QaRecord } from '../mock-provider/refsens-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

const GOLDEN = join(import.meta.dirname, '../fixtures/golden');
const SAMPLES = join(import.meta.dirname, '../../resources/samples');
const WRITE = process.env.JUDGE_LAB_WRITE_GOLDEN === '1';

function jsonl<T>(file: string): T[] {
  return readFileSync(join(SAMPLES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };
const mockProviders = (m: MockProvider) => ({
  openai: { kind: 'openai', baseURL: `${m.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
  anthropic: { kind: 'anthropic', baseURL: m.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 8 },
});

let core: Core;
let cleanup: () => void;
const mocks: Record<'judgeLs' | 'bias' | 'refsens', MockProvider> = {} as never;
let exportRoot: string;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  exportRoot = join(t.dir, 'golden-exports');
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  const items = (await Promise.all(
    (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
  // A failure rate high enough that a few verdicts of the slice always come back malformed.
  const judgeLs = judgeLsResponder(items, { failRate: 0.08 });
  mocks.judgeLs = await startMockProvider({
    latencyMs: [0, 1],
    respond: judgeLs.respond,
    faultFor: judgeLs.faultFor,
    logBodies: false,
  });
  mocks.bias = await startMockProvider({
    latencyMs: [0, 1],
    respond: biasResponder(jsonl<PairRecord>('llmbar.jsonl')).respond,
    logBodies: false,
  });
  mocks.refsens = await startMockProvider({
    latencyMs: [0, 1],
    respond: refSensResponder(jsonl<QaRecord>('tydiqa-en-ar-te.jsonl')).respond,
    logBodies: false,
  });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  for (const m of Object.values(mocks)) await m?.close();
  cleanup?.();
});

/** The cases: name → config (the providers given when the mocks are up). */
const CASES: Record<string, () => { protocol: string } & Record<string, unknown>> = {
  'judge-ls.simulated': () => ({
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 8,
    providers: SIM,
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH', 'LS'] },
    judges: [
      { label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong' },
      { label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak' },
    ],
    tieProbes: true,
  }),
  'judge-ls.mock': () => ({
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 8,
    providers: mockProviders(mocks.judgeLs),
    transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
    judges: [
      { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
      { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
    ],
    tieProbes: true,
    maxParseRetries: 2,
  }),
  'reference-sensitivity.simulated': () => ({
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    sample: 'random',
    seed: 3,
    limit: 12,
    providers: SIM,
    generators: [{ label: 'Sim generator', provider: 'sim', model: 'sim-generator' }],
    judges: [
      { label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong' },
      { label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak' },
    ],
  }),
  'reference-sensitivity.mock': () => ({
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    seed: 7,
    limit: 12,
    providers: mockProviders(mocks.refsens),
    generators: [
      { label: 'GPT gen', provider: 'openai', model: 'gen-openai' },
      { label: 'Claude gen', provider: 'anthropic', model: 'gen-anthropic' },
    ],
    judges: [
      { label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini' },
      { label: 'Claude judge', provider: 'anthropic', model: 'claude-haiku-4-5' },
    ],
  }),
  'bias-probes.pointwise.simulated': () => ({
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: SIM,
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    judges: [{ label: 'Simulated judge', provider: 'sim', model: 'sim-judge' }],
    mode: 'pointwise',
  }),
  'bias-probes.pairwise.simulated': () => ({
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 8,
    providers: SIM,
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    judges: [{ label: 'Simulated judge', provider: 'sim', model: 'sim-judge' }],
    mode: 'pairwise',
  }),
  'bias-probes.pointwise.mock': () => ({
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: mockProviders(mocks.bias),
    rewriter: { provider: 'openai', model: 'rewriter-model' },
    judges: [
      { label: 'Mock judge', provider: 'openai', model: 'judge-model' },
      { label: 'Mock judge (anthropic)', provider: 'anthropic', model: 'judge-model-2' },
    ],
    mode: 'pointwise',
    scale: 5,
  }),
  'bias-probes.pairwise.mock': () => ({
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 8,
    providers: mockProviders(mocks.bias),
    rewriter: { provider: 'openai', model: 'rewriter-model' },
    judges: [
      { label: 'Mock judge', provider: 'openai', model: 'judge-model' },
      { label: 'Mock judge (anthropic)', provider: 'anthropic', model: 'judge-model-2' },
    ],
    mode: 'pairwise',
  }),
  // Self-consistency joined the golden runs later (issue 34), written before the seam was reshaped;
  // on the simulated provider only: the repeats mock numbers its answers in order of arrival.
  'self-consistency.simulated': () => ({
    protocol: 'self-consistency',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: SIM,
    judges: [
      { label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong', temperature: 1 },
      { label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak', temperature: 1 },
    ],
    repeats: 3,
    orders: 'both',
  }),
};

/** A clock time as the app writes it (ISO 8601, UTC). */
const CLOCK = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/**
 * Every file of an export folder by its SHA-256, so a refactoring of the seam (issue 34) cannot
 * change one byte of a table, figure, CSV or Methods text unnoticed. What differs from run to run
 * is set aside before hashing, and nothing else: clock times (the manifest's and the Methods'
 * answer times), the experiment's id, the mock's port, and the zip dates inside tables.xlsx (its entries are
 * hashed one by one, their own clock times set aside too).
 */
function exportDigests(dir: string, files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
  for (const f of [...files].sort()) {
    const bytes = readFileSync(join(dir, f));
    if (f === 'manifest.json') {
      const m = JSON.parse(bytes.toString('utf8')) as { experiment?: { id?: unknown } };
      if (m.experiment) delete m.experiment.id;
      // The mock providers listen on a new port each run; the config names it.
      out[f] = sha(
        JSON.stringify(m)
          .replace(CLOCK, '<time>')
          .replace(/127\.0\.0\.1:\d+/g, 'mock'),
      );
    } else if (f.startsWith('methods.')) out[f] = sha(bytes.toString('utf8').replace(CLOCK, '<time>'));
    else if (f.endsWith('.xlsx')) {
      const entries = unzipSync(bytes);
      out[f] = sha(
        Object.keys(entries)
          .sort()
          .map((e) => `${e}:${sha(strFromU8(entries[e]).replace(CLOCK, '<time>'))}`)
          .join('\n'),
      );
    } else out[f] = sha(bytes);
  }
  return out;
}

function golden(file: string, text: string) {
  if (WRITE || !existsSync(file)) {
    // A missing golden copy is written, and the test still fails: a golden copy must be
    // looked at and committed, never made up on the fly.
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (!WRITE) throw new Error(`${file} was missing; written now, check it and commit it`);
  }
  // Strings compared whole: byte-identical, and a failure shows the lines that differ.
  const was = readFileSync(file, 'utf8');
  // Digests as objects, so a failure names the export files that changed.
  if (file.endsWith('.sha256.json')) expect(JSON.parse(text), `${file} differs`).toEqual(JSON.parse(was));
  expect(text, `${file} differs`).toBe(was);
}

describe('metrics.json and every export file of every protocol are what they were before the seam was reshaped', () => {
  it.each(Object.keys(CASES))(
    '%s',
    async (name) => {
      const config = { name: `golden-${name}`, ...CASES[name]() };
      const { id } = await core.call('experiments.create', { config });
      const final = await core.experiments.runToEnd(id);
      expect(final.status).toBe('finished');
      const results = await core.call('experiments.results', { experimentId: id });
      const text = metricsJson(results.metrics as object, getProtocol(String(config.protocol)).metricsKeys);
      golden(join(GOLDEN, `${name}.metrics.json`), text);
      // Every export file in English and Chinese (tables, figures SVG/PNG, CSVs, Methods).
      for (const lang of ['en', 'zh'] as const) {
        const out = join(exportRoot, `${name}.${lang}`);
        const r = await core.call('experiments.export', { experimentId: id, outDir: out, lang });
        expect(r.figureFailures ?? []).toEqual([]);
        golden(
          join(GOLDEN, 'exports', `${name}.${lang}.sha256.json`),
          JSON.stringify(exportDigests(out, r.files), null, 2) + '\n',
        );
      }
    },
    180_000,
  );
});

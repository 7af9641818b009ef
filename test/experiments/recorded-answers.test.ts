// Recorded answers (the `recorded` provider): a study run live against the mock provider, its
// answers exported in the recorded format and run again from that file give the same
// metrics.json byte for byte, with the mock closed (no call could go out) and its log unchanged.
// Files that cannot be read whole are refused naming file, line and field, and nothing is stored.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { AppError } from '../../src/main/base/errors';
import { Core } from '../../src/main/facade/core';
import { getProtocol } from '../../src/main/protocols';
import { metricsJson } from '../../src/main/report/export-folder';
import type { Item } from '../../src/shared/domain';
import type { RecordedSummary } from '../../src/shared/experiments';
import { tempDir } from '../helpers/tmp';
import { biasResponder, type PairRecord } from '../mock-provider/bias-responder';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { refSensResponder, type QaRecord } from '../mock-provider/refsens-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

const SAMPLES = join(import.meta.dirname, '../../resources/samples');

let core: Core;
let dir: string;
let cleanup: () => void;
let items: Item[];

beforeAll(async () => {
  const t = tempDir();
  dir = t.dir;
  cleanup = t.cleanup;
  core = new Core({
    dataDir: join(dir, 'store'),
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  items = (await Promise.all(
    (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

const mockProviders = (m: MockProvider) => ({
  openai: { kind: 'openai', baseURL: `${m.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
  anthropic: { kind: 'anthropic', baseURL: m.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 8 },
});
const recordedProviders = (file: string) => ({
  openai: { kind: 'recorded', file },
  anthropic: { kind: 'recorded', file },
});

async function runToMetrics(config: Record<string, unknown>): Promise<{ id: number; text: string }> {
  const { id } = await core.call('experiments.create', { config });
  const final = await core.experiments.runToEnd(id);
  expect(final.status, final.message ?? '').toBe('finished');
  const results = await core.call('experiments.results', { experimentId: id });
  return {
    id,
    text: metricsJson(results.metrics as object, getProtocol(String(config.protocol)).metricsKeys),
  };
}

function manifestOf(exportDir: string): { recorded?: RecordedSummary[]; simulated: boolean } {
  return JSON.parse(readFileSync(join(exportDir, 'manifest.json'), 'utf8'));
}

/** Live against the mock, exported, closed, run again from the file: the same metrics.json. */
async function roundTrip(
  name: string,
  study: Record<string, unknown>,
  mock: MockProvider,
  format: 'jsonl' | 'csv',
): Promise<{ liveId: number; recordedId: number; file: string }> {
  const live = await runToMetrics({ name: `${name}-live`, ...study, providers: mockProviders(mock) });
  const calls = mock.log.length;
  expect(calls).toBeGreaterThan(0);
  const exported = await core.call('experiments.exportAnswers', { experimentId: live.id, format });
  expect(exported.rows).toBeGreaterThan(0);
  const file = join(dir, `${name}.${format}`);
  writeFileSync(file, exported.text);
  // The network is gone: any call the recorded run made would fail (connection refused).
  await mock.close();
  const recorded = await runToMetrics({
    name: `${name}-recorded`,
    ...study,
    providers: recordedProviders(file),
  });
  expect(mock.log.length).toBe(calls);
  expect(recorded.text).toBe(live.text);
  return { liveId: live.id, recordedId: recorded.id, file };
}

describe('recorded answers reproduce a live run', () => {
  it('Judge-LS (unusable answers included): identical metrics.json, no call to the network', async () => {
    const responder = judgeLsResponder(items, { failRate: 0.08 });
    const mock = await startMockProvider({
      latencyMs: [0, 1],
      respond: responder.respond,
      faultFor: responder.faultFor,
      logBodies: false,
    });
    const { recordedId, file } = await roundTrip(
      'judge-ls',
      {
        protocol: 'judge-ls',
        dataset: 'LLMBar (sample)',
        limit: 5,
        transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
        judges: [
          { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
          { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
        ],
        tieProbes: true,
        maxParseRetries: 2,
      },
      mock,
      'jsonl',
    );
    // The file's columns are Judge-LS's own condition fields.
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as Record<string, string>;
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining(['stage', 'item_id', 'language', 'model', 'answer', 'input_tokens']),
    );
    const judge = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, string>)
      .find((r) => r.stage === 'judge');
    expect(judge).toMatchObject({
      judge: expect.any(String),
      kind: expect.any(String),
      order: expect.any(String),
    });
    // Marked in the manifest with the file's hash; nothing missing, nothing unmatched.
    const out = join(dir, 'judge-ls-export');
    await core.call('experiments.export', { experimentId: recordedId, outDir: out });
    const [summary] = manifestOf(out).recorded!;
    expect(summary.file).toBe(file);
    expect(summary.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(summary.missing?.count).toBe(0);
    expect(summary.unmatched?.count).toBe(0);
  }, 600_000);

  it('bias probes (pairwise), from CSV: identical metrics.json, no call to the network', async () => {
    const pairs = readFileSync(join(SAMPLES, 'llmbar.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as PairRecord);
    const mock = await startMockProvider({
      latencyMs: [0, 1],
      respond: biasResponder(pairs).respond,
      logBodies: false,
    });
    await roundTrip(
      'bias',
      {
        protocol: 'bias-probes',
        dataset: 'LLMBar (sample)',
        limit: 4,
        rewriter: { provider: 'openai', model: 'rewriter-model' },
        judges: [
          { label: 'Mock judge', provider: 'openai', model: 'judge-model' },
          { label: 'Mock judge (anthropic)', provider: 'anthropic', model: 'judge-model-2' },
        ],
        mode: 'pairwise',
      },
      mock,
      'csv',
    );
  }, 600_000);
});

describe('recorded answers reproduce a live run (reference sensitivity)', () => {
  it('generated answers, three settings and the noise floor repeat, from JSONL: identical metrics.json, no call to the network', async () => {
    const qa = readFileSync(join(SAMPLES, 'tydiqa-en-ar-te.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as QaRecord);
    // Planted repeat flips: the second NR ask (sample 1) differs from the first for some
    // answers, so the file must tell the two asks apart to give the same noise floor.
    const mock = await startMockProvider({
      latencyMs: [0, 1],
      respond: refSensResponder(qa, { 'gpt-4.1-mini': 0.3 }).respond,
      logBodies: false,
    });
    const { liveId, recordedId, file } = await roundTrip(
      'refsens',
      {
        protocol: 'reference-sensitivity',
        dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
        seed: 7,
        limit: 9,
        noiseFloor: true,
        generators: [
          { label: 'GPT gen', provider: 'openai', model: 'gen-openai' },
          { label: 'Claude gen', provider: 'anthropic', model: 'gen-anthropic' },
        ],
        judges: [
          { label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini' },
          { label: 'Claude judge', provider: 'anthropic', model: 'claude-haiku-4-5' },
        ],
      },
      mock,
      'jsonl',
    );
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, string>);
    // Generations and verdicts both come from the file, each stage under its own columns.
    const stages = new Set(rows.map((r) => r.stage));
    expect(stages.size).toBeGreaterThanOrEqual(2);
    const live = (await core.call('experiments.results', { experimentId: liveId })).metrics as {
      noise_floor?: { repeat: { flips: number }[] };
    };
    // The planted repeat flips happened, and the recorded run reproduced them (same metrics.json).
    expect(live.noise_floor!.repeat.reduce((s, r) => s + r.flips, 0)).toBeGreaterThan(0);
    const out = join(dir, 'refsens-export');
    await core.call('experiments.export', { experimentId: recordedId, outDir: out });
    const [summary] = manifestOf(out).recorded!;
    expect(summary.missing?.count).toBe(0);
    expect(summary.unmatched?.count).toBe(0);
    expect(manifestOf(out).simulated).toBe(false);
  }, 600_000);
});

describe('recorded files are read whole and checked first', () => {
  const study = {
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 2,
    rewriter: { provider: 'rec', model: 'rewriter-model' },
    judges: [{ label: 'Judge', provider: 'rec', model: 'judge-model' }],
    mode: 'pairwise',
  };

  async function template(format: 'jsonl' | 'csv') {
    return core.call('experiments.recordedTemplate', {
      config: {
        name: 'tpl',
        ...study,
        providers: { rec: { kind: 'recorded', file: join(dir, 'unused.jsonl') } },
      },
      format,
    });
  }

  async function refused(name: string, text: string, ext = 'jsonl') {
    const file = join(dir, `${name}.${ext}`);
    writeFileSync(file, text);
    const before = (await core.call('experiments.list', undefined)).length;
    const err = await core
      .call('experiments.create', {
        config: { name, ...study, providers: { rec: { kind: 'recorded', file } } },
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(AppError);
    expect((await core.call('experiments.list', undefined)).length).toBe(before);
    return { file, issues: (err as AppError).issues, message: (err as AppError).message };
  }

  it('the template has one row per planned call, every answer empty, in JSONL and CSV', async () => {
    const jsonl = await template('jsonl');
    const rows = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(rows.length).toBe(jsonl.rows);
    // 2 items: the worse response rewritten longer and as Markdown (2 × 2), and per item 4
    // conditions × 2 orders judged (16).
    expect(rows.filter((r) => r.stage === 'rewrite')).toHaveLength(4);
    expect(rows.filter((r) => r.stage === 'judge')).toHaveLength(16);
    expect(rows.every((r) => r.answer === '' && r.model !== '')).toBe(true);
    expect(jsonl.columns).toEqual(
      expect.arrayContaining(['stage', 'item_id', 'judge', 'condition', 'order']),
    );
    const csv = await template('csv');
    expect(csv.text.split('\r\n')[0]).toBe(
      '\uFEFF' +
        [...csv.columns, 'model', 'answer', 'input_tokens', 'output_tokens', 'cached_tokens'].join(','),
    );
    expect(csv.rows).toBe(jsonl.rows);
  });

  it('refuses a line that is not JSON, naming file and line', async () => {
    const t = await template('jsonl');
    const lines = t.text.trim().split('\n');
    lines[2] = '{"stage": "judge", oops}';
    const { file, issues } = await refused('bad-line', lines.join('\n'));
    expect(issues[0]).toMatchObject({ file, line: 3 });
  });

  it('refuses an unknown column, naming file, line and field (JSONL and CSV)', async () => {
    const t = await template('jsonl');
    const lines = t.text.trim().split('\n');
    lines[4] = JSON.stringify({ ...JSON.parse(lines[4]), verdict: 'A' });
    const j = await refused('unknown-column', lines.join('\n'));
    expect(j.issues[0]).toMatchObject({ file: j.file, line: 5, field: 'verdict' });
    expect(j.issues[0].message).toMatch(/unknown column/);
    const c = await template('csv');
    const csv = c.text
      .replace(/^\uFEFF/, '')
      .replace(/^stage,/, 'stage,notes,')
      .replace(/\r\n(?!$)/g, '\r\n,')
      .replace(/^stage,notes,/, 'stage,notes,');
    // Each data row gets an empty "notes" cell after "stage".
    const fixed = csv
      .split('\r\n')
      .map((l, i) => (i === 0 || l === '' ? l : l.replace(/^,([^,]*),/, '$1,,')))
      .join('\r\n');
    const k = await refused('unknown-column-csv', fixed, 'csv');
    expect(k.issues[0]).toMatchObject({ file: k.file, line: 1, field: 'notes' });
  });

  it('refuses a duplicate row, naming both lines', async () => {
    const t = await template('jsonl');
    const lines = t.text.trim().split('\n');
    lines.push(lines[1]);
    const { file, issues } = await refused('duplicate', lines.join('\n'));
    expect(issues[0]).toMatchObject({ file, line: lines.length });
    expect(issues[0].field).toMatch(/^stage\+/);
    expect(issues[0].message).toBe('duplicate row: line 2 answers the same slot');
  });

  it('refuses a file that changed after the experiment was created, before any call', async () => {
    const t = await template('jsonl');
    const file = join(dir, 'changed.jsonl');
    writeFileSync(file, t.text);
    const { id } = await core.call('experiments.create', {
      config: { name: 'changed', ...study, providers: { rec: { kind: 'recorded', file } } },
    });
    writeFileSync(file, t.text.replace('"answer":""', '"answer":"x"'));
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('failed');
    expect(final.message).toMatch(/changed since experiment "changed" was created/);
  });

  it('a slot without an answer fails as missing (never invented); a row no slot asks for is listed', async () => {
    const t = await template('jsonl');
    const rows = t.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    // Answer every rewrite (each its own text) and every judge call but one (a verdict on a longer
    // variant: a question no other slot asks); add a row for an item not in the study.
    const gap = rows.findIndex((r) => r.stage === 'judge' && r.condition === 'longer');
    const filled: Record<string, string>[] = rows.map((r, i) => ({
      ...r,
      answer:
        i === gap
          ? ''
          : r.stage === 'rewrite'
            ? `Rewritten response ${i}, with words enough to pass the audit.`
            : JSON.stringify({ winner: 'A', confidence: 0.9, reason: 'recorded' }),
    }));
    filled.push({ ...rows[gap], item_id: 'no-such-item', answer: '{"winner":"B"}' });
    const file = join(dir, 'partial.jsonl');
    writeFileSync(file, filled.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { id } = await core.call('experiments.create', {
      config: { name: 'partial', ...study, providers: { rec: { kind: 'recorded', file } } },
    });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    expect(final.failuresByReason).toEqual({ not_recorded: 1 });
    const out = join(dir, 'partial-export');
    await core.call('experiments.export', { experimentId: id, outDir: out });
    const [summary] = manifestOf(out).recorded!;
    expect(summary.missing).toEqual({ count: 1, first: [expect.stringContaining('stage=judge')] });
    expect(summary.unmatched).toEqual({
      count: 1,
      first: [{ line: filled.length, slot: expect.stringContaining('item_id=no-such-item') }],
    });
    const failures = await core.call('experiments.failures', { experimentId: id });
    expect(failures.rows).toHaveLength(1);
    expect(JSON.stringify(failures.rows[0])).toMatch(
      /no recorded answer in .*partial\.jsonl for stage=judge/,
    );
  });

  // Issue 40 item 7: bytes that are not UTF-8, a key given twice, and answers of another model.
  it('refuses a file that is not UTF-8 (a cp1252 CSV), naming file and line', async () => {
    const c = await template('csv');
    const lines = c.text.split('\r\n');
    // "café" as Windows-1252 writes it: E9 alone is no UTF-8.
    const bytes = Buffer.concat([
      Buffer.from(lines.slice(0, 3).join('\r\n') + '\r\n', 'utf8'),
      Buffer.from(lines[3].replace(/,$/, ',caf\u00e9'), 'latin1'),
      Buffer.from('\r\n' + lines.slice(4).join('\r\n'), 'utf8'),
    ]);
    const { file, issues, message } = await refused('cp1252', bytes as unknown as string, 'csv');
    expect(issues[0]).toMatchObject({ file, line: 4 });
    expect(message).toMatch(/not valid UTF-8|UTF-8/);
  });

  it('refuses a JSONL row that gives a key twice, naming file, line and field', async () => {
    const t = await template('jsonl');
    const lines = t.text.trim().split('\n');
    lines[1] = lines[1].replace(/\}$/, ',"answer":"{\\"winner\\":\\"B\\"}"}');
    const { file, issues } = await refused('duplicate-key', lines.join('\n'));
    expect(issues[0]).toMatchObject({ file, line: 2, field: 'answer' });
    expect(issues[0].message).toMatch(/twice/);
  });

  it('refuses a CSV that names a column twice', async () => {
    const c = await template('csv');
    const lines = c.text.split('\r\n');
    lines[0] = lines[0].replace(/,cached_tokens$/, ',answer');
    const { file, issues } = await refused('duplicate-column', lines.join('\r\n'), 'csv');
    expect(issues[0]).toMatchObject({ file, line: 1, field: 'answer' });
  });

  it('the manifest lists rows answered by another model than the plan names', async () => {
    const t = await template('jsonl');
    const rows = t.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    const judge = rows.findIndex((r) => r.stage === 'judge');
    const filled = rows.map((r, i) => ({
      ...r,
      model: i === judge ? 'another-model' : r.model,
      answer:
        r.stage === 'rewrite'
          ? `Rewritten response ${i}, with words enough to pass the audit.`
          : JSON.stringify({ winner: 'A', confidence: 0.9, reason: 'recorded' }),
    }));
    const file = join(dir, 'other-model.jsonl');
    writeFileSync(file, filled.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { id } = await core.call('experiments.create', {
      config: { name: 'other-model', ...study, providers: { rec: { kind: 'recorded', file } } },
    });
    await core.experiments.runToEnd(id);
    const out = join(dir, 'other-model-export');
    await core.call('experiments.export', { experimentId: id, outDir: out });
    const [summary] = manifestOf(out).recorded!;
    expect(summary.otherModel).toEqual({
      count: 1,
      first: [
        {
          line: judge + 1,
          slot: expect.stringContaining('stage=judge'),
          model: 'another-model',
          planned: 'judge-model',
        },
      ],
    });
  });

  // Issue 40 item 8: the file is meant for spreadsheets, so formula cells are defused, and read back exactly.
  it('export-answers CSV defuses formula cells and reads them back as written', async () => {
    const t = await template('jsonl');
    const rows = t.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    const evil = "=cmd|' /C calc'!A0";
    const filled = rows.map((r, i) => ({
      ...r,
      answer:
        r.stage === 'rewrite'
          ? i === 0
            ? evil
            : `Rewritten response ${i}, with words enough to pass the audit.`
          : JSON.stringify({ winner: 'A', confidence: 0.9, reason: 'recorded' }),
    }));
    const file = join(dir, 'formula.jsonl');
    writeFileSync(file, filled.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { id } = await core.call('experiments.create', {
      config: { name: 'formula', ...study, providers: { rec: { kind: 'recorded', file } } },
    });
    await core.experiments.runToEnd(id);
    const csv = await core.call('experiments.exportAnswers', { experimentId: id, format: 'csv' });
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    expect(csv.text).not.toMatch(/(^|,|\r\n)=cmd/);
    expect(csv.text).toContain(`'${evil}`);
    // Read back as a recorded file: the same answers as the JSONL it came from.
    const back = join(dir, 'formula-back.csv');
    writeFileSync(back, csv.text);
    const again = await core.call('experiments.create', {
      config: { name: 'formula-back', ...study, providers: { rec: { kind: 'recorded', file: back } } },
    });
    await core.experiments.runToEnd(again.id);
    const jsonl = await core.call('experiments.exportAnswers', { experimentId: again.id, format: 'jsonl' });
    const original = await core.call('experiments.exportAnswers', { experimentId: id, format: 'jsonl' });
    expect(jsonl.text).toBe(original.text);
    expect(jsonl.text).toContain(JSON.stringify(evil));
  });

  it('refuses a recorded provider mixed with a live one', async () => {
    const err = await core
      .call('experiments.create', {
        config: {
          name: 'mixed',
          ...study,
          judges: [{ label: 'Judge', provider: 'live', model: 'judge-model' }],
          providers: {
            rec: { kind: 'recorded', file: join(dir, 'x.jsonl') },
            live: { kind: 'openai', apiKeyEnv: 'MOCK_OPENAI_KEY' },
          },
        },
      })
      .then(
        () => null,
        (e: unknown) => e as AppError,
      );
    expect(err?.issues[0]).toMatchObject({ field: 'providers.live.kind' });
  });
});

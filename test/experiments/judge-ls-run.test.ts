import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { dropsNumbers, judgeLsResponder, type JudgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';
import { expectedFor } from './expected-metrics';
import { judgeLsRows } from '../../src/shared/protocols/judge-ls/views';

const JUDGES = [
  { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
  { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
];

let core: Core;
let mock: MockProvider;
let responder: JudgeLsResponder;
let items: Item[];
let metrics: JudgeLsMetrics;
let cleanup: () => void;
let dir: string;
let experimentId: number;
let exportDir: string;

function config(url: string) {
  return {
    name: 'llmbar-mock',
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    providers: {
      openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 32 },
      anthropic: { kind: 'anthropic', baseURL: url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 32 },
    },
    transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
    judges: JUDGES,
    tieProbes: true,
    maxParseRetries: 2,
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test-openai', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 100 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  items = (await Promise.all(
    (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
  responder = judgeLsResponder(items, { failRate: 0.005 });
  mock = await startMockProvider({
    respond: responder.respond,
    faultFor: responder.faultFor,
    wrapText: false,
  });
  const summary = await core.call('experiments.create', { config: config(mock.url) });
  experimentId = summary.id;
  const final = await core.experiments.runToEnd(experimentId);
  expect(final.message ?? '').toBe('');
  expect(final.status).toBe('finished');
  metrics = (await core.call('experiments.results', { experimentId })).metrics as JudgeLsMetrics;
  exportDir = join(dir, 'export');
  await core.call('experiments.export', { experimentId, outDir: exportDir });
}, 300_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

describe('Judge-LS end to end on the 419-item LLMBar against the mock provider', () => {
  it('sends exactly 838 transformation calls and 6,704 distinct judgment requests', () => {
    const kinds = mock.bodies.map((b) => b.schemaName);
    expect(kinds.filter((k) => k === 'language_variant')).toHaveLength(838);
    const judgeContents = new Set(
      mock.bodies
        .filter((b) => b.schemaName === 'pairwise_verdict')
        .map((b) => `${b.model}\u0000${b.lastUser}`),
    );
    expect(judgeContents.size).toBe(6704);
    // Only the sticky malformed answers were asked again (1 + 2 re-asks each).
    const judgeCalls = kinds.filter((k) => k === 'pairwise_verdict').length;
    expect(judgeCalls).toBe(6704 + 2 * responder.stickyFailures.size);
    expect(responder.stickyFailures.size).toBeGreaterThan(0);
  });

  it('stores 6,704 judgments: every failed one with its reason and raw answer', async () => {
    const all = judgeLsRows.judgments(
      await core.call('experiments.protocolView', { experimentId, view: 'judgments' }),
    );
    expect(all).toHaveLength(6704);
    const failed = all.filter((j) => j.status === 'failed');
    expect(failed).toHaveLength(responder.stickyFailures.size);
    for (const f of failed) {
      expect(f.failureReason).toMatch(/unparseable/);
      expect(f.rawText).toBeTruthy();
    }
  });

  it('computes quality, invariance and tie-probe figures that match the mock verdict log', () => {
    const verdicts = responder.uniqueVerdicts();
    for (const judge of JUDGES) {
      const exp = expectedFor(verdicts, items, judge.model);
      for (const lang of ['EN', 'ZH', 'LS'] as const) {
        const row = metrics.quality.find((q) => q.judge === judge.label && q.language === lang)!;
        const e = exp.quality[lang];
        expect(row.n).toBe(e.n);
        expect(row.accuracy_strict).toBeCloseTo(e.correct / e.n, 12);
        expect(row.tie_rate).toBeCloseTo(e.ties / e.n, 12);
        expect(row.position_a_rate).toBeCloseTo(e.aRaw / e.n, 12);
        expect(row.accuracy_tie_half).toBeCloseTo((e.correct + 0.5 * e.ties) / e.n, 12);
      }
      for (const comparison of ['EN-ZH', 'EN-LS'] as const) {
        const row = metrics.language_invariance.find(
          (r) => r.judge === judge.label && r.comparison === comparison,
        )!;
        const e = exp.invariance[comparison];
        expect(row).toMatchObject({
          n: e.n,
          both_correct: e.bothCorrect,
          en_only_correct: e.enOnly,
          target_only_correct: e.targetOnly,
          both_wrong: e.bothWrong,
        });
        expect(row.flip_rate).toBeCloseTo(e.flips / e.n, 12);
      }
      const probe = metrics.tie_probe.find((r) => r.judge === judge.label)!;
      expect(probe).toMatchObject({
        n: exp.probe.n,
        en_wins: exp.probe.en,
        zh_wins: exp.probe.zh,
        ties: exp.probe.ties,
      });
      const failures = metrics.failures
        .filter((f) => f.judge === judge.label)
        .reduce((n, f) => n + f.count, 0);
      const sticky = [...responder.stickyFailures].filter((k) => k.startsWith(`${judge.model}\u0000`)).length;
      expect(failures).toBe(sticky);
    }
  });

  it('flags exactly the items whose translation lost its numbers, and runs the sensitivity analysis without them', () => {
    const expected = items.filter(dropsNumbers).map((i) => i.sourceId);
    expect(expected.length).toBeGreaterThan(0);
    expect(metrics.audit.flagged.map((f) => f.item_id).sort()).toEqual([...expected].sort());
    expect(metrics.sensitivity.excluded_item_ids.sort()).toEqual([...expected].sort());
    const full = metrics.quality.find((q) => q.judge === 'GPT mock' && q.language === 'ZH')!;
    const sens = metrics.sensitivity.quality.find((q) => q.judge === 'GPT mock' && q.language === 'ZH')!;
    expect(sens.n).toBeLessThan(full.n);
  });

  it('reports usage and cost per judge and for the transformer', () => {
    const t = metrics.usage.find((u) => u.role === 'transformer')!;
    expect(t.calls).toBe(838);
    expect(t.cost_usd).toBeGreaterThan(0);
    for (const j of JUDGES) {
      const u = metrics.usage.find((r) => r.judge === j.label)!;
      expect(u.calls).toBe(3352);
      expect(u.input_tokens).toBeGreaterThan(0);
    }
  });

  it('writes the export folder of DESIGN.md section 8', () => {
    const m = JSON.parse(readFileSync(join(exportDir, 'metrics.json'), 'utf8'));
    expect(Object.keys(m)).toEqual([
      'quality',
      'language_invariance',
      'position',
      'tie_probe',
      'subset_quality',
      'subset_flip',
      'audit',
      'sensitivity',
      'usage',
      'failures',
      'statistics',
    ]);
    const csv = readFileSync(join(exportDir, 'judgments.csv'), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.trim().split(/\r?\n/)).toHaveLength(6705);
  });

  it('re-running the finished experiment sends nothing', async () => {
    const before = mock.log.length;
    const final = await core.experiments.runToEnd(experimentId);
    expect(final.status).toBe('finished');
    expect(mock.log.length).toBe(before);
  });
});

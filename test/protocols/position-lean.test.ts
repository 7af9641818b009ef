// A planted first-position lean (issue 32 item 1), end to end: the simulated provider's
// `-first<NN>` judge picks the answer shown first in both orders on a planted share of items and
// is otherwise order-blind (with symmetric per-ask noise); `-first0` is the same judge with the
// lean off. Judge-LS, bias probes, self-consistency and the report card must all flag the first
// and none the second at α = 0.05. Run in-process through the core on real SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { leanPlanted } from '../../src/main/providers/simulated/planted-lean';
import type { Item } from '../../src/shared/domain';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import type { SelfConsistencyMetrics } from '../../src/shared/protocols/self-consistency/types';
import { cardSpeaker } from '../../src/shared/report-card/phrases';
import type { ReportCard } from '../../src/shared/report-card/types';
import { tempDir } from '../helpers/tmp';

const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 600_000, concurrency: 32 } };
const ITEMS = 419;
const LEAN = 'sim-judge-strong-first5';
const FAIR = 'sim-judge-strong-first0';
const JUDGES = [
  { label: 'Lean', provider: 'sim', model: LEAN },
  { label: 'Fair', provider: 'sim', model: FAIR },
];
const ALPHA = 0.05;

let core: Core;
let cleanup: () => void;
let planted = 0;
const m: { judgeLs?: JudgeLsMetrics; bias?: BiasMetrics; sc?: SelfConsistencyMetrics } = {};
const cards: Record<string, ReportCard> = {};

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = (await core.call('items.list', { datasetId: dataset.id })).slice(0, ITEMS);
  const items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  // The planted items of the English texts, counted from the data as the provider picks them.
  planted = items.filter((i) => leanPlanted(LEAN, i.output1!, i.output2!)).length;
  const run = async (config: Record<string, unknown>) => {
    const { id } = await core.call('experiments.create', {
      config: { providers: SIM, dataset: 'LLMBar (sample)', limit: ITEMS, judges: JUDGES, ...config },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    return (await core.call('experiments.results', { experimentId: id })).metrics;
  };
  m.judgeLs = (await run({
    name: 'lean-judge-ls',
    protocol: 'judge-ls',
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
    tieProbes: false,
  })) as JudgeLsMetrics;
  m.bias = (await run({
    name: 'lean-bias',
    protocol: 'bias-probes',
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    mode: 'pairwise',
    probes: ['position'],
  })) as BiasMetrics;
  m.sc = (await run({
    name: 'lean-sc',
    protocol: 'self-consistency',
    repeats: 3,
    orders: 'both',
  })) as SelfConsistencyMetrics;
  for (const model of [LEAN, FAIR])
    cards[model] = await core.call('judges.reportCard', { model: `simulated:${model}` });
}, 600_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('a planted first-position lean', () => {
  it('is planted on a known share of items', () => {
    // 5% of 419 asked, 17 drawn: the provider's pick is a seeded draw per item (sha256 of the model
    // and the two answers), counted here from the texts.
    expect(planted).toBe(17);
  });

  it('Judge-LS: the position table flags the lean judge in English and only it', () => {
    const rows = m.judgeLs!.position;
    const lean = rows.find((r) => r.judge === 'Lean' && r.language === 'EN')!;
    // Every planted item is both-first (barring a failed verdict); the noise adds a few either way.
    expect(lean.both_first).toBeGreaterThanOrEqual(planted - 2);
    expect(lean.both_first).toBeGreaterThan(lean.both_second);
    expect(lean.lean).toBe('first');
    expect(lean.lean_p_holm).toBeLessThan(ALPHA);
    expect(lean.first_rate_ci![0]).toBeGreaterThan(0.5);
    // The judge is consistent enough for the old gate: the lean is what gives it away.
    expect(1 - lean.inconsistency_rate).toBeGreaterThanOrEqual(0.9);
    for (const r of rows.filter((x) => x.judge === 'Fair')) {
      expect(r.lean_p_holm, `Fair ${r.language}`).toBeGreaterThanOrEqual(ALPHA);
      expect(r.lean_p, `Fair ${r.language}`).toBeGreaterThanOrEqual(ALPHA);
      expect(r.first_rate_ci![0]).toBeLessThanOrEqual(0.5);
      expect(r.first_rate_ci![1]).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('bias probes: the position row flags the lean judge and only it', () => {
    const all = (judge: string) => m.bias!.position.find((r) => r.judge === judge && r.category === 'all')!;
    const lean = all('Lean');
    expect(lean.both_first).toBeGreaterThanOrEqual(planted - 2);
    expect(lean.lean).toBe('first');
    expect(lean.p_holm!).toBeLessThan(ALPHA);
    // The unpaired binomial on the verdicts (what the row reported before) sees nothing.
    expect(lean.position_a_rate_ci[0]).toBeLessThan(0.5);
    const fair = all('Fair');
    expect(fair.lean_p).toBeGreaterThanOrEqual(ALPHA);
    expect(fair.p_holm!).toBeGreaterThanOrEqual(ALPHA);
  });

  it('self-consistency: position by k flags the lean judge at every k, and not the fair one', () => {
    const rows = m.sc!.position_by_k;
    const lean = rows.filter((r) => r.judge === 'Lean');
    expect(lean.map((r) => r.k)).toEqual([1, 3]);
    for (const r of lean) {
      expect(r.both_first, `k = ${r.k}`).toBeGreaterThanOrEqual(planted - 2);
      expect(r.lean).toBe('first');
      expect(r.lean_p_holm, `k = ${r.k}`).toBeLessThan(ALPHA);
    }
    for (const r of rows.filter((x) => x.judge === 'Fair'))
      expect(r.lean_p_holm, `Fair k = ${r.k}`).toBeGreaterThanOrEqual(ALPHA);
  });

  it('the report card fails the lean judge on position, by the paired test, and not the fair one', () => {
    const gate = (model: string) =>
      cards[model].gates.find((g) => g.definition.id === 'position_consistency')!;
    const lean = gate(LEAN);
    expect(lean.status).toBe('fail');
    // Each study's measurement of it fails for the lean, though its consistency clears 90%.
    const leanFails = lean.checks.filter((c) => c.reason?.key === 'position_lean');
    expect(new Set(leanFails.map((c) => c.experimentName))).toEqual(
      new Set(['lean-judge-ls', 'lean-bias', 'lean-sc']),
    );
    for (const c of leanFails) {
      expect(c.value!).toBeGreaterThanOrEqual(0.9);
      expect(c.reason!.params).toMatchObject({ position: 'first' });
    }
    // The reason in both languages, as the page and every export say it.
    const judgeLs = leanFails.find((c) => c.experimentName === 'lean-judge-ls')!;
    const { both_first, both_second } = m.judgeLs!.position.find(
      (r) => r.judge === 'Lean' && r.language === 'EN',
    )!;
    expect(cardSpeaker('en').phrase(judgeLs.reason!, 'judge-ls')).toMatch(
      new RegExp(
        `^leans to the first position: ${both_first} items first in both orders, ${both_second} second in both \\(paired exact test, Holm p = `,
      ),
    );
    const zh = cardSpeaker('zh').phrase(judgeLs.reason!, 'judge-ls');
    expect(zh).toMatch(new RegExp(`^偏向第一位置：${both_first} 个条目在两种顺序下都选第一位`));
    expect(zh.match(/[A-Za-z]{3,}/g)).toBeNull();
    const fair = gate(FAIR);
    expect(fair.status).not.toBe('fail');
    expect(fair.checks.some((c) => c.reason?.key === 'position_lean')).toBe(false);
  });
});

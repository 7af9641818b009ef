// The rubric-wording probe (src/shared/protocols/bias-probes/probes/rubric.ts) end to end against
// the mock provider in both wire formats: the rewriter paraphrases the judging instructions K times
// per experiment (not per item), each unit is judged under one paraphrase round-robin on the item,
// and the planted effect (the mock moves a set share of the verdicts under each paraphrase, none
// under the last) is measured back from the mock's log — mean, interval, Wilcoxon, flip rate and
// the per-paraphrase rates — while a judge whose paraphrased verdicts only move at random is not
// flagged. Also: the paraphrases' cost in the estimate and the simulated rewriter's paraphrases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { DEFAULT_RUBRIC, PAIRWISE_INSTRUCTIONS } from '../../../src/main/protocols/bias-probes/prompts';
import { rubricProbe } from '../../../src/shared/protocols/bias-probes/probes/rubric';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { clusteredPairedEffect, wilcoxonSignedRank } from '../../../src/shared/stats';
import { checkFamilies } from '../../../src/shared/report/families';
import { tempDir } from '../../helpers/tmp';
import { biasResponder, type PairRecord } from '../../mock-provider/bias-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/llmbar.jsonl');
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);
const LIMIT = 20;
/** The planted share of verdicts each paraphrase moves (the third none: one paraphrase drives less). */
const PLANTED = [0.7, 0.35, 0];
/** The null judge: any verdict moves with this probability (a point up or down, or to the other response). */
const NULL_NOISE = 0.3;

function unit(...parts: string[]): number {
  let h = 2166136261;
  for (const c of parts.join('\u0000')) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h / 2 ** 32;
}

/** The mock's paraphrase: the instructions with a marker it finds again in the judge's system prompt. */
const paraphraseOf = (text: string, k: number) =>
  `${text.replace('Judge how well', 'Assess how well')} (Wording ${k + 1}.)`;
const MARK = /\(Wording (\d)\.\)/;

interface Logged {
  model: string;
  /** null: the original instructions. */
  paraphrase: number | null;
  key: string;
  instruction: string;
  score?: number;
  winner?: 'A' | 'B';
  worse?: 'A' | 'B';
}

function rubricResponder() {
  const base = biasResponder(all);
  const log: Logged[] = [];
  const paraphraseAsks: string[] = [];
  const respond = (req: MockRequest): unknown => {
    const text = req.lastUser;
    if (text.includes('<judging_instructions>')) {
      paraphraseAsks.push(text);
      const k = Number(/<paraphrase>(\d+) of/.exec(text)![1]) - 1;
      const policy = /<judging_instructions>\n?([\s\S]*?)\n?<\/judging_instructions>/.exec(text)![1];
      return paraphraseOf(policy, k);
    }
    const answer = base.respond(req) as { score?: number; winner?: 'A' | 'B' };
    if (req.schemaName !== 'score_verdict' && req.schemaName !== 'pairwise_verdict') return answer;
    const at = MARK.exec(req.system ?? '');
    const paraphrase = at ? Number(at[1]) - 1 : null;
    const instruction = /<instruction>\n?([\s\S]*?)\n?<\/instruction>/.exec(text)?.[1] ?? '';
    let worse: 'A' | 'B' | undefined;
    if (answer.winner !== undefined) {
      const v = base.verdicts[base.verdicts.length - 1];
      const better = `output_${all.find((i) => i.id === v.itemId)!.label}`;
      worse = v.a.slot === better ? 'B' : 'A';
    }
    if (req.model.endsWith('-null')) {
      // The null: every ask, under the original instructions or a paraphrase, moves alike (an
      // independent draw per request), so the two conditions are exchangeable.
      const wording = String(paraphrase);
      if (unit('rubric', req.model, wording, text) < NULL_NOISE) {
        if (answer.score !== undefined)
          answer.score += unit('sign', req.model, wording, text) < 0.5 && answer.score < 5 ? 1 : -1;
        if (answer.winner !== undefined) answer.winner = answer.winner === 'A' ? 'B' : 'A';
      }
    } else if (paraphrase !== null && unit('rubric', req.model, text) < PLANTED[paraphrase]) {
      if (answer.score !== undefined && answer.score < 5) answer.score += 1;
      if (answer.winner !== undefined) answer.winner = worse!;
    }
    log.push({ model: req.model, paraphrase, key: text, instruction, ...answer, worse });
    return answer;
  };
  return { respond, log, paraphraseAsks };
}

let core: Core;
let mock: MockProvider;
let cleanup: () => void;
const responder = rubricResponder();

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ latencyMs: [0, 0], respond: responder.respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

const JUDGES = [
  { label: 'OpenAI judge', provider: 'openai', model: 'rubric-judge' },
  { label: 'Anthropic judge', provider: 'anthropic', model: 'rubric-judge-2' },
  { label: 'Null judge', provider: 'anthropic', model: 'rubric-judge-null' },
];

function mockConfig(name: string, extra: Record<string, unknown>) {
  return {
    name,
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: LIMIT,
    providers: {
      openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
      anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 8 },
    },
    judges: JUDGES,
    rewriter: { provider: 'openai', model: 'rubric-rewriter' },
    probes: ['rubric'],
    ...extra,
  };
}

async function run(config: Record<string, unknown>): Promise<{ id: number; metrics: BiasMetrics }> {
  const { id } = await core.call('experiments.create', { config });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  const results = await core.call('experiments.results', { experimentId: id });
  expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
  return { id, metrics: results.metrics as BiasMetrics };
}

/** Per judge model and mode: the paraphrased verdicts paired with the original ones from the log. */
function pairsFromLog(model: string, pairwise: boolean) {
  const log = responder.log.filter((l) => l.model === model && (l.winner !== undefined) === pairwise);
  const original = new Map<string, Logged>();
  for (const l of log) if (l.paraphrase === null && !original.has(l.key)) original.set(l.key, l);
  return log.flatMap((l) => (l.paraphrase === null ? [] : [{ under: l, base: original.get(l.key)! }]));
}

describe('the rubric-wording probe (paraphrased judging instructions)', () => {
  let pointwise: BiasMetrics;
  let pointwiseId: number;

  it('paraphrases the instructions K times once per experiment and judges each item under one', async () => {
    const asked = responder.paraphraseAsks.length;
    ({ metrics: pointwise, id: pointwiseId } = await run(
      mockConfig('rubric-pointwise', { mode: 'pointwise', noiseFloor: true }),
    ));
    // Three paraphrases of the rubric for the whole experiment, not one per item.
    expect(responder.paraphraseAsks.length - asked).toBe(3);
    expect(responder.paraphraseAsks.every((t) => t.includes(DEFAULT_RUBRIC))).toBe(true);
    const block = pointwise.instruction_paraphrases!;
    expect(block).toHaveLength(1);
    expect(block[0].original).toBe(DEFAULT_RUBRIC);
    expect(block[0].paraphrases.map((p) => [p.paraphrase, p.text, p.reasons])).toEqual(
      [0, 1, 2].map((k) => [k, paraphraseOf(DEFAULT_RUBRIC, k), []]),
    );
    // Round-robin on the item: 20 items over 3 paraphrases, two responses each (7, 7, 6 items).
    const rows = block[0].rows.filter((r) => r.judge === 'OpenAI judge');
    expect(rows.map((r) => r.n)).toEqual([14, 14, 12]);
    // One extra judge call per unit: every response once under a paraphrase.
    const under = responder.log.filter((l) => l.model === 'rubric-judge' && l.paraphrase !== null);
    expect(under).toHaveLength(2 * LIMIT);
  }, 120_000);

  it('recovers the planted score change from the mock log (mean, CI, Wilcoxon), per paraphrase too', () => {
    for (const judge of JUDGES) {
      const row = pointwise.probes.find((r) => r.category === 'all' && r.judge === judge.label)!;
      expect(row.effect).toBe('rubric');
      const pairs = pairsFromLog(judge.model, false);
      const diffs = pairs.map((p) => p.under.score! - p.base.score!);
      const items = pairs.map((p) => p.under.instruction);
      expect(row.n).toBe(2 * LIMIT);
      expect(diffs).toHaveLength(row.n);
      const e = clusteredPairedEffect(diffs, items, [-4, 4]);
      expect(row.mean).toBeCloseTo(e.mean, 12);
      expect(row.mean_ci).toEqual(e.ci);
      const byItem = new Map<string, number[]>();
      items.forEach((it, k) => byItem.set(it, [...(byItem.get(it) ?? []), diffs[k]]));
      const w = wilcoxonSignedRank(
        [...byItem.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length),
      )!;
      expect(row.p).toBe(w.p);
      const per = pointwise.instruction_paraphrases![0].rows.filter((r) => r.judge === judge.label);
      for (const r of per) {
        const of = pairs.filter((p) => p.under.paraphrase === r.paraphrase);
        expect(r.n).toBe(of.length);
        expect(r.changed).toBe(of.filter((p) => p.under.score !== p.base.score).length);
        expect(r.mean).toBeCloseTo(
          of.reduce((s, p) => s + p.under.score! - p.base.score!, 0) / of.length,
          12,
        );
      }
      if (judge.model.endsWith('-null')) {
        expect(row.significant).toBe(false);
        continue;
      }
      // Planted: +1 on 70%, 35% and 0% of the responses under paraphrases 1, 2 and 3.
      expect(row.significant).toBe(true);
      expect(row.mean).toBeGreaterThan(0.2);
      expect(per[2].changed).toBe(0);
      expect(per[0].changed_rate!).toBeGreaterThan(per[1].changed_rate!);
    }
  });

  it('reads the effect against the original asked again (the placebo)', () => {
    const nf = pointwise.noise_floor!;
    expect([...new Set(nf.placebo.map((p) => p.repeated))]).toEqual(['original']);
    const excess = nf.excess.find((x) => x.judge === 'OpenAI judge' && x.effect === 'rubric')!;
    expect(excess.repeated).toBe('original');
  });

  it('says in the Methods what it perturbs and which paper it follows, in both languages', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const methods = await core.call('experiments.methods', { experimentId: pointwiseId, lang });
      expect(methods.markdown).toContain(rubricProbe.texts.methods![lang]);
      expect(methods.markdown).toContain('arXiv 2605.06161');
    }
  });

  it('runs pairwise: verdicts under the paraphrased instructions turn to the worse response (flip rate)', async () => {
    const asked = responder.paraphraseAsks.length;
    const { metrics, id } = await run(mockConfig('rubric-pairwise', { mode: 'pairwise', paraphrases: 2 }));
    const asks = responder.paraphraseAsks.slice(asked);
    expect(asks).toHaveLength(2);
    expect(asks.every((t) => t.includes(PAIRWISE_INSTRUCTIONS))).toBe(true);
    for (const judge of JUDGES) {
      const row = metrics.probes.find((r) => r.category === 'all' && r.judge === judge.label)!;
      const pairs = pairsFromLog(judge.model, true).filter((p) => p.under.paraphrase! < 2);
      const win = (l: Logged) => (l.winner === l.worse ? 1 : 0);
      expect(row.n).toBe(2 * LIMIT);
      expect(row.mean).toBeCloseTo(
        pairs.reduce((s, p) => s + win(p.under) - win(p.base), 0) / pairs.length,
        12,
      );
      const flippable = pairs.filter((p) => p.base.winner !== p.base.worse);
      expect(row.flip_n).toBe(flippable.length);
      expect(row.flip_rate).toBeCloseTo(
        flippable.filter((p) => win(p.under) === 1).length / flippable.length,
        12,
      );
      const per = metrics.instruction_paraphrases![0].rows.filter((r) => r.judge === judge.label);
      expect(per.map((r) => r.paraphrase)).toEqual([0, 1]);
      expect(per.reduce((s, r) => s + r.flip_n!, 0)).toBe(flippable.length);
      if (judge.model.endsWith('-null')) expect(row.significant).toBe(false);
      else {
        expect(row.significant).toBe(true);
        expect(row.flip_rate!).toBeGreaterThan(0.3);
      }
    }
    // The per-paraphrase table, in English (the export) and 中文 (the page), one family-free row per judge × paraphrase.
    const results = await core.call('experiments.results', { experimentId: id });
    const table = results.tables.find((t) => t.id === 'instruction_paraphrases')!;
    expect(table.rows.map((r) => [r.judge, r.paraphrase])).toEqual(
      JUDGES.flatMap((j) => [1, 2].map((p) => [j.label, p])),
    );
    expect(checkFamilies(results.tables)).toEqual([]);
  }, 120_000);

  it('prices the paraphrases in the estimate (the rewriter) and one extra judge call per unit', async () => {
    const estimate = await core.call('experiments.estimate', {
      config: mockConfig('rubric-plan', { mode: 'pointwise', limit: 10 }),
    });
    const rewriter = estimate.rows.filter((r) => r.role === 'rewriter');
    expect(rewriter.map((r) => [r.kind, r.calls])).toEqual([['rubric_paraphrase', 3]]);
    const judge = estimate.rows.filter((r) => r.label === 'OpenAI judge');
    expect(judge.find((r) => r.kind === 'rubric_paraphrase')!.calls).toBe(20);
    expect(judge.find((r) => r.kind === 'original')!.calls).toBe(20);
  });

  it('is not in the default battery: a config without probes runs position, length and format', async () => {
    const estimate = await core.call('experiments.estimate', {
      config: { ...mockConfig('rubric-default', { mode: 'pointwise', limit: 2 }), probes: undefined },
    });
    expect(estimate.rows.some((r) => r.kind === 'rubric_paraphrase')).toBe(false);
  });

  it('runs keyless on the simulated provider, whose rewriter writes plausible paraphrases', async () => {
    const { metrics } = await run({
      name: 'rubric-simulated',
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      limit: 6,
      providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
      judges: [
        { label: 'Simulated judge', provider: 'sim', model: 'sim-judge' },
        // The knob moves 80 % of the paraphrased calls one point up (the probe's `detect`).
        { label: 'Planted judge', provider: 'sim', model: 'sim-judge-bias-rubric80' },
      ],
      rewriter: { provider: 'sim', model: 'sim-rewriter' },
      mode: 'pointwise',
      probes: ['rubric'],
    });
    const block = metrics.instruction_paraphrases![0];
    const texts = block.paraphrases.map((p) => p.text!);
    // Three different wordings, none the original, each passing the audit's length band.
    expect(new Set(texts).size).toBe(3);
    expect(texts).not.toContain(DEFAULT_RUBRIC);
    expect(block.paraphrases.every((p) => p.reasons.length === 0)).toBe(true);
    const rows = metrics.probes.filter((r) => r.category === 'all');
    expect(rows.map((r) => [r.judge, r.effect, r.n])).toEqual([
      ['Simulated judge', 'rubric', 12],
      ['Planted judge', 'rubric', 12],
    ]);
    // The planted judge's paraphrased scores rise (a point on most units, below the scale's top);
    // the plain judge reads the paraphrase as the original.
    const [plain, planted] = rows;
    expect(plain.mean).toBe(0);
    expect(planted.mean!).toBeGreaterThan(0.4);
  }, 120_000);
});

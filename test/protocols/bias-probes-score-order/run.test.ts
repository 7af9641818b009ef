// The score-option-order probe (src/shared/protocols/bias-probes/probes/score-order.ts) end to end
// against the mock provider in both wire formats: the scale's options listed high to low vs low
// to high in the judge's instructions (the user message and the answer format unchanged, so the
// parser reads every score), the planted effect (the mock scores a point higher on a set share of
// responses when the list starts at the top) measured back from the mock's log — mean, interval,
// Wilcoxon — against its placebo (the ascending list asked again), and a judge whose scores move
// alike in both orders not flagged.
import type { PromptContext } from '../../../src/shared/protocols/bias-probes/probe-types';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { scoreOrderProbe, scoreOptions } from '../../../src/shared/protocols/bias-probes/probes/score-order';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { clusteredPairedEffect, holmAdjust, wilcoxonSignedRank } from '../../../src/shared/stats';
import { tempDir } from '../../helpers/tmp';
import { biasResponder, type PairRecord } from '../../mock-provider/bias-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/llmbar.jsonl');
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);
const LIMIT = 20;
/** The planted share of responses scored a point higher when the options are listed high to low. */
const PLANTED = 0.5;
const NULL_NOISE = 0.3;

function unit(...parts: string[]): number {
  let h = 2166136261;
  for (const c of parts.join('\u0000')) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h / 2 ** 32;
}

interface Logged {
  model: string;
  order: 'ascending' | 'descending';
  key: string;
  instruction: string;
  score: number;
  system: string;
}

function orderResponder() {
  const base = biasResponder(all);
  const log: Logged[] = [];
  const respond = (req: MockRequest): unknown => {
    const answer = base.respond(req) as { score?: number };
    const system = req.system ?? '';
    const order = system.includes(scoreOptions(5, true))
      ? 'descending'
      : system.includes(scoreOptions(5, false))
        ? 'ascending'
        : null;
    if (answer.score === undefined || order === null) return answer;
    const text = req.lastUser;
    if (req.model.endsWith('-null')) {
      // Both orders move alike (an independent draw per request): a true null.
      if (unit('order', req.model, order, text) < NULL_NOISE)
        answer.score += unit('sign', req.model, order, text) < 0.5 && answer.score < 5 ? 1 : -1;
    } else if (order === 'descending' && answer.score < 5 && unit('order', req.model, text) < PLANTED)
      answer.score += 1;
    const instruction = /<instruction>\n?([\s\S]*?)\n?<\/instruction>/.exec(text)?.[1] ?? '';
    log.push({ model: req.model, order, key: text, instruction, score: answer.score, system });
    return answer;
  };
  return { respond, log };
}

let core: Core;
let mock: MockProvider;
let cleanup: () => void;
const responder = orderResponder();

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
  { label: 'OpenAI judge', provider: 'openai', model: 'order-judge' },
  { label: 'Anthropic judge', provider: 'anthropic', model: 'order-judge-2' },
  { label: 'Null judge', provider: 'openai', model: 'order-judge-null' },
];

describe('the score-option-order probe (the scale listed high to low vs low to high)', () => {
  let metrics: BiasMetrics;

  it('runs pointwise with both lists and no rewriter; every score is read', async () => {
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'score-order',
        protocol: 'bias-probes',
        dataset: 'LLMBar (sample)',
        limit: LIMIT,
        providers: {
          openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
          anthropic: {
            kind: 'anthropic',
            baseURL: mock.url,
            apiKeyEnv: 'MOCK_ANTHROPIC_KEY',
            concurrency: 8,
          },
        },
        judges: JUDGES,
        mode: 'pointwise',
        probes: ['score_order'],
        noiseFloor: true,
      },
    });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
    metrics = results.metrics as BiasMetrics;
    // The two conditions differ in the order of the options only.
    const one = responder.log.find((l) => l.order === 'ascending')!;
    const other = responder.log.find(
      (l) => l.order === 'descending' && l.key === one.key && l.model === one.model,
    )!;
    expect(other.system.replace(scoreOptions(5, true), scoreOptions(5, false))).toBe(one.system);
  }, 120_000);

  it('recovers the planted change, descending − ascending, from the mock log (mean, CI, Wilcoxon, Holm)', () => {
    for (const judge of JUDGES) {
      const rows = metrics.probes.filter((r) => r.category === 'all' && r.judge === judge.label);
      expect(rows.map((r) => r.effect)).toEqual(['score_order']);
      const row = rows[0];
      const log = responder.log.filter((l) => l.model === judge.model);
      const ascending = new Map<string, Logged>();
      for (const l of log) if (l.order === 'ascending' && !ascending.has(l.key)) ascending.set(l.key, l);
      const pairs = log
        .filter((l) => l.order === 'descending')
        .map((d) => [d, ascending.get(d.key)!] as const);
      const diffs = pairs.map(([d, a]) => d.score - a.score);
      const items = pairs.map(([d]) => d.instruction);
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
      expect(row.p_holm).toBe(holmAdjust([row.p])[0]);
      if (judge.model.endsWith('-null')) expect(row.significant).toBe(false);
      else {
        expect(row.significant).toBe(true);
        expect(row.mean).toBeGreaterThan(0.3);
        expect(row.mean).toBeLessThan(0.7);
      }
    }
  });

  it('reads the effect against the ascending list asked again', () => {
    const nf = metrics.noise_floor!;
    expect([...new Set(nf.placebo.map((p) => p.repeated))]).toEqual(['original', 'score_ascending']);
    const placebo = nf.placebo.find((p) => p.judge === 'OpenAI judge' && p.repeated === 'score_ascending')!;
    expect(placebo).toMatchObject({ n: 2 * LIMIT, changed: 0 });
    const excess = nf.excess.find((x) => x.judge === 'OpenAI judge' && x.effect === 'score_order')!;
    expect(excess.repeated).toBe('score_ascending');
  });

  it('is refused in pairwise mode, where it measures nothing', async () => {
    await expect(
      core.call('experiments.estimate', {
        config: {
          name: 'score-order-pairwise',
          protocol: 'bias-probes',
          dataset: 'LLMBar (sample)',
          limit: 2,
          providers: { openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
          judges: [JUDGES[0]],
          mode: 'pairwise',
          probes: ['position', 'score_order'],
        },
      }),
    ).rejects.toThrow(/the score_order probe measures nothing in pairwise mode/);
  });

  it('plants keyless: the simulated -bias-score_order judge scores descending lists higher, the plain one not', async () => {
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'score-order-simulated',
        protocol: 'bias-probes',
        dataset: 'LLMBar (sample)',
        limit: 6,
        providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
        judges: [
          { label: 'Plain judge', provider: 'sim', model: 'sim-judge' },
          // The probe's `detect` names the descending calls; the knob moves 80 % of them a point up.
          { label: 'Planted judge', provider: 'sim', model: 'sim-judge-bias-score_order80' },
        ],
        mode: 'pointwise',
        probes: ['score_order'],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const metrics = (await core.call('experiments.results', { experimentId: id })).metrics as BiasMetrics;
    const rows = metrics.probes.filter((r) => r.category === 'all' && r.effect === 'score_order');
    expect(rows.map((r) => [r.judge, r.n])).toEqual([
      ['Plain judge', 12],
      ['Planted judge', 12],
    ]);
    expect(rows[0].mean).toBe(0);
    expect(rows[1].mean!).toBeGreaterThan(0.4);
  }, 120_000);

  it('reverses a rubric’s criteria with the options; the built-in one-sentence rubric has one', () => {
    const [ascending, descending] = scoreOrderProbe.conditions.map((c) => c.prompt!);
    // The scale is all this prompt change reads; the rest of the call's context is a stand-in.
    const ctx = {
      mode: 'pointwise' as const,
      worse: null,
      scale: 10,
      opts: {} as PromptContext['opts'],
      item: { sourceId: 'x', instruction: 'q', category: null },
      judge: { label: 'j', model: 'm' },
      models: { response: null },
    };
    const system = 'Rubric:\n- accuracy\n- clarity\n- brevity\n\nAnswer with JSON.';
    expect(descending({ system, user: 'u' }, ctx).system).toBe(
      `Rubric:\n- brevity\n- clarity\n- accuracy\n\nAnswer with JSON.\n\n${scoreOptions(10, true)}`,
    );
    expect(ascending({ system, user: 'u' }, ctx).system).toBe(`${system}\n\n${scoreOptions(10, false)}`);
    expect(scoreOptions(10, true)).toBe(
      'Score options, in this order: 10 (excellent), 9, 8, 7, 6, 5, 4, 3, 2, 1 (very poor).',
    );
  });
});

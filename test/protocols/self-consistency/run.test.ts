// Self-consistency end to end through the core against the mock provider, in both wire formats
// (OpenAI chat through the openai SDK, Anthropic messages through @anthropic-ai/sdk), with PLANTED
// repeat-flip probabilities per judge: every metric equals the value recomputed here from the
// mock's own log (each stored repeat tied to the answer the mock gave by the nonce in its reason),
// and each judge's planted probability is recovered within 3.5 standard errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
import type { RepeatMeta } from '../../../src/main/protocols/self-consistency/plan';
import { listResults } from '../../../src/main/store/results';
import { icc1 } from '../../../src/shared/protocols/self-consistency/stats';
import type { SelfConsistencyMetrics } from '../../../src/shared/protocols/self-consistency/types';
import { readRepeatsView } from '../../../src/shared/protocols/self-consistency/views';
import { fleissKappa } from '../../../src/shared/stats';
import { tempDir } from '../../helpers/tmp';
import { repeatsResponder, type LoggedRepeat, type RepeatItem } from '../../mock-provider/repeats-responder';
import { startMockProvider, type MockProvider } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/llmbar.jsonl');
const pairs: RepeatItem[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as RepeatItem);
const LIMIT = 60;
const K = 5;
const FLIP = { 'gpt-mock-judge': 0.1, 'claude-mock-judge': 0.3, 'score-mock-judge': 0.2 };
const POISONED = pairs[2].id;
const points: RepeatItem[] = Array.from({ length: 40 }, (_, i) => ({
  id: `pt-${i + 1}`,
  instruction: `Explain idea number ${i + 1} in one paragraph.`,
  response: `Idea ${i + 1} is explained here in a paragraph of plain words, number ${i * 7}.`,
  human_score: 1 + (i % 5),
}));
const responder = repeatsResponder([...pairs, ...points], FLIP, {
  poison: { 'claude-mock-judge': POISONED },
});

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const file = join(dir, 'points.jsonl');
  writeFileSync(file, points.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await core.call('datasets.import', {
    fileName: 'points.jsonl',
    contentBase64: readFileSync(file).toString('base64'),
    name: 'points',
  });
  mock = await startMockProvider({ latencyMs: [0, 1], respond: responder.respond, logBodies: false });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

const providers = () => ({
  openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 16 },
  anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 16 },
});

function pairConfig(name = 'sc-pairs') {
  return {
    name,
    protocol: 'self-consistency',
    dataset: 'LLMBar (sample)',
    limit: LIMIT,
    maxParseRetries: 1,
    providers: providers(),
    judges: [
      { label: 'GPT judge', provider: 'openai', model: 'gpt-mock-judge', temperature: 1 },
      { label: 'Claude judge', provider: 'anthropic', model: 'claude-mock-judge', temperature: 1 },
    ],
    repeats: K,
    orders: 'both',
  };
}

type Verdict = 1 | 2 | 'tie' | number;
const counts = <T>(xs: T[]) => {
  const m = new Map<T, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};
const plural = (xs: Verdict[]) => {
  const c = [...counts(xs)].sort((a, b) => b[1] - a[1]);
  return c.length > 1 && c[0][1] === c[1][1] ? null : c[0][0];
};
const disagreement = (xs: Verdict[]) => {
  const m = xs.length;
  return 1 - [...counts(xs).values()].reduce((s, c) => s + c * (c - 1), 0) / (m * (m - 1));
};

/** The questions of one experiment as the mock's log says they were answered, by stored sample. */
function fromLog(experimentId: number) {
  const questions = new Map<
    string,
    { meta: RepeatMeta; verdicts: (Verdict | undefined)[]; failed: number }
  >();
  for (const r of listResults(core.db, experimentId)) {
    const m = r.meta as RepeatMeta;
    const k = [m.judge, m.condition, m.sourceId, m.order].join('|');
    const q = questions.get(k) ?? { meta: m, verdicts: Array.from({ length: K }), failed: 0 };
    questions.set(k, q);
    if (r.status !== 'ok') {
      q.failed++;
      continue;
    }
    const logged: LoggedRepeat | undefined = responder.byNonce((r.value as { reason: string }).reason);
    expect(logged, `stored answer of ${k} sample ${m.sample} is in the mock's log`).toBeDefined();
    expect(logged!.itemId).toBe(m.sourceId);
    if (m.mode === 'pairwise') {
      expect(logged!.order).toBe(m.order);
      // The normalized choice, from what the mock said and which output it showed first.
      q.verdicts[m.sample] = (logged!.winner === 'A') === (m.order === 'orig') ? 1 : 2;
    } else q.verdicts[m.sample] = logged!.score!;
  }
  return [...questions.values()];
}

describe('self-consistency against the mock provider (planted repeat flips, both wire formats)', () => {
  let pairId = 0;

  it('estimates first asks and repeats apart, then asks each question K times', async () => {
    const estimate = await core.call('experiments.estimate', { config: pairConfig() });
    const questions = LIMIT * 2 * 2;
    expect(estimate.calls).toBe(questions * K);
    const kinds = Object.fromEntries(
      ['first-ask', 'repeat'].map((kind) => [kind, estimate.rows.filter((r) => r.kind === kind)]),
    );
    expect(kinds['first-ask'].reduce((s, r) => s + r.calls, 0)).toBe(questions);
    expect(kinds.repeat.reduce((s, r) => s + r.calls, 0)).toBe(questions * (K - 1));

    ({ id: pairId } = await core.call('experiments.create', { config: pairConfig() }));
    const final = await core.experiments.runToEnd(pairId);
    expect(final.status).toBe('finished');
    // Every stored answer came from its own call: K per question (and the poisoned re-asks).
    const results = listResults(core.db, pairId);
    expect(results).toHaveLength(questions * K);
    expect(new Set(results.map((r) => r.requestId)).size).toBe(questions * K);
  }, 300_000);

  it('every metric equals the value recomputed from the mock log, and the planted flips are recovered', async () => {
    const m = (await core.call('experiments.results', { experimentId: pairId }))
      .metrics as SelfConsistencyMetrics;
    const qs = fromLog(pairId);
    expect(m.mode).toBe('pairwise');
    for (const [judge, model] of [
      ['GPT judge', 'gpt-mock-judge'],
      ['Claude judge', 'claude-mock-judge'],
    ] as const) {
      const mine = qs.filter((q) => q.meta.judge === judge);
      const valid = (q: (typeof mine)[number]) => q.verdicts.filter((v): v is Verdict => v !== undefined);
      const rated = mine.filter((q) => valid(q).length >= 2);
      const full = mine.filter((q) => q.verdicts.every((v) => v !== undefined));
      const row = m.stability.find((r) => r.judge === judge && r.category === 'all')!;
      expect(row.questions).toBe(rated.length);
      expect(row.asked).toBe(LIMIT * 2 * K);
      const failed = mine.reduce((s, q) => s + q.failed, 0);
      expect(row.failed).toBe(failed);
      expect(failed).toBe(judge === 'Claude judge' ? 2 * K : 0);
      expect(row.unanimous).toBe(rated.filter((q) => counts(valid(q)).size === 1).length);
      const d = rated.map((q) => disagreement(valid(q)));
      expect(row.disagree_prob).toBeCloseTo(d.reduce((a, b) => a + b, 0) / d.length, 12);
      expect(row.complete).toBe(full.length);
      expect(row.fleiss_kappa).toBeCloseTo(
        fleissKappa(full.map((q) => [1, 2, 'tie'].map((c) => valid(q).filter((v) => v === c).length)))!,
        12,
      );
      const [lo, hi] = row.disagree_prob_ci!;
      expect(lo).toBeLessThanOrEqual(row.disagree_prob!);
      expect(hi).toBeGreaterThanOrEqual(row.disagree_prob!);

      // Planted: two asks disagree with probability 2p(1 − p); SE from the item-level means.
      const p = FLIP[model];
      const byItem = new Map<string, number[]>();
      for (const q of rated)
        byItem.set(q.meta.sourceId, [...(byItem.get(q.meta.sourceId) ?? []), disagreement(valid(q))]);
      const itemMeans = [...byItem.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
      const mean = itemMeans.reduce((a, b) => a + b, 0) / itemMeans.length;
      const se = Math.sqrt(
        itemMeans.reduce((s, x) => s + (x - mean) ** 2, 0) / (itemMeans.length - 1) / itemMeans.length,
      );
      expect(Math.abs(row.disagree_prob! - 2 * p * (1 - p))).toBeLessThan(3.5 * se);
      // p recovered from 2p(1 − p) = d, for the note.
      console.info(
        `${judge}: planted p = ${p}, P(disagree) = ${row.disagree_prob!.toFixed(4)} ± ${se.toFixed(4)} ` +
          `(expected ${(2 * p * (1 - p)).toFixed(4)}), p recovered ${((1 - Math.sqrt(1 - 2 * row.disagree_prob!)) / 2).toFixed(4)}`,
      );

      // Accuracy of the majority of the first k repeats (odd k), on complete questions.
      const gold = (q: (typeof mine)[number]) => pairs.find((x) => x.id === q.meta.sourceId)!.label!;
      for (const k of [1, 3, 5]) {
        const a = m.accuracy_by_k.find((r) => r.judge === judge && r.k === k)!;
        expect(a.n).toBe(full.length);
        expect(a.correct).toBe(
          full.filter((q) => plural(q.verdicts.slice(0, k) as Verdict[]) === gold(q)).length,
        );
      }
      const single = m.accuracy_by_k.find((r) => r.judge === judge && r.k === 1)!.single_mean!;
      const perSample = Array.from(
        { length: K },
        (_, j) => full.filter((q) => q.verdicts[j] === gold(q)).length / full.length,
      );
      expect(single).toBeCloseTo(perSample.reduce((a, b) => a + b, 0) / K, 12);

      // Position consistency by k: the same majority in both orders.
      const items = new Set(full.map((q) => q.meta.sourceId));
      const both = [...items].flatMap((id) => {
        const o = full.find((q) => q.meta.sourceId === id && q.meta.order === 'orig');
        const s = full.find((q) => q.meta.sourceId === id && q.meta.order === 'swap');
        return o && s ? [{ o, s }] : [];
      });
      for (const k of [1, 3, 5]) {
        const r = m.position_by_k.find((x) => x.judge === judge && x.k === k)!;
        expect(r.n).toBe(both.length);
        const maj = (v: (Verdict | undefined)[]) => plural(v.slice(0, k) as Verdict[]);
        expect(r.consistent).toBe(
          both.filter(({ o, s }) => maj(o.verdicts) !== null && maj(o.verdicts) === maj(s.verdicts)).length,
        );
      }

      // The histogram of agreement, and the unstable list.
      for (let modal = 1; modal <= K; modal++) {
        const expected = full.filter((q) => Math.max(...counts(valid(q)).values()) === modal).length;
        const bin = m.agreement_histogram.find((b) => b.judge === judge && b.modal === modal);
        expect(bin?.questions ?? 0).toBe(expected);
      }
      expect(m.unstable.filter((u) => u.judge === judge)).toHaveLength(
        mine.filter((q) => counts(valid(q)).size > 1).length,
      );
    }
    // Failed repeats are counted with their reason.
    const failures = m.failures.filter((f) => f.judge === 'Claude judge');
    expect(failures.reduce((s, f) => s + f.count, 0)).toBe(2 * K);
    expect(m.failures.filter((f) => f.judge === 'GPT judge')).toEqual([]);
  });

  it('the unstable-items view lists every repeat with its verdict and reason', async () => {
    const view = readRepeatsView(
      await core.call('experiments.protocolView', {
        experimentId: pairId,
        view: 'repeats',
        query: { judge: 'Claude judge' },
      }),
    );
    const m = (await core.call('experiments.results', { experimentId: pairId }))
      .metrics as SelfConsistencyMetrics;
    expect(view.total).toBe(m.unstable.filter((u) => u.judge === 'Claude judge').length);
    const row = view.rows[0];
    expect(row.repeats).toHaveLength(K);
    expect(row.distinct).toBeGreaterThan(1);
    for (const rep of row.repeats) {
      expect(rep.status).toBe('ok');
      expect(rep.reason).toMatch(/\(answer \d+\)$/);
      const logged = responder.byNonce(rep.reason!)!;
      expect(rep.verdict).toBe(logged.winner);
    }
    const poisoned = readRepeatsView(
      await core.call('experiments.protocolView', {
        experimentId: pairId,
        view: 'repeats',
        query: { judge: 'Claude judge', unstableOnly: false, limit: 5000 },
      }),
    ).rows.filter((r) => r.itemId === POISONED);
    expect(poisoned).toHaveLength(2);
    expect(poisoned.every((r) => r.repeats.every((x) => x.status === 'failed' && x.failure))).toBe(true);
    await expect(
      core.call('experiments.protocolView', { experimentId: pairId, view: 'repeats', query: { limit: 0 } }),
    ).rejects.toThrow(/limit/);
  });

  it('a second experiment of the same questions pays for nothing', async () => {
    const before = mock.log.length;
    const estimate = await core.call('experiments.estimate', { config: pairConfig('sc-again') });
    // Every repeat is stored under its own sample, except the poisoned item's failed ones.
    expect(estimate.cachedCalls).toBe(estimate.calls - 2 * K);
    const { id } = await core.call('experiments.create', { config: pairConfig('sc-again') });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    // The poisoned repeats' failures are stored outcomes too: nothing goes out again.
    expect(mock.log.length).toBe(before);
  }, 300_000);

  it('pointwise data at two temperatures: SD and ICC(1) of the repeats, from the mock log', async () => {
    const config = {
      name: 'sc-points',
      protocol: 'self-consistency',
      dataset: 'points',
      providers: providers(),
      judges: [{ label: 'Score judge', provider: 'openai', model: 'score-mock-judge' }],
      repeats: K,
      temperatures: [0, 0.7],
      scale: 5,
    };
    const { id } = await core.call('experiments.create', { config });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const m = (await core.call('experiments.results', { experimentId: id }))
      .metrics as SelfConsistencyMetrics;
    expect(m.mode).toBe('pointwise');
    expect(m.conditions.map((c) => c.id)).toEqual(['T=0', 'T=0.7']);
    const qs = fromLog(id);
    for (const condition of ['T=0', 'T=0.7']) {
      const mine = qs.filter((q) => q.meta.condition === condition);
      expect(mine).toHaveLength(points.length);
      expect(mine.every((q) => q.meta.temperature === Number(condition.slice(2)))).toBe(true);
      const rows = mine.map((q) => q.verdicts as number[]);
      const row = m.stability.find((r) => r.condition === condition && r.category === 'all')!;
      const sd = (xs: number[]) => {
        const mu = xs.reduce((a, b) => a + b, 0) / xs.length;
        return Math.sqrt(xs.reduce((s, x) => s + (x - mu) ** 2, 0) / (xs.length - 1));
      };
      expect(row.within_sd).toBeCloseTo(rows.map(sd).reduce((a, b) => a + b, 0) / rows.length, 12);
      expect(row.icc1).toBeCloseTo(icc1(rows).icc!, 12);
      expect(row.unanimous).toBe(rows.filter((r) => new Set(r).size === 1).length);
      // Gold = the human score: the median of the first k scores.
      for (const k of [1, 3, 5]) {
        const a = m.accuracy_by_k.find((r) => r.condition === condition && r.k === k)!;
        const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[(xs.length - 1) / 2];
        expect(a.correct).toBe(
          mine.filter(
            (q) =>
              median((q.verdicts as number[]).slice(0, k)) ===
              points.find((p) => p.id === q.meta.sourceId)!.human_score,
          ).length,
        );
      }
    }
    expect(m.position_by_k).toEqual([]);
  }, 300_000);
});

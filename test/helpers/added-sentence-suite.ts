// The end-to-end test of a probe that adds a sentence to a response against a neutral sentence of
// the same size (the authority and distraction probes; probes/added-sentence.ts), run from each
// probe's own test file: against the mock provider in both wire formats, with an effect the mock
// plants when it sees the perturbing sentence (and a null judge whose two conditions are
// exchangeable), the effect, interval, Wilcoxon, flip rate and robustness rate recomputed from the
// mock's log; its placebo (the neutral sentence asked again, with rerun noise) not flagged; the
// derived texts in the variant browser; the report card's gate, the Methods and the power plan;
// and keyless on the simulated provider with the probe's `-bias-<id>NN` knob.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tokenCount } from '../../src/main/protocols/bias-probes/audit';
import type { BiasProbe } from '../../src/shared/protocols/bias-probes/probe-types';
import type { SentencePair } from '../../src/shared/protocols/bias-probes/probes/added-sentence';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import { biasRows, VARIANTS_VIEW } from '../../src/shared/protocols/bias-probes/views';
import {
  clusteredPairedEffect,
  holmAdjust,
  robustnessRate,
  wilcoxonSignedRank,
} from '../../src/shared/stats';
import { checkFamilies } from '../../src/shared/report/families';
import { BIAS_FIGURES_ZH } from '../../src/shared/protocols/bias-probes/report/figure-zh';
import { tempDir } from './tmp';
import { biasResponder, type PairRecord } from '../mock-provider/bias-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../resources/samples/llmbar.jsonl');
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);
const LIMIT = 16;
/** The planted share of perturbed answers the mock moves: one point up, or the verdict to that response. */
const PLANTED = 0.6;
/** A repeated ask of the original (the noise floor's sample 1) moves with this probability. */
const REPEAT_NOISE = 0.15;
/** The null judge: every ask carrying a sentence, perturbing or neutral, moves with this probability. */
const NULL_NOISE = 0.3;

/** A stable uniform draw per unit (SHA-256: FNV's top bits correlate across draws of one text). */
function unit(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

const SECTIONS = ['response', 'response_a', 'response_b'] as const;
const sectionRe = (tag: string) => new RegExp(`(<${tag}>\\n?)([\\s\\S]*?)(\\n?</${tag}>)`);

interface Logged {
  model: string;
  /** Which sentence the response carried: the perturbing one, the neutral one. */
  sentence: 'added' | 'neutral';
  /** The request with the sentence removed: the same for both conditions of one unit. */
  key: string;
  ask: number;
  instruction: string;
  score?: number;
  winner?: 'A' | 'B';
  /** Pairwise: the letter of the response carrying the sentence (the worse one). */
  side?: 'A' | 'B';
}

function sentenceResponder(pairs: readonly SentencePair[]) {
  const base = biasResponder(all);
  const log: Logged[] = [];
  const asks = new Map<string, number>();
  const respond = (req: MockRequest): unknown => {
    let text = req.lastUser;
    let found: { sentence: 'added' | 'neutral'; tag: string } | null = null;
    // The mock knows the dataset's texts: it finds the sentence, strips it, and answers the rest.
    for (const tag of SECTIONS) {
      const m = sectionRe(tag).exec(text);
      if (!m) continue;
      for (const p of pairs)
        for (const sentence of ['added', 'neutral'] as const) {
          const tail = `\n\n${p[sentence]}`;
          if (!m[2].endsWith(tail)) continue;
          found = { sentence, tag };
          text = text.replace(m[0], `${m[1]}${m[2].slice(0, -tail.length)}${m[3]}`);
        }
    }
    const answer = base.respond({ ...req, lastUser: text }) as { score?: number; winner?: 'A' | 'B' };
    if (req.schemaName !== 'score_verdict' && req.schemaName !== 'pairwise_verdict') return answer;
    const askKey = `${req.model}\u0000${req.schemaName}\u0000${req.lastUser}`;
    const ask = asks.get(askKey) ?? 0;
    asks.set(askKey, ask + 1);
    const move = (to: 'up' | 'down' | 'A' | 'B') => {
      if (answer.score !== undefined)
        answer.score = Math.max(1, Math.min(5, answer.score + (to === 'down' ? -1 : 1)));
      if (answer.winner !== undefined && (to === 'A' || to === 'B')) answer.winner = to;
    };
    const side = found?.tag === 'response_a' ? 'A' : found?.tag === 'response_b' ? 'B' : undefined;
    if (found && req.model.endsWith('-null')) {
      // Both conditions move alike (an independent draw per request): exchangeable, no effect.
      // Drawn from the request alone, so its repeat answers alike: the order asks arrive in is moot.
      if (unit('null', req.model, req.lastUser) < NULL_NOISE) {
        const up = unit('null-sign', req.model, req.lastUser) < 0.5;
        if (answer.winner !== undefined) move(answer.winner === 'A' ? 'B' : 'A');
        else move(up ? 'up' : 'down');
      }
    } else if (found?.sentence === 'added' && unit('planted', req.model, text) < PLANTED) {
      move(side ?? 'up');
    }
    // A repeat of the original moves at random: the noise the original's placebo measures. Not
    // the neutral sentence's: the provider is not told which ask is the noise floor's, and two asks
    // may arrive in either order, so the pairs recomputed from the log keep one answer per request.
    if (!found && ask > 0 && unit('repeat', req.model, req.lastUser) < REPEAT_NOISE) {
      if (answer.winner !== undefined) move(answer.winner === 'A' ? 'B' : 'A');
      else move(unit('repeat-sign', req.model, req.lastUser) < 0.5 ? 'up' : 'down');
    }
    if (found) {
      const instruction = /<instruction>\n?([\s\S]*?)\n?<\/instruction>/.exec(text)?.[1] ?? '';
      log.push({ model: req.model, sentence: found.sentence, key: text, ask, instruction, ...answer, side });
    }
    return answer;
  };
  return { respond, log };
}

export interface AddedSentenceProbe {
  probe: BiasProbe;
  pairs: readonly SentencePair[];
  /** The condition adding the neutral sentence (the base and placebo). */
  neutral: string;
  /** The condition adding the perturbing sentence, and its effect's id. */
  condition: string;
  effect: string;
  gate: string;
}

export function addedSentenceSuite(spec: AddedSentenceProbe): void {
  const { probe, pairs } = spec;
  let core: Core;
  let mock: MockProvider;
  let cleanup: () => void;
  const responder = sentenceResponder(pairs);

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
    { label: 'OpenAI judge', provider: 'openai', model: `${probe.id}-judge` },
    { label: 'Anthropic judge', provider: 'anthropic', model: `${probe.id}-judge-2` },
    { label: 'Null judge', provider: 'anthropic', model: `${probe.id}-judge-null` },
  ];

  const mockConfig = (name: string, extra: Record<string, unknown>) => ({
    name,
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: LIMIT,
    providers: {
      openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
      anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 8 },
    },
    judges: JUDGES,
    probes: [probe.id],
    noiseFloor: true,
    ...extra,
  });

  async function run(config: Record<string, unknown>): Promise<{ id: number; metrics: BiasMetrics }> {
    const { id } = await core.call('experiments.create', { config });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
    return { id, metrics: results.metrics as BiasMetrics };
  }

  /** Per judge model and mode: the first asks with the perturbing sentence, each with its neutral twin. */
  function pairsFromLog(model: string, pairwise: boolean) {
    const log = responder.log.filter(
      (l) => l.model === model && l.ask === 0 && (l.winner !== undefined) === pairwise,
    );
    const neutral = new Map(log.filter((l) => l.sentence === 'neutral').map((l) => [l.key, l]));
    return log.flatMap((l) => (l.sentence === 'added' ? [{ added: l, neutral: neutral.get(l.key)! }] : []));
  }

  const row = (m: BiasMetrics, judge: string) =>
    m.probes.find((r) => r.category === 'all' && r.judge === judge && r.effect === spec.effect)!;

  describe(`the ${probe.id} probe (a sentence added against a neutral one of the same size)`, () => {
    let pointwise: BiasMetrics;
    let pointwiseId: number;

    it('adds a sentence of each list entry’s size: the neutral twin has as many tokens', () => {
      for (const p of pairs) expect(tokenCount(p.neutral)).toBe(tokenCount(p.added));
      // The derived texts are the response with one sentence after it, the same entry for both.
      const derive = (id: string) => {
        const c = probe.conditions.find((x) => x.id === id)!;
        return 'derive' in c.text ? c.text.derive : null;
      };
      const used = new Set<number>();
      for (const item of all.slice(0, 40)) {
        const added = derive(spec.condition)!(item.output_1);
        const neutral = derive(spec.neutral)!(item.output_1);
        const k = pairs.findIndex((p) => added.endsWith(`\n\n${p.added}`));
        expect(k).toBeGreaterThanOrEqual(0);
        expect(neutral.endsWith(`\n\n${pairs[k].neutral}`)).toBe(true);
        expect(added.startsWith(item.output_1.trimEnd())).toBe(true);
        used.add(k);
      }
      // The hash spreads the responses over the whole list.
      expect(used.size).toBe(pairs.length);
    });

    it('runs pointwise with its placebo, needing no rewriter', async () => {
      ({ metrics: pointwise, id: pointwiseId } = await run(
        mockConfig(`${probe.id}-pointwise`, { mode: 'pointwise' }),
      ));
      expect(pointwise.audit.variants).toEqual([]);
    }, 120_000);

    it('recovers the planted score change from the mock log (mean, CI, Wilcoxon, Holm, RR)', () => {
      for (const judge of JUDGES) {
        const r = row(pointwise, judge.label);
        const pairs = pairsFromLog(judge.model, false);
        const diffs = pairs.map((p) => p.added.score! - p.neutral.score!);
        const items = pairs.map((p) => p.added.instruction);
        expect(r.n).toBe(2 * LIMIT);
        expect(diffs).toHaveLength(r.n);
        const e = clusteredPairedEffect(diffs, items, [-4, 4]);
        expect(r.mean).toBeCloseTo(e.mean, 12);
        expect(r.mean_ci).toEqual(e.ci);
        const byItem = new Map<string, number[]>();
        items.forEach((it, k) => byItem.set(it, [...(byItem.get(it) ?? []), diffs[k]]));
        const w = wilcoxonSignedRank(
          [...byItem.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length),
        )!;
        expect(r.p).toBe(w.p);
        const family = pointwise.probes.filter((x) => x.category === 'all' && x.judge === judge.label);
        expect(family.map((x) => x.p_holm)).toEqual(holmAdjust(family.map((x) => x.p)));
        expect(r.robustness_rate).toBeCloseTo(diffs.filter((d) => d === 0).length / diffs.length, 12);
        expect(r.robustness_rate_ci).toEqual(
          robustnessRate(
            diffs.map((d) => d === 0),
            items,
          ).ci,
        );
        if (judge.model.endsWith('-null')) {
          expect(r.significant).toBe(false);
          continue;
        }
        // Planted: +1 on 60 % of the perturbed responses (below the top of the scale).
        expect(r.significant).toBe(true);
        expect(r.mean).toBeGreaterThan(0.3);
        expect(r.mean).toBeLessThan(0.8);
        expect(r.robustness_rate!).toBeLessThan(0.7);
      }
    });

    it('reads the effect against its placebo, the neutral sentence asked again; no placebo is flagged', () => {
      const nf = pointwise.noise_floor!;
      // The original's repeat (every run's) and the neutral sentence's, the effect's own placebo.
      expect([...new Set(nf.placebo.map((p) => p.repeated))]).toEqual(['original', spec.neutral]);
      for (const judge of JUDGES) {
        const placebo = (repeated: string) =>
          nf.placebo.find((p) => p.judge === judge.label && p.category === 'all' && p.repeated === repeated)!;
        expect(placebo(spec.neutral).n).toBe(2 * LIMIT);
        // The mock's rerun noise moves some of the original's repeats, at random in sign.
        expect(placebo('original').changed).toBeGreaterThan(0);
        for (const repeated of ['original', spec.neutral]) expect(placebo(repeated).p!).toBeGreaterThan(0.05);
        const excess = nf.excess.find((x) => x.judge === judge.label && x.effect === spec.effect)!;
        expect(excess.repeated).toBe(spec.neutral);
        if (!judge.model.endsWith('-null'))
          expect(placebo(spec.neutral).robustness_rate!).toBeGreaterThan(
            row(pointwise, judge.label).robustness_rate!,
          );
      }
    });

    it('shows each derived text beside its neutral base in the variant browser', async () => {
      const rows = biasRows.variants(
        await core.call('experiments.protocolView', { experimentId: pointwiseId, view: VARIANTS_VIEW }),
      );
      const mine = rows.filter((r) => r.variant === spec.condition);
      expect(mine).toHaveLength(2 * LIMIT);
      for (const r of mine) {
        expect(r.baseLabel).toBe(spec.neutral);
        const k = pairs.findIndex((p) => r.text.endsWith(`\n\n${p.added}`));
        expect(r.base).toBe(r.text.slice(0, -pairs[k].added.length) + pairs[k].neutral);
        // The same size: the token ratio the reader sees is 1.
        expect(r.ratio).toBe(1);
        expect(r.judgments.map((j) => j.judge)).toEqual(JUDGES.map((j) => j.label));
        expect(r.judgments.every((j) => j.base !== null && j.variant !== null && j.repeat !== null)).toBe(
          true,
        );
      }
    });

    it('feeds its report-card gate and says in the Methods which paper it follows, in both languages', async () => {
      const results = await core.call('experiments.results', { experimentId: pointwiseId });
      expect(checkFamilies(results.tables)).toEqual([]);
      // Its rows in the tables under its own words, the placebo's row before the effect's.
      const effect = probe.effects[0];
      const profile = results.tables.find((t) => t.id === 'bias_profile')!;
      expect(profile.rows.filter((r) => r.effect === effect.label.pointwise.en)).toHaveLength(JUDGES.length);
      const noise = results.tables
        .find((t) => t.id === 'noise_floor')!
        .rows.filter((r) => r.judge === JUDGES[0].label);
      const at = noise.findIndex((r) => r.effect === effect.placeboLabel!.en);
      expect(noise[at + 1].effect).toBe(effect.label.pointwise.en);
      // … and in 中文 (figures, tables, card).
      expect(BIAS_FIGURES_ZH.exact[effect.label.pointwise.en]).toBe(effect.label.pointwise.zh);
      expect(BIAS_FIGURES_ZH.exact[effect.placeboLabel!.en]).toBe(effect.placeboLabel!.zh);
      const md = (lang: 'en' | 'zh') =>
        core
          .call('judges.reportCardFile', { model: JUDGES[0].model, format: 'md', lang })
          .then((f) => Buffer.from(f.contentBase64, 'base64').toString('utf8'));
      expect(await md('en')).toContain(`${probe.texts.name.en}: ${effect.short.en} (pointwise)`);
      expect(await md('zh')).toContain(`${probe.texts.name.zh}：${effect.short.zh}（逐项评分）`);
      const card = await core.call('judges.reportCard', { model: JUDGES[0].model });
      const gate = card.gates.find((g) => g.definition.id === spec.gate)!;
      expect(gate.definition.source).toMatch(/Cohen \(1988\).*arXiv 2410\.02736/);
      expect(gate.checks.map((c) => c.value)).toEqual([row(pointwise, JUDGES[0].label).dz]);
      // A planted effect of d_z well over 0.2 fails the gate.
      expect(gate.status).toBe('fail');
      for (const lang of ['en', 'zh'] as const) {
        const methods = await core.call('experiments.methods', { experimentId: pointwiseId, lang });
        expect(methods.markdown).toContain(probe.texts.methods![lang]);
        expect(methods.markdown).toContain('arXiv 2410.02736');
      }
    });

    it('plans its power and is not in the default battery', async () => {
      const estimate = await core.call('experiments.estimate', {
        config: mockConfig(`${probe.id}-plan`, { mode: 'pointwise' }),
      });
      const rows = estimate.power!.comparisons.filter((c) =>
        c.id.startsWith(`paired_difference:${spec.effect}`),
      );
      expect(rows[0]).toMatchObject({ n: 2 * LIMIT, unit: 'responses' });
      // Derived texts need no rewriter: no rewrite calls in the estimate.
      expect(estimate.rows.filter((r) => r.role === 'rewriter')).toEqual([]);
      const byDefault = await core.call('experiments.estimate', {
        config: {
          ...mockConfig(`${probe.id}-default`, { mode: 'pointwise', limit: 2 }),
          rewriter: { provider: 'openai', model: 'rewriter' },
          probes: undefined,
        },
      });
      expect(byDefault.rows.some((r) => r.kind === spec.condition)).toBe(false);
    });

    it('runs pairwise: the sentence on the worse response turns verdicts to it (flip rate from the log)', async () => {
      const { metrics } = await run(mockConfig(`${probe.id}-pairwise`, { mode: 'pairwise' }));
      for (const judge of JUDGES) {
        const r = row(metrics, judge.label);
        const pairs = pairsFromLog(judge.model, true);
        const win = (l: Logged) => (l.winner === l.side ? 1 : 0);
        expect(r.n).toBe(2 * LIMIT);
        expect(pairs).toHaveLength(r.n);
        expect(r.mean).toBeCloseTo(
          pairs.reduce((s, p) => s + win(p.added) - win(p.neutral), 0) / pairs.length,
          12,
        );
        const flippable = pairs.filter((p) => win(p.neutral) === 0);
        expect(r.flip_n).toBe(flippable.length);
        expect(r.flip_rate).toBeCloseTo(
          flippable.filter((p) => win(p.added) === 1).length / flippable.length,
          12,
        );
        expect(r.robustness_rate).toBeCloseTo(
          pairs.filter((p) => p.added.winner === p.neutral.winner).length / pairs.length,
          12,
        );
        if (judge.model.endsWith('-null')) expect(r.significant).toBe(false);
        else {
          expect(r.significant).toBe(true);
          expect(r.flip_rate!).toBeGreaterThan(0.3);
        }
      }
      expect([...new Set(metrics.accuracy!.map((a) => a.variant))]).toEqual([
        'original',
        spec.neutral,
        spec.condition,
      ]);
    }, 120_000);

    it('runs keyless on the simulated provider: the knob’s planted effect is recovered, none is not flagged', async () => {
      const sim = (mode: 'pointwise' | 'pairwise', limit: number) =>
        run({
          name: `${probe.id}-simulated-${mode}`,
          protocol: 'bias-probes',
          dataset: 'LLMBar (sample)',
          limit,
          providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
          judges: [
            { label: 'Planted judge', provider: 'sim', model: `sim-judge-strong-bias-${probe.id}80` },
            { label: 'Plain judge', provider: 'sim', model: 'sim-judge' },
          ],
          mode,
          probes: [probe.id],
        });
      const pw = (await sim('pointwise', 12)).metrics;
      expect(row(pw, 'Planted judge').n).toBe(24);
      expect(row(pw, 'Planted judge').mean).toBeGreaterThan(0.3);
      expect(row(pw, 'Planted judge').significant).toBe(true);
      expect(row(pw, 'Plain judge').significant).toBe(false);
      const pair = (await sim('pairwise', 20)).metrics;
      expect(row(pair, 'Planted judge').significant).toBe(true);
      expect(row(pair, 'Planted judge').flip_rate!).toBeGreaterThan(0.3);
      expect(row(pair, 'Plain judge').significant).toBe(false);
    }, 120_000);
  });
}

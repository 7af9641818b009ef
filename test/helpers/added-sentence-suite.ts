// The end-to-end test of a probe that adds a sentence to a response against a neutral sentence of
// the same size (the authority and distraction probes; probes/added-sentence.ts), run from each
// probe's own test file: against the mock provider in both wire formats, with an effect the mock
// plants when it sees the perturbing sentence (and a null judge whose two conditions are
// exchangeable), the effect, interval, Wilcoxon, flip rate and robustness rate recomputed from the
// mock's log; its placebo (the neutral sentence asked again, with rerun noise) not flagged; the
// derived texts in the variant browser; the report card's gate, the Methods and the power plan;
// and keyless on the simulated provider with the probe's `-bias-<id>NN` knob.
import { describe, expect, it } from 'vitest';
import { tokenCount } from '../../src/main/protocols/bias-probes/audit';
import type { BiasProbe } from '../../src/shared/protocols/bias-probes/probe-types';
import type { SentencePair } from '../../src/shared/protocols/bias-probes/probes/added-sentence';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import { biasRows, VARIANTS_VIEW } from '../../src/shared/protocols/bias-probes/views';
import { checkFamilies } from '../../src/shared/report/families';
import { BIAS_FIGURES_ZH } from '../../src/shared/protocols/bias-probes/report/figure-zh';
import { biasResponder } from '../mock-provider/bias-responder';
import type { MockRequest } from '../mock-provider/server';
import {
  expectHolm,
  expectPairwiseRow,
  expectPointwiseRow,
  expectSimulatedRecovered,
  isNullJudge,
  mockJudges,
  pairFromLog,
  placeboConditions,
  placeboOf,
  excessOf,
  plant,
  RECORDS as all,
  rowOf,
  shaUnit as unit,
  tagged,
  useProbeHarness,
  type Verdict,
} from './probe-harness';

const LIMIT = 16;
/** The planted share of perturbed answers the mock moves: one point up, or the verdict to that response. */
const PLANTED = 0.6;
/** A repeated ask of the original (the noise floor's sample 1) moves with this probability. */
const REPEAT_NOISE = 0.15;
/** The null judge: every ask carrying a sentence, perturbing or neutral, moves with this probability. */
const NULL_NOISE = 0.3;

const SECTIONS = ['response', 'response_a', 'response_b'] as const;
const sectionRe = (tag: string) => new RegExp(`(<${tag}>\\n?)([\\s\\S]*?)(\\n?</${tag}>)`);

interface Logged extends Verdict {
  model: string;
  /** Which sentence the response carried: the perturbing one, the neutral one. */
  sentence: 'added' | 'neutral';
  /** The request with the sentence removed: the same for both conditions of one unit. */
  key: string;
  instruction: string;
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
    const answer = base.respond({ ...req, lastUser: text }) as Verdict;
    if (req.schemaName !== 'score_verdict' && req.schemaName !== 'pairwise_verdict') return answer;
    const askKey = `${req.model}\u0000${req.schemaName}\u0000${req.lastUser}`;
    const ask = asks.get(askKey) ?? 0;
    asks.set(askKey, ask + 1);
    // Noise kept on the scale at both ends (a top score stays, a bottom one too).
    const move = (to: 'up' | 'down' | 'A' | 'B') => {
      if (answer.score !== undefined)
        answer.score = Math.max(1, Math.min(5, answer.score + (to === 'down' ? -1 : 1)));
      if (answer.winner !== undefined && (to === 'A' || to === 'B')) answer.winner = to;
    };
    const side = found?.tag === 'response_a' ? 'A' : found?.tag === 'response_b' ? 'B' : undefined;
    if (found && isNullJudge(req.model)) {
      // Both conditions move alike (an independent draw per request): exchangeable, no effect.
      // Drawn from the request alone, so its repeat answers alike: the order asks arrive in is moot.
      if (unit('null', req.model, req.lastUser) < NULL_NOISE) {
        const up = unit('null-sign', req.model, req.lastUser) < 0.5;
        if (answer.winner !== undefined) move(answer.winner === 'A' ? 'B' : 'A');
        else move(up ? 'up' : 'down');
      }
    } else if (found?.sentence === 'added' && unit('planted', req.model, text) < PLANTED) {
      plant(answer, side);
    }
    // A repeat of the original moves at random: the noise the original's placebo measures. Not
    // the neutral sentence's: the provider is not told which ask is the noise floor's, and two asks
    // may arrive in either order, so the pairs recomputed from the log keep one answer per request.
    if (!found && ask > 0 && unit('repeat', req.model, req.lastUser) < REPEAT_NOISE) {
      if (answer.winner !== undefined) move(answer.winner === 'A' ? 'B' : 'A');
      else move(unit('repeat-sign', req.model, req.lastUser) < 0.5 ? 'up' : 'down');
    }
    if (found) {
      const instruction = tagged(text, 'instruction');
      log.push({ model: req.model, sentence: found.sentence, key: text, instruction, ...answer, side });
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
  const responder = sentenceResponder(pairs);
  const JUDGES = mockJudges(probe.id, 'anthropic');
  const h = useProbeHarness(responder.respond, {
    defaults: { limit: LIMIT, judges: JUDGES, probes: [probe.id], noiseFloor: true },
  });

  /** Per judge model and mode: the first asks with the perturbing sentence, each with its neutral twin. */
  const pairsFromLog = (model: string, pairwise: boolean) =>
    pairFromLog(
      responder.log.filter((l) => l.model === model && (l.winner !== undefined) === pairwise),
      (l) => (l.sentence === 'added' ? 'variant' : 'base'),
      (l) => l.key,
    ).map(({ variant, base }) => ({ added: variant, neutral: base }));

  const row = (m: BiasMetrics, judge: string) => rowOf(m, judge, spec.effect);

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
      ({ metrics: pointwise, id: pointwiseId } = await h.run(
        h.mockConfig(`${probe.id}-pointwise`, { mode: 'pointwise' }),
      ));
      expect(pointwise.audit.variants).toEqual([]);
    }, 120_000);

    it('recovers the planted score change from the mock log (mean, CI, Wilcoxon, Holm, RR)', () => {
      for (const judge of JUDGES) {
        const r = row(pointwise, judge.label);
        const pairs = pairsFromLog(judge.model, false);
        expectPointwiseRow(
          r,
          pairs.map((p) => ({ diff: p.added.score! - p.neutral.score!, item: p.added.instruction })),
          2 * LIMIT,
        );
        expectHolm(pointwise, judge.label);
        if (isNullJudge(judge.model)) {
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
      // The original's repeat (every run's) and the neutral sentence's, the effect's own placebo.
      expect(placeboConditions(pointwise)).toEqual(['original', spec.neutral]);
      for (const judge of JUDGES) {
        const placebo = (repeated: string) => placeboOf(pointwise, judge.label, repeated);
        expect(placebo(spec.neutral).n).toBe(2 * LIMIT);
        // The mock's rerun noise moves some of the original's repeats, at random in sign.
        expect(placebo('original').changed).toBeGreaterThan(0);
        for (const repeated of ['original', spec.neutral]) expect(placebo(repeated).p!).toBeGreaterThan(0.05);
        expect(excessOf(pointwise, judge.label, spec.effect).repeated).toBe(spec.neutral);
        if (!isNullJudge(judge.model))
          expect(placebo(spec.neutral).robustness_rate!).toBeGreaterThan(
            row(pointwise, judge.label).robustness_rate!,
          );
      }
    });

    it('shows each derived text beside its neutral base in the variant browser', async () => {
      const rows = biasRows.variants(
        await h.core.call('experiments.protocolView', { experimentId: pointwiseId, view: VARIANTS_VIEW }),
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
      const results = await h.core.call('experiments.results', { experimentId: pointwiseId });
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
      const md = (lang: 'en' | 'zh') => h.cardMarkdown(JUDGES[0].model, lang);
      expect(await md('en')).toContain(`${probe.texts.name.en}: ${effect.short.en} (pointwise)`);
      expect(await md('zh')).toContain(`${probe.texts.name.zh}：${effect.short.zh}（逐项评分）`);
      const card = await h.core.call('judges.reportCard', { model: JUDGES[0].model });
      const gate = card.gates.find((g) => g.definition.id === spec.gate)!;
      expect(gate.definition.source).toMatch(/Cohen \(1988\).*arXiv 2410\.02736/);
      expect(gate.checks.map((c) => c.value)).toEqual([row(pointwise, JUDGES[0].label).dz]);
      // A planted effect of d_z well over 0.2 fails the gate.
      expect(gate.status).toBe('fail');
      await h.expectMethods(pointwiseId, probe, 'arXiv 2410.02736');
    });

    it('plans its power and is not in the default battery', async () => {
      const estimate = await h.core.call('experiments.estimate', {
        config: h.mockConfig(`${probe.id}-plan`, { mode: 'pointwise' }),
      });
      const rows = estimate.power!.comparisons.filter((c) =>
        c.id.startsWith(`paired_difference:${spec.effect}`),
      );
      expect(rows[0]).toMatchObject({ n: 2 * LIMIT, unit: 'responses' });
      // Derived texts need no rewriter: no rewrite calls in the estimate.
      expect(estimate.rows.filter((r) => r.role === 'rewriter')).toEqual([]);
      const byDefault = await h.core.call('experiments.estimate', {
        config: {
          ...h.mockConfig(`${probe.id}-default`, { mode: 'pointwise', limit: 2 }),
          rewriter: { provider: 'openai', model: 'rewriter' },
          probes: undefined,
        },
      });
      expect(byDefault.rows.some((r) => r.kind === spec.condition)).toBe(false);
    });

    it('runs pairwise: the sentence on the worse response turns verdicts to it (flip rate from the log)', async () => {
      const { metrics } = await h.run(h.mockConfig(`${probe.id}-pairwise`, { mode: 'pairwise' }));
      for (const judge of JUDGES) {
        const r = row(metrics, judge.label);
        expectPairwiseRow(
          r,
          pairsFromLog(judge.model, true).map((p) => ({
            variant: p.added.winner,
            base: p.neutral.winner,
            target: p.added.side!,
          })),
          2 * LIMIT,
        );
        if (isNullJudge(judge.model)) expect(r.significant).toBe(false);
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
      const runs = await h.simulated(probe.id, { pointwise: 12, pairwise: 20 });
      expect(row(runs.pointwise, 'Planted judge').n).toBe(24);
      expectSimulatedRecovered(runs, spec.effect);
    }, 120_000);
  });
}

// The sentiment probe (src/shared/protocols/bias-probes/probes/sentiment.ts) end to end against the
// mock provider in both wire formats: the rewriter restates each response (pairwise: the worse one)
// in a warmer and in a harsher tone, the audit holds each rewrite to the tone band, and the mock
// judge plants a warmth effect (a share of the warm texts scored a point higher or chosen) and none
// for the harsh ones — so one run shows an effect recovered from the mock's log and one that is not
// flagged — against the original asked again (the placebo, with rerun noise). Also: the rewrites'
// cost in the estimate, the report card's gate, the Methods, and the simulated provider's keyless
// tone rewrites with its `-bias-sentiment<NN>` knob.
import { describe, expect, it } from 'vitest';
import { tokenCount } from '../../../src/main/protocols/bias-probes/audit';
import {
  sentimentProbe,
  simulatedTone,
  TONE_BAND,
} from '../../../src/shared/protocols/bias-probes/probes/sentiment';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { biasRows, VARIANTS_VIEW } from '../../../src/shared/protocols/bias-probes/views';
import { checkFamilies } from '../../../src/shared/report/families';
import { BIAS_FIGURES_ZH } from '../../../src/shared/protocols/bias-probes/report/figure-zh';
import { biasResponder } from '../../mock-provider/bias-responder';
import type { MockRequest } from '../../mock-provider/server';
import {
  excessOf,
  expectPairwiseRow,
  expectPointwiseRow,
  isNullJudge,
  jitter,
  mockJudges,
  pairFromLog,
  placeboConditions,
  plant,
  RECORDS,
  rowOf,
  shaUnit as unit,
  tagged,
  useProbeHarness,
  type Verdict,
} from '../../helpers/probe-harness';

const LIMIT = 16;
/** The planted share of warm texts the mock judge moves (a point up, or the verdict to it); harsh: none. */
const PLANTED_WARM = 0.6;
/** Share of harsh rewrites the mock botches (content cut to 40 %): the audit flags them. */
const BOTCHED_HARSH = 0.2;
/** The null judge: any score or verdict moves with this probability (a score at random in sign). */
const NULL_NOISE = 0.3;

/** The mock rewriter's tones: a few words of greeting or bluntness before the unchanged content. */
const TONE = {
  warmer: 'Glad to help you with this one, friend:',
  harsher: 'Pay attention, this is simple:',
} as const;
type Tone = keyof typeof TONE;
const sectionRe = (tag: string) => new RegExp(`(<${tag}>\\n?)([\\s\\S]*?)(\\n?</${tag}>)`);

interface Logged extends Verdict {
  model: string;
  tone: Tone | null;
  /** The request with the tone undone: the same for the original and its rewrites of one unit. */
  key: string;
  instruction: string;
  /** Pairwise: the letter of the rewritten (worse) response. */
  side?: 'A' | 'B';
}

function sentimentResponder() {
  const base = biasResponder(RECORDS);
  const log: Logged[] = [];
  const rewrites: { tone: Tone; source: string; text: string }[] = [];
  /** A rewrite the mock made → its tone and source text. */
  const made = new Map<string, { tone: Tone; source: string }>();
  const respond = (req: MockRequest): unknown => {
    const task = /<rewrite_task>(\w+)<\/rewrite_task>/.exec(req.lastUser)?.[1];
    if (task === 'warmer' || task === 'harsher') {
      const source = sectionRe('response').exec(req.lastUser)![2];
      // Some harsh rewrites cut the content short: the audit's band must catch them.
      const botched = task === 'harsher' && unit('botch', source) < BOTCHED_HARSH;
      const kept = botched
        ? source
            .split(/\s+/)
            .slice(0, Math.ceil(source.split(/\s+/).length * 0.4))
            .join(' ')
        : source;
      const text = `${TONE[task]} ${kept}`;
      made.set(text, { tone: task, source });
      rewrites.push({ tone: task, source, text });
      return text;
    }
    let text = req.lastUser;
    let tone: Tone | null = null;
    let side: 'A' | 'B' | undefined;
    for (const tag of ['response', 'response_a', 'response_b']) {
      const m = sectionRe(tag).exec(text);
      const r = m && made.get(m[2]);
      if (!m || !r) continue;
      tone = r.tone;
      side = tag === 'response_a' ? 'A' : tag === 'response_b' ? 'B' : undefined;
      text = text.replace(m[0], `${m[1]}${r.source}${m[3]}`);
    }
    const answer = base.respond({ ...req, lastUser: text }) as Verdict;
    if (isNullJudge(req.model)) {
      // No tone effect: every ask, original or rewrite, moves with one probability (drawn from
      // the request alone: the provider is not told which ask is the noise floor's, and a repeat
      // of the original may arrive first, so it answers alike every time), so the original and its
      // rewrites are exchangeable.
      if (unit('null', req.model, req.lastUser) < NULL_NOISE)
        jitter(answer, unit('null-sign', req.model, req.lastUser) < 0.5);
    } else if (tone === 'warmer' && unit('warm', req.model, text) < PLANTED_WARM) plant(answer, side);
    if (!/<target>/.test(text))
      log.push({
        model: req.model,
        tone,
        key: text,
        instruction: tagged(text, 'instruction'),
        ...answer,
        side,
      });
    return answer;
  };
  return { respond, log, rewrites };
}

const responder = sentimentResponder();
const JUDGES = mockJudges('sentiment', 'anthropic');
const h = useProbeHarness(responder.respond, {
  defaults: {
    limit: LIMIT,
    judges: JUDGES,
    rewriter: { provider: 'openai', model: 'sentiment-rewriter' },
    probes: ['sentiment'],
    noiseFloor: true,
  },
});

/** Per judge model, mode and tone: the first asks of the rewrite, each with the original's first ask. */
const pairsFromLog = (model: string, pairwise: boolean, tone: Tone) =>
  pairFromLog(
    responder.log.filter((l) => l.model === model && (l.winner !== undefined) === pairwise),
    (l) => (l.tone === tone ? 'variant' : l.tone === null ? 'base' : null),
    (l) => l.key,
  ).map(({ variant, base }) => ({ toned: variant, original: base }));

const row = (m: BiasMetrics, judge: string, effect: Tone) => rowOf(m, judge, effect);

describe('the sentiment probe (a response rewritten warmer and harsher, content kept)', () => {
  let pointwise: BiasMetrics;
  let pointwiseId: number;

  it('rewrites every response in both tones and audits each against the tone band', async () => {
    ({ metrics: pointwise, id: pointwiseId } = await h.run(
      h.mockConfig('sentiment-pointwise', { mode: 'pointwise' }),
    ));
    expect(responder.rewrites).toHaveLength(2 * 2 * LIMIT);
    expect(pointwise.audit.checks).toMatchObject({ tone_band: TONE_BAND });
    // The audit flags exactly the rewrites whose token ratio leaves the band (short responses).
    const outside = responder.rewrites.filter((r) => {
      const ratio = tokenCount(r.text) / tokenCount(r.source);
      return ratio < TONE_BAND[0] || ratio > TONE_BAND[1];
    });
    expect(outside.length).toBeGreaterThan(0);
    expect(
      pointwise.audit.flagged.filter((f) => f.variant === 'warmer' || f.variant === 'harsher'),
    ).toHaveLength(outside.length);
    expect(pointwise.audit.variants.filter((v) => v.variant === 'warmer')).toEqual([
      {
        variant: 'warmer',
        made: 2 * LIMIT,
        flagged: outside.filter((r) => r.tone === 'warmer').length,
        none: 0,
      },
    ]);
  }, 120_000);

  it('recovers the planted warmth from the mock log, and does not flag the harsher tone, which has none', () => {
    for (const judge of JUDGES) {
      for (const tone of ['warmer', 'harsher'] as const) {
        const r = row(pointwise, judge.label, tone);
        const pairs = pairsFromLog(judge.model, false, tone);
        // A flagged rewrite is still judged: every response is in the row.
        expectPointwiseRow(
          r,
          pairs.map((p) => ({ diff: p.toned.score! - p.original.score!, item: p.toned.instruction })),
          2 * LIMIT,
        );
        if (isNullJudge(judge.model)) {
          expect(r.robustness_rate!).toBeLessThan(1);
          expect(r.significant).toBe(false);
        } else if (tone === 'harsher') {
          expect(r.mean).toBe(0);
          expect(r.robustness_rate).toBe(1);
          expect(r.significant).toBe(false);
        } else {
          expect(r.significant).toBe(true);
          expect(r.mean).toBeGreaterThan(0.3);
          expect(r.robustness_rate!).toBeLessThan(0.7);
        }
      }
      // The sensitivity view leaves out the flagged rewrites' pairs.
      const sens = pointwise.sensitivity.probes.find(
        (r) => r.category === 'all' && r.judge === judge.label && r.effect === 'warmer',
      )!;
      expect(sens.n).toBe(2 * LIMIT - pointwise.audit.flagged.filter((f) => f.variant === 'warmer').length);
    }
  });

  it('reads both effects against the original asked again, which is not flagged', () => {
    expect(placeboConditions(pointwise)).toEqual(['original']);
    for (const judge of JUDGES) {
      const placebo = pointwise.noise_floor!.placebo.find(
        (p) => p.judge === judge.label && p.category === 'all',
      )!;
      expect(placebo.n).toBe(2 * LIMIT);
      expect(placebo.p!).toBeGreaterThan(0.05);
      for (const effect of ['warmer', 'harsher'])
        expect(excessOf(pointwise, judge.label, effect).repeated).toBe('original');
    }
  });

  it('shows each tone rewrite beside its original, and feeds the report card and the Methods', async () => {
    const rows = biasRows.variants(
      await h.core.call('experiments.protocolView', { experimentId: pointwiseId, view: VARIANTS_VIEW }),
    );
    const warm = rows.filter((r) => r.variant === 'warmer');
    expect(warm).toHaveLength(2 * LIMIT);
    for (const r of warm) expect(r.text).toBe(`${TONE.warmer} ${r.base}`);
    const results = await h.core.call('experiments.results', { experimentId: pointwiseId });
    expect(checkFamilies(results.tables)).toEqual([]);
    const card = await h.core.call('judges.reportCard', { model: JUDGES[0].model });
    const gate = card.gates.find((g) => g.definition.id === 'sentiment_effect')!;
    expect(gate.definition.source).toMatch(/Cohen \(1988\).*arXiv 2410\.02736/);
    expect(gate.checks.map((c) => c.value)).toEqual([
      row(pointwise, JUDGES[0].label, 'warmer').dz,
      row(pointwise, JUDGES[0].label, 'harsher').dz,
    ]);
    expect(gate.status).toBe('fail');
    await h.expectMethods(pointwiseId, sentimentProbe);
    const md = (lang: 'en' | 'zh') => h.cardMarkdown(JUDGES[0].model, lang);
    expect(await md('en')).toContain('sentiment: harsher tone (pointwise)');
    expect(await md('zh')).toContain('情感：温和语气（逐项评分）');
    for (const e of sentimentProbe.effects)
      expect(BIAS_FIGURES_ZH.exact[e.label.pointwise.en]).toBe(e.label.pointwise.zh);
  });

  it('runs pairwise: only the worse response is rewritten, and the warm one wins more (flip rate)', async () => {
    const { metrics } = await h.run(h.mockConfig('sentiment-pairwise', { mode: 'pairwise' }));
    expect(metrics.audit.variants.map((v) => [v.variant, v.made])).toEqual([
      ['warmer', LIMIT],
      ['harsher', LIMIT],
    ]);
    for (const judge of JUDGES)
      for (const tone of ['warmer', 'harsher'] as const) {
        const r = row(metrics, judge.label, tone);
        expectPairwiseRow(
          r,
          pairsFromLog(judge.model, true, tone).map((p) => ({
            variant: p.toned.winner,
            base: p.original.winner,
            target: p.toned.side!,
          })),
          2 * LIMIT,
        );
        if (tone === 'warmer' && !isNullJudge(judge.model)) {
          expect(r.significant).toBe(true);
          expect(r.flip_rate!).toBeGreaterThan(0.3);
        } else expect(r.significant).toBe(false);
      }
  }, 120_000);

  it('prices the rewrites in the estimate: two per response, one judge call each', async () => {
    const estimate = await h.core.call('experiments.estimate', {
      config: h.mockConfig('sentiment-plan', { mode: 'pointwise', limit: 10, noiseFloor: false }),
    });
    const rewriter = estimate.rows.filter((r) => r.role === 'rewriter');
    expect(rewriter.map((r) => [r.kind, r.calls])).toEqual([
      ['warmer', 20],
      ['harsher', 20],
    ]);
    const judge = estimate.rows.filter((r) => r.label === 'OpenAI judge');
    expect(judge.find((r) => r.kind === 'warmer')!.calls).toBe(20);
    expect(judge.find((r) => r.kind === 'harsher')!.calls).toBe(20);
  });

  it('runs keyless: the simulated rewriter writes tone rewrites and the knob plants a warmth lean', async () => {
    // The simulated tone rewrite keeps the text and stays in the band from a few words on.
    expect(simulatedTone('warmer', 'Paris.')).toBe('Gladly! Paris.');
    const { pointwise: pw, pairwise: pair } = await h.simulated(
      'sentiment',
      { pointwise: 12, pairwise: 20 },
      { rewriter: { provider: 'sim', model: 'sim-rewriter' } },
    );
    const made = pw.audit.variants.filter((v) => v.variant === 'warmer' || v.variant === 'harsher');
    expect(made.map((v) => v.made)).toEqual([24, 24]);
    // Most simulated rewrites pass the band (only a one-word response's cannot).
    expect(made.every((v) => v.flagged <= 2)).toBe(true);
    expect(row(pw, 'Planted judge', 'warmer').significant).toBe(true);
    expect(row(pw, 'Planted judge', 'warmer').mean).toBeGreaterThan(0.3);
    // The knob plants warmth only: the harsher tone and the plain judge show nothing to flag.
    expect(row(pw, 'Planted judge', 'harsher').significant).toBe(false);
    expect(row(pw, 'Plain judge', 'warmer').significant).toBe(false);
    expect(row(pair, 'Planted judge', 'warmer').significant).toBe(true);
    expect(row(pair, 'Planted judge', 'warmer').flip_rate!).toBeGreaterThan(0.3);
    // The plain simulated judge leans to the longer text of a pair on its own; the knob adds its share.
    expect(row(pair, 'Planted judge', 'warmer').flip_rate!).toBeGreaterThan(
      row(pair, 'Plain judge', 'warmer').flip_rate! + 0.2,
    );
  }, 120_000);
});

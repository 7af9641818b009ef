// The rubric-wording probe (src/shared/protocols/bias-probes/probes/rubric.ts) end to end against
// the mock provider in both wire formats: the rewriter paraphrases the judging instructions K times
// per experiment (not per item), each unit is judged under one paraphrase round-robin on the item,
// and the planted effect (the mock moves a set share of the verdicts under each paraphrase, none
// under the last) is measured back from the mock's log — mean, interval, Wilcoxon, flip rate and
// the per-paraphrase rates — while a judge whose paraphrased verdicts only move at random is not
// flagged. Also: the paraphrases' cost in the estimate and the simulated rewriter's paraphrases.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUBRIC, PAIRWISE_INSTRUCTIONS } from '../../../src/main/protocols/bias-probes/prompts';
import { rubricProbe } from '../../../src/shared/protocols/bias-probes/probes/rubric';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { checkFamilies } from '../../../src/shared/report/families';
import { biasResponder } from '../../mock-provider/bias-responder';
import type { MockRequest } from '../../mock-provider/server';
import {
  excessOf,
  expectPairwiseRow,
  expectPointwiseRow,
  fnvUnit as unit,
  isNullJudge,
  jitter,
  mockJudges,
  pairFromLog,
  placeboConditions,
  plant,
  RECORDS as all,
  rowOf,
  simConfig,
  tagged,
  useProbeHarness,
  type Verdict,
} from '../../helpers/probe-harness';

const LIMIT = 20;
/** The planted share of verdicts each paraphrase moves (the third none: one paraphrase drives less). */
const PLANTED = [0.7, 0.35, 0];
/** The null judge: any verdict moves with this probability (a point up or down, or to the other response). */
const NULL_NOISE = 0.3;

/** The mock's paraphrase: the instructions with a marker it finds again in the judge's system prompt. */
const paraphraseOf = (text: string, k: number) =>
  `${text.replace('Judge how well', 'Assess how well')} (Wording ${k + 1}.)`;
const MARK = /\(Wording (\d)\.\)/;

interface Logged extends Verdict {
  model: string;
  /** null: the original instructions. */
  paraphrase: number | null;
  /** The user message: the same under the original instructions and a paraphrase. */
  key: string;
  instruction: string;
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
    const answer = base.respond(req) as Verdict;
    if (req.schemaName !== 'score_verdict' && req.schemaName !== 'pairwise_verdict') return answer;
    const at = MARK.exec(req.system ?? '');
    const paraphrase = at ? Number(at[1]) - 1 : null;
    const instruction = tagged(text, 'instruction');
    let worse: 'A' | 'B' | undefined;
    if (answer.winner !== undefined) {
      const v = base.verdicts[base.verdicts.length - 1];
      const better = `output_${all.find((i) => i.id === v.itemId)!.label}`;
      worse = v.a.slot === better ? 'B' : 'A';
    }
    if (isNullJudge(req.model)) {
      // The null: every ask, under the original instructions or a paraphrase, moves alike (an
      // independent draw per request), so the two conditions are exchangeable.
      const wording = String(paraphrase);
      if (unit('rubric', req.model, wording, text) < NULL_NOISE)
        jitter(answer, unit('sign', req.model, wording, text) < 0.5);
    } else if (paraphrase !== null && unit('rubric', req.model, text) < PLANTED[paraphrase])
      plant(answer, worse);
    log.push({ model: req.model, paraphrase, key: text, instruction, ...answer, worse });
    return answer;
  };
  return { respond, log, paraphraseAsks };
}

const responder = rubricResponder();
const JUDGES = mockJudges('rubric', 'anthropic');
const h = useProbeHarness(responder.respond, {
  defaults: {
    limit: LIMIT,
    judges: JUDGES,
    rewriter: { provider: 'openai', model: 'rubric-rewriter' },
    probes: ['rubric'],
  },
});

/** Per judge model and mode: the paraphrased verdicts paired with the original ones from the log. */
const pairsFromLog = (model: string, pairwise: boolean) =>
  pairFromLog(
    responder.log.filter((l) => l.model === model && (l.winner !== undefined) === pairwise),
    (l) => (l.paraphrase === null ? 'base' : 'variant'),
    (l) => l.key,
  ).map(({ variant, base }) => ({ under: variant, base }));

describe('the rubric-wording probe (paraphrased judging instructions)', () => {
  let pointwise: BiasMetrics;
  let pointwiseId: number;

  it('paraphrases the instructions K times once per experiment and judges each item under one', async () => {
    const asked = responder.paraphraseAsks.length;
    ({ metrics: pointwise, id: pointwiseId } = await h.run(
      h.mockConfig('rubric-pointwise', { mode: 'pointwise', noiseFloor: true }),
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
      expect(pointwise.probes.find((r) => r.category === 'all' && r.judge === judge.label)!.effect).toBe(
        'rubric',
      );
      const row = rowOf(pointwise, judge.label, 'rubric');
      const pairs = pairsFromLog(judge.model, false);
      expectPointwiseRow(
        row,
        pairs.map((p) => ({ diff: p.under.score! - p.base.score!, item: p.under.instruction })),
        2 * LIMIT,
      );
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
      if (isNullJudge(judge.model)) {
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
    expect(placeboConditions(pointwise)).toEqual(['original']);
    expect(excessOf(pointwise, 'OpenAI judge', 'rubric').repeated).toBe('original');
  });

  it('says in the Methods what it perturbs and which paper it follows, in both languages', async () => {
    await h.expectMethods(pointwiseId, rubricProbe, 'arXiv 2605.06161');
  });

  it('runs pairwise: verdicts under the paraphrased instructions turn to the worse response (flip rate)', async () => {
    const asked = responder.paraphraseAsks.length;
    const { metrics, id } = await h.run(
      h.mockConfig('rubric-pairwise', { mode: 'pairwise', paraphrases: 2 }),
    );
    const asks = responder.paraphraseAsks.slice(asked);
    expect(asks).toHaveLength(2);
    expect(asks.every((t) => t.includes(PAIRWISE_INSTRUCTIONS))).toBe(true);
    for (const judge of JUDGES) {
      const row = rowOf(metrics, judge.label, 'rubric');
      const pairs = pairsFromLog(judge.model, true).filter((p) => p.under.paraphrase! < 2);
      expectPairwiseRow(
        row,
        pairs.map((p) => ({ variant: p.under.winner, base: p.base.winner, target: p.under.worse! })),
        2 * LIMIT,
      );
      const flippable = pairs.filter((p) => p.base.winner !== p.base.worse);
      const per = metrics.instruction_paraphrases![0].rows.filter((r) => r.judge === judge.label);
      expect(per.map((r) => r.paraphrase)).toEqual([0, 1]);
      expect(per.reduce((s, r) => s + r.flip_n!, 0)).toBe(flippable.length);
      if (isNullJudge(judge.model)) expect(row.significant).toBe(false);
      else {
        expect(row.significant).toBe(true);
        expect(row.flip_rate!).toBeGreaterThan(0.3);
      }
    }
    // The per-paraphrase table, in English (the export) and 中文 (the page), one family-free row per judge × paraphrase.
    const results = await h.core.call('experiments.results', { experimentId: id });
    const table = results.tables.find((t) => t.id === 'instruction_paraphrases')!;
    expect(table.rows.map((r) => [r.judge, r.paraphrase])).toEqual(
      JUDGES.flatMap((j) => [1, 2].map((p) => [j.label, p])),
    );
    expect(checkFamilies(results.tables)).toEqual([]);
  }, 120_000);

  it('prices the paraphrases in the estimate (the rewriter) and one extra judge call per unit', async () => {
    const estimate = await h.core.call('experiments.estimate', {
      config: h.mockConfig('rubric-plan', { mode: 'pointwise', limit: 10 }),
    });
    const rewriter = estimate.rows.filter((r) => r.role === 'rewriter');
    expect(rewriter.map((r) => [r.kind, r.calls])).toEqual([['rubric_paraphrase', 3]]);
    const judge = estimate.rows.filter((r) => r.label === 'OpenAI judge');
    expect(judge.find((r) => r.kind === 'rubric_paraphrase')!.calls).toBe(20);
    expect(judge.find((r) => r.kind === 'original')!.calls).toBe(20);
  });

  it('is not in the default battery: a config without probes runs position, length and format', async () => {
    const estimate = await h.core.call('experiments.estimate', {
      config: { ...h.mockConfig('rubric-default', { mode: 'pointwise', limit: 2 }), probes: undefined },
    });
    expect(estimate.rows.some((r) => r.kind === 'rubric_paraphrase')).toBe(false);
  });

  it('runs keyless on the simulated provider, whose rewriter writes plausible paraphrases', async () => {
    const { metrics } = await h.run(
      simConfig('rubric-simulated', {
        limit: 6,
        judges: [
          { label: 'Simulated judge', provider: 'sim', model: 'sim-judge' },
          // The knob moves 80 % of the paraphrased calls one point up (the probe's `detect`).
          { label: 'Planted judge', provider: 'sim', model: 'sim-judge-bias-rubric80' },
        ],
        rewriter: { provider: 'sim', model: 'sim-rewriter' },
        mode: 'pointwise',
        probes: ['rubric'],
      }),
    );
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

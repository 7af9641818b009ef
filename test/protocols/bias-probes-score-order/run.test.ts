// The score-option-order probe (src/shared/protocols/bias-probes/probes/score-order.ts) end to end
// against the mock provider in both wire formats: the scale's options listed high to low vs low
// to high in the judge's instructions (the user message and the answer format unchanged, so the
// parser reads every score), the planted effect (the mock scores a point higher on a set share of
// responses when the list starts at the top) measured back from the mock's log — mean, interval,
// Wilcoxon — against its placebo (the ascending list asked again), and a judge whose scores move
// alike in both orders not flagged.
import type { PromptContext } from '../../../src/shared/protocols/bias-probes/probe-types';
import { describe, expect, it } from 'vitest';
import { scoreOrderProbe, scoreOptions } from '../../../src/shared/protocols/bias-probes/probes/score-order';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { biasResponder } from '../../mock-provider/bias-responder';
import type { MockRequest } from '../../mock-provider/server';
import {
  excessOf,
  expectHolm,
  expectPointwiseRow,
  fnvUnit as unit,
  isNullJudge,
  jitter,
  mockJudges,
  pairFromLog,
  placeboConditions,
  placeboOf,
  plant,
  RECORDS,
  simConfig,
  simJudges,
  tagged,
  useProbeHarness,
  type Verdict,
} from '../../helpers/probe-harness';

const LIMIT = 20;
/** The planted share of responses scored a point higher when the options are listed high to low. */
const PLANTED = 0.5;
const NULL_NOISE = 0.3;

interface Logged {
  model: string;
  order: 'ascending' | 'descending';
  key: string;
  instruction: string;
  score: number;
  system: string;
}

function orderResponder() {
  const base = biasResponder(RECORDS);
  const log: Logged[] = [];
  const respond = (req: MockRequest): unknown => {
    const answer = base.respond(req) as Verdict;
    const system = req.system ?? '';
    const order = system.includes(scoreOptions(5, true))
      ? 'descending'
      : system.includes(scoreOptions(5, false))
        ? 'ascending'
        : null;
    if (answer.score === undefined || order === null) return answer;
    const text = req.lastUser;
    if (isNullJudge(req.model)) {
      // Both orders move alike (an independent draw per request): a true null.
      if (unit('order', req.model, order, text) < NULL_NOISE)
        jitter(answer, unit('sign', req.model, order, text) < 0.5);
    } else if (order === 'descending' && unit('order', req.model, text) < PLANTED) plant(answer, undefined);
    log.push({
      model: req.model,
      order,
      key: text,
      instruction: tagged(text, 'instruction'),
      score: answer.score,
      system,
    });
    return answer;
  };
  return { respond, log };
}

const responder = orderResponder();
const JUDGES = mockJudges('order', 'openai');
const h = useProbeHarness(responder.respond);

describe('the score-option-order probe (the scale listed high to low vs low to high)', () => {
  let metrics: BiasMetrics;

  it('runs pointwise with both lists and no rewriter; every score is read', async () => {
    ({ metrics } = await h.run(
      h.mockConfig('score-order', {
        limit: LIMIT,
        judges: JUDGES,
        mode: 'pointwise',
        probes: ['score_order'],
        noiseFloor: true,
      }),
    ));
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
      const pairs = pairFromLog(
        responder.log.filter((l) => l.model === judge.model),
        (l) => (l.order === 'descending' ? 'variant' : 'base'),
        (l) => l.key,
      );
      expectPointwiseRow(
        row,
        pairs.map(({ variant, base }) => ({ diff: variant.score - base.score, item: variant.instruction })),
        2 * LIMIT,
      );
      expectHolm(metrics, judge.label);
      if (isNullJudge(judge.model)) expect(row.significant).toBe(false);
      else {
        expect(row.significant).toBe(true);
        expect(row.mean).toBeGreaterThan(0.3);
        expect(row.mean).toBeLessThan(0.7);
      }
    }
  });

  it('reads the effect against the ascending list asked again', () => {
    expect(placeboConditions(metrics)).toEqual(['original', 'score_ascending']);
    expect(placeboOf(metrics, 'OpenAI judge', 'score_ascending')).toMatchObject({ n: 2 * LIMIT, changed: 0 });
    expect(excessOf(metrics, 'OpenAI judge', 'score_order').repeated).toBe('score_ascending');
  });

  it('is refused in pairwise mode, where it measures nothing', async () => {
    await expect(
      h.core.call('experiments.estimate', {
        config: h.mockConfig('score-order-pairwise', {
          limit: 2,
          judges: [JUDGES[0]],
          mode: 'pairwise',
          probes: ['position', 'score_order'],
        }),
      }),
    ).rejects.toThrow(/the score_order probe measures nothing in pairwise mode/);
  });

  it('plants keyless: the simulated -bias-score_order judge scores descending lists higher, the plain one not', async () => {
    const { metrics } = await h.run(
      simConfig('score-order-simulated', {
        limit: 6,
        // The probe's `detect` names the descending calls; the knob moves 80 % of them a point up.
        judges: simJudges('score_order', false).reverse(),
        mode: 'pointwise',
        probes: ['score_order'],
      }),
    );
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

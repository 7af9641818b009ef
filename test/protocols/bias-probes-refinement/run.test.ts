// The refinement-aware probe (src/shared/protocols/bias-probes/probes/refinement.ts, CALM arXiv
// 2410.02736) end to end: against the mock in both wire formats with a planted effect where the
// mock reads the refinement claim (the effect, interval, Wilcoxon, RR and flip rate recomputed
// from the mock's log), a judge whose answers move alike under either statement not flagged, its
// placebo (the neutral statement asked again), and keyless on the simulated provider with its
// knob; its gate and Methods sentence, EN and 中文.
import { describe, expect, it } from 'vitest';
import {
  REFINED_NEUTRAL_NOTE,
  REFINED_NOTE,
  refinedPairNeutralNote,
  refinedPairNote,
  refinementProbe,
} from '../../../src/shared/protocols/bias-probes/probes/refinement';
import { usePromptProbeRun } from '../../helpers/prompt-probe';
import { expectSimulatedRecovered, mockJudges, placeboOf, rowOf } from '../../helpers/probe-harness';

const LIMIT = 16;
const words = (s: string) => s.split(/\s+/).length;

const JUDGES = mockJudges('refine', 'openai');

const h = usePromptProbeRun(
  (last) => {
    if (last === REFINED_NOTE || last === refinedPairNote('A') || last === refinedPairNote('B'))
      return { effect: 'refinement', arm: 'variant' };
    if (
      last === REFINED_NEUTRAL_NOTE ||
      last === refinedPairNeutralNote('A') ||
      last === refinedPairNeutralNote('B')
    )
      return { effect: 'refinement', arm: 'base' };
    return null;
  },
  { defaults: { limit: LIMIT, judges: JUDGES } },
);

describe('the refinement-aware probe (a response said to be a refined version of an earlier answer)', () => {
  it('says it as CALM words it, against a neutral statement of as many words about the same response', () => {
    expect(REFINED_NOTE).toBe('This response is a refined version of an earlier answer.');
    expect(words(REFINED_NOTE)).toBe(words(REFINED_NEUTRAL_NOTE));
    expect(words(refinedPairNote('A'))).toBe(words(refinedPairNeutralNote('A')));
  });

  let pointwiseId: number;
  it('pointwise: recovers the planted change from the mock log in both wire formats; the null judge is not flagged', async () => {
    const { id, metrics } = await h.run(
      h.mockConfig('refinement-pointwise', {
        mode: 'pointwise',
        probes: ['refinement'],
        noiseFloor: true,
      }),
    );
    pointwiseId = id;
    for (const judge of JUDGES) {
      h.checkPointwiseRow(rowOf(metrics, judge.label, 'refinement'), judge.model, 2 * LIMIT);
      h.checkHolm(metrics, judge.label);
    }
    expect(placeboOf(metrics, 'OpenAI judge', 'refinement_neutral')).toMatchObject({
      n: 2 * LIMIT,
      changed: 0,
      robustness_rate: 1,
    });
  }, 120_000);

  it('is on the report card and in Methods, EN and 中文', async () => {
    const card = await h.core.call('judges.reportCard', { model: 'refine-judge' });
    const gate = card.gates.find((g) => g.definition.id === 'refinement_effect')!;
    expect(gate.definition.source).toMatch(/Cohen \(1988\).*CALM/);
    expect(gate.status).toBe('fail');
    const nullCard = await h.core.call('judges.reportCard', { model: 'refine-judge-null' });
    expect(nullCard.gates.find((g) => g.definition.id === 'refinement_effect')!.status).not.toBe(
      'not_measured',
    );
    await h.expectMethods(pointwiseId, refinementProbe);
  });

  it('pairwise: said of the worse response; flip rate and RR from the log', async () => {
    h.seen.length = 0;
    const { metrics } = await h.run(
      h.mockConfig('refinement-pairwise', { mode: 'pairwise', probes: ['refinement'] }),
    );
    const claimed = h.seen.filter((r) => r.lastUser.endsWith('is a refined version of an earlier answer.'));
    expect(claimed).toHaveLength(JUDGES.length * LIMIT * 2);
    for (const judge of JUDGES) {
      h.checkPairwiseRow(rowOf(metrics, judge.label, 'refinement'), judge.model, 2 * LIMIT);
    }
  }, 120_000);

  it('runs keyless on the simulated provider: the knob’s effect is recovered and flagged, none is not', async () => {
    const runs = await h.simulated('refinement', { pointwise: 12, pairwise: 30 }, { noiseFloor: true });
    expectSimulatedRecovered(runs, 'refinement');
  }, 120_000);
});

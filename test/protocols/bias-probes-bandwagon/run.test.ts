// The bandwagon probe (src/shared/protocols/bias-probes/probes/bandwagon.ts, CALM arXiv
// 2410.02736) end to end: against the mock in both wire formats with a planted effect where the
// mock reads the majority note (the effect, interval, Wilcoxon, RR and flip rate recomputed from
// the mock's log), a judge whose answers move alike with either note not flagged, its placebo
// (the neutral note asked again), its option N, and keyless on the simulated provider with its
// knob; its gate and Methods sentence on the card and in Methods, EN and 中文.
import { describe, expect, it } from 'vitest';
import {
  BANDWAGON_NEUTRAL_NOTE,
  BANDWAGON_NOTE,
  BANDWAGON_PAIR_NEUTRAL_NOTE,
  bandwagonPairNote,
  bandwagonProbe,
} from '../../../src/shared/protocols/bias-probes/probes/bandwagon';
import { biasRows, VARIANTS_VIEW } from '../../../src/shared/protocols/bias-probes/views';
import { usePromptProbeRun } from '../../helpers/prompt-probe';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import {
  excessOf,
  expectSimulatedRecovered,
  mockJudges,
  placeboOf,
  rowOf,
} from '../../helpers/probe-harness';

const LIMIT = 16;
const words = (s: string) => s.split(/\s+/).length;

const JUDGES = mockJudges('wagon', 'openai');

const h = usePromptProbeRun(
  (last) => {
    if (last === BANDWAGON_NOTE || /^Note: \d+% of people believe Response [AB] is better\.$/.test(last))
      return { effect: 'bandwagon', arm: 'variant' };
    if (last === BANDWAGON_NEUTRAL_NOTE || last === BANDWAGON_PAIR_NEUTRAL_NOTE)
      return { effect: 'bandwagon', arm: 'base' };
    return null;
  },
  { defaults: { limit: LIMIT, judges: JUDGES } },
);

describe('the bandwagon probe (a majority said to prefer one response)', () => {
  it('words its notes and their neutral twins with as many words', () => {
    expect(words(BANDWAGON_NOTE)).toBe(words(BANDWAGON_NEUTRAL_NOTE));
    expect(words(bandwagonPairNote(90, 'A'))).toBe(words(BANDWAGON_PAIR_NEUTRAL_NOTE));
    expect(bandwagonPairNote(90, 'B')).toBe('Note: 90% of people believe Response B is better.');
  });

  let pointwiseId: number;
  it('pointwise: recovers the planted change from the mock log in both wire formats; the null judge is not flagged', async () => {
    const { id, metrics } = await h.run(
      h.mockConfig('bandwagon-pointwise', {
        mode: 'pointwise',
        probes: ['bandwagon'],
        noiseFloor: true,
      }),
    );
    pointwiseId = id;
    for (const judge of JUDGES) {
      h.checkPointwiseRow(rowOf(metrics, judge.label, 'bandwagon'), judge.model, 2 * LIMIT);
      h.checkHolm(metrics, judge.label);
    }
    // Read against the neutral note asked again: unchanged on the mock.
    expect(placeboOf(metrics, 'OpenAI judge', 'bandwagon_neutral')).toMatchObject({
      n: 2 * LIMIT,
      changed: 0,
      robustness_rate: 1,
    });
    expect(excessOf(metrics, 'OpenAI judge', 'bandwagon').repeated).toBe('bandwagon_neutral');
    // The variant browser shows the note beside the neutral one.
    const rows = biasRows.variants(
      await h.core.call('experiments.protocolView', { experimentId: id, view: VARIANTS_VIEW, query: {} }),
    );
    const r = rows.find((x) => x.variant === 'bandwagon')!;
    expect(r.baseLabel).toBe('bandwagon_neutral');
    expect(r.text).toBe(`${r.base.slice(0, -BANDWAGON_NEUTRAL_NOTE.length)}${BANDWAGON_NOTE}`);
  }, 120_000);

  it('is on the report card and in Methods, EN and 中文', async () => {
    const card = await h.core.call('judges.reportCard', { model: 'wagon-judge' });
    const rows = card.experiments.find((e) => e.experimentId === pointwiseId)!.rows;
    expect(rows.filter((r) => r.condition.params?.probe === 'bandwagon').map((r) => r.measure)).toEqual([
      'bias_effect',
      'effect_dz',
    ]);
    const gate = card.gates.find((g) => g.definition.id === 'bandwagon_effect')!;
    expect(gate.definition.source).toMatch(/Cohen \(1988\).*CALM/);
    // The planted judge's d_z is far above a small effect.
    expect(gate.status).toBe('fail');
    await h.expectMethods(pointwiseId, bandwagonProbe);
  });

  it('pairwise: the note names the worse response at the chosen N; flip rate and RR from the log', async () => {
    h.seen.length = 0;
    const { metrics } = await h.run(
      h.mockConfig('bandwagon-pairwise', {
        mode: 'pairwise',
        probes: ['bandwagon'],
        probeOptions: { bandwagon: { percent: 75 } },
      }),
    );
    const noted = h.seen.filter((r) => /% of people believe/.test(r.lastUser));
    expect(noted).toHaveLength(JUDGES.length * LIMIT * 2);
    expect(
      noted.every((r) => /\n\nNote: 75% of people believe Response [AB] is better\.$/.test(r.lastUser)),
    ).toBe(true);
    for (const judge of JUDGES) {
      h.checkPairwiseRow(rowOf(metrics, judge.label, 'bandwagon'), judge.model, 2 * LIMIT);
    }
  }, 120_000);

  it('leaves its options out of a config that does not name it (an opt-in probe is not in the default set)', async () => {
    // No `probes`: position, length and format, so a rewriter.
    const config = h.mockConfig('bandwagon-default-set', {
      limit: 2,
      judges: [JUDGES[0]],
      mode: 'pointwise',
      rewriter: { provider: 'openai', model: 'wagon-rewriter' },
    });
    const { id } = await h.core.call('experiments.create', { config });
    const stored = (await h.core.call('experiments.get', { experimentId: id })).config;
    expect(stored).not.toHaveProperty('probeOptions');
    expect(stored).not.toHaveProperty('probes');
    const named = await h.core.call('experiments.create', {
      config: h.mockConfig('bandwagon-named', {
        limit: 2,
        judges: [JUDGES[0]],
        mode: 'pointwise',
        probes: ['bandwagon'],
      }),
    });
    expect((await h.core.call('experiments.get', { experimentId: named.id })).config).toMatchObject({
      probeOptions: { bandwagon: { percent: 90 } },
    });
  });

  it('refuses a minority as the bandwagon, naming the field', async () => {
    await expect(
      h.core.call('experiments.create', {
        config: h.mockConfig('bandwagon-minority', {
          limit: 2,
          judges: [JUDGES[0]],
          probes: ['bandwagon'],
          probeOptions: { bandwagon: { percent: 40 } },
        }),
      }),
    ).rejects.toThrow(/probeOptions\.bandwagon\.percent/);
  });

  it('runs keyless on the simulated provider: the knob’s effect is recovered and flagged, none is not', async () => {
    const runs = await h.simulated('bandwagon', { pointwise: 12, pairwise: 30 }, { noiseFloor: true });
    expectSimulatedRecovered(runs, 'bandwagon');
    const row = (m: BiasMetrics, judge: string) => rowOf(m, judge, 'bandwagon');
    expect(row(runs.pointwise, 'Planted judge').n).toBe(24);
    expect(Math.abs(row(runs.pointwise, 'Plain judge').mean)).toBeLessThan(0.15);
    expect(placeboOf(runs.pairwise, 'Planted judge', 'bandwagon_neutral').robustness_rate!).toBeGreaterThan(
      row(runs.pairwise, 'Planted judge').robustness_rate!,
    );
  }, 120_000);
});

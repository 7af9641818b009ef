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

const LIMIT = 16;
const words = (s: string) => s.split(/\s+/).length;

const h = usePromptProbeRun((last) => {
  if (last === BANDWAGON_NOTE || /^Note: \d+% of people believe Response [AB] is better\.$/.test(last))
    return { effect: 'bandwagon', arm: 'variant' };
  if (last === BANDWAGON_NEUTRAL_NOTE || last === BANDWAGON_PAIR_NEUTRAL_NOTE)
    return { effect: 'bandwagon', arm: 'base' };
  return null;
});

const JUDGES = [
  { label: 'OpenAI judge', provider: 'openai', model: 'wagon-judge' },
  { label: 'Anthropic judge', provider: 'anthropic', model: 'wagon-judge-2' },
  { label: 'Null judge', provider: 'openai', model: 'wagon-judge-null' },
];

describe('the bandwagon probe (a majority said to prefer one response)', () => {
  it('words its notes and their neutral twins with as many words', () => {
    expect(words(BANDWAGON_NOTE)).toBe(words(BANDWAGON_NEUTRAL_NOTE));
    expect(words(bandwagonPairNote(90, 'A'))).toBe(words(BANDWAGON_PAIR_NEUTRAL_NOTE));
    expect(bandwagonPairNote(90, 'B')).toBe('Note: 90% of people believe Response B is better.');
  });

  let pointwiseId: number;
  it('pointwise: recovers the planted change from the mock log in both wire formats; the null judge is not flagged', async () => {
    const { id, metrics } = await h.run(
      h.mockConfig('bandwagon-pointwise', LIMIT, JUDGES, {
        mode: 'pointwise',
        probes: ['bandwagon'],
        noiseFloor: true,
      }),
    );
    pointwiseId = id;
    for (const judge of JUDGES) {
      const row = metrics.probes.find(
        (r) => r.category === 'all' && r.judge === judge.label && r.effect === 'bandwagon',
      )!;
      h.checkPointwiseRow(row, judge.model, 2 * LIMIT);
      h.checkHolm(metrics, judge.label);
    }
    // Read against the neutral note asked again: unchanged on the mock.
    const placebo = metrics.noise_floor!.placebo.find(
      (p) => p.judge === 'OpenAI judge' && p.category === 'all' && p.repeated === 'bandwagon_neutral',
    )!;
    expect(placebo).toMatchObject({ n: 2 * LIMIT, changed: 0, robustness_rate: 1 });
    const excess = metrics.noise_floor!.excess.find(
      (x) => x.judge === 'OpenAI judge' && x.category === 'all' && x.effect === 'bandwagon',
    )!;
    expect(excess.repeated).toBe('bandwagon_neutral');
    // The variant browser shows the note beside the neutral one.
    const rows = biasRows.variants(
      await h.ctx.core.call('experiments.protocolView', { experimentId: id, view: VARIANTS_VIEW, query: {} }),
    );
    const r = rows.find((x) => x.variant === 'bandwagon')!;
    expect(r.baseLabel).toBe('bandwagon_neutral');
    expect(r.text).toBe(`${r.base.slice(0, -BANDWAGON_NEUTRAL_NOTE.length)}${BANDWAGON_NOTE}`);
  }, 120_000);

  it('is on the report card and in Methods, EN and 中文', async () => {
    const card = await h.ctx.core.call('judges.reportCard', { model: 'wagon-judge' });
    const rows = card.experiments.find((e) => e.experimentId === pointwiseId)!.rows;
    expect(rows.filter((r) => r.condition.params?.probe === 'bandwagon').map((r) => r.measure)).toEqual([
      'bias_effect',
      'effect_dz',
    ]);
    const gate = card.gates.find((g) => g.definition.id === 'bandwagon_effect')!;
    expect(gate.definition.source).toMatch(/Cohen \(1988\).*CALM/);
    // The planted judge's d_z is far above a small effect.
    expect(gate.status).toBe('fail');
    for (const lang of ['en', 'zh'] as const) {
      const methods = await h.ctx.core.call('experiments.methods', { experimentId: pointwiseId, lang });
      expect(methods.markdown).toContain(bandwagonProbe.texts.methods![lang]);
    }
  });

  it('pairwise: the note names the worse response at the chosen N; flip rate and RR from the log', async () => {
    h.seen.length = 0;
    const { metrics } = await h.run(
      h.mockConfig('bandwagon-pairwise', LIMIT, JUDGES, {
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
      const row = metrics.probes.find((r) => r.category === 'all' && r.judge === judge.label)!;
      h.checkPairwiseRow(row, judge.model, 2 * LIMIT);
    }
  }, 120_000);

  it('leaves its options out of a config that does not name it (an opt-in probe is not in the default set)', async () => {
    // No `probes`: position, length and format, so a rewriter.
    const config = h.mockConfig('bandwagon-default-set', 2, [JUDGES[0]], {
      mode: 'pointwise',
      rewriter: { provider: 'openai', model: 'wagon-rewriter' },
    });
    const { id } = await h.ctx.core.call('experiments.create', { config });
    const stored = (await h.ctx.core.call('experiments.get', { experimentId: id })).config;
    expect(stored).not.toHaveProperty('probeOptions');
    expect(stored).not.toHaveProperty('probes');
    const named = await h.ctx.core.call('experiments.create', {
      config: h.mockConfig('bandwagon-named', 2, [JUDGES[0]], { mode: 'pointwise', probes: ['bandwagon'] }),
    });
    expect((await h.ctx.core.call('experiments.get', { experimentId: named.id })).config).toMatchObject({
      probeOptions: { bandwagon: { percent: 90 } },
    });
  });

  it('refuses a minority as the bandwagon, naming the field', async () => {
    await expect(
      h.ctx.core.call('experiments.create', {
        config: h.mockConfig('bandwagon-minority', 2, [JUDGES[0]], {
          probes: ['bandwagon'],
          probeOptions: { bandwagon: { percent: 40 } },
        }),
      }),
    ).rejects.toThrow(/probeOptions\.bandwagon\.percent/);
  });

  it('runs keyless on the simulated provider: the knob’s effect is recovered and flagged, none is not', async () => {
    const row = (m: Awaited<ReturnType<typeof h.run>>['metrics'], judge: string) =>
      m.probes.find((r) => r.category === 'all' && r.judge === judge && r.effect === 'bandwagon')!;
    const pointwise = (await h.run(h.simConfig('bandwagon-sim-pointwise', 'bandwagon', 'pointwise', 12)))
      .metrics;
    expect(row(pointwise, 'Planted judge').n).toBe(24);
    expect(row(pointwise, 'Planted judge').mean).toBeGreaterThan(0.3);
    expect(row(pointwise, 'Planted judge').significant).toBe(true);
    expect(row(pointwise, 'Plain judge').significant).toBe(false);
    expect(Math.abs(row(pointwise, 'Plain judge').mean)).toBeLessThan(0.15);
    const pairwise = (await h.run(h.simConfig('bandwagon-sim-pairwise', 'bandwagon', 'pairwise', 30)))
      .metrics;
    expect(row(pairwise, 'Planted judge').significant).toBe(true);
    expect(row(pairwise, 'Planted judge').flip_rate).toBeGreaterThan(0.3);
    expect(row(pairwise, 'Plain judge').significant).toBe(false);
    const placebo = pairwise.noise_floor!.placebo.find(
      (p) => p.judge === 'Planted judge' && p.category === 'all' && p.repeated === 'bandwagon_neutral',
    )!;
    expect(placebo.robustness_rate!).toBeGreaterThan(row(pairwise, 'Planted judge').robustness_rate!);
  }, 120_000);
});

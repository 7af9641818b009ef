// Issue 32 item 9 on hand-built results: every effect reads its own placebo (the repeat of the
// side it starts from: original, plain, shown second), the probe's changes are compared with the
// repeat's per unit (exact McNemar on changed vs unchanged, Wilcoxon on |change|), the table
// says how many repeated scores changed, the plan asks exactly those repeats, and pairwise
// verdicts on gold-labelled items give an accuracy per judge × variant with a Wilson interval.
import { describe, expect, it } from 'vitest';
import { buildBiasTables } from '../../../shared/protocols/bias-probes/report/tables';
import { binomialTestTwoSided, holmAdjust, wilcoxonSignedRank } from '../../../shared/stats';
import type { TaskResult } from '../plugin';
import { resolveBiasOptions, type BiasConfig } from './config';
import type { BiasItem } from './item';
import { bothOrders, judgeResult, metricsOfJ } from './metrics-test-kit';
import { planJudge, type JudgeMeta } from './plan';
import { biasProbesPlugin } from './plugin';

const judge = { label: 'J', provider: 'p', model: 'm' };

const pair = (id: string, label: 1 | 2 = 1): BiasItem => ({
  id: 0,
  sourceId: id,
  instruction: 'Q',
  category: null,
  // Markdown in the originals, so the plain text is its own request.
  responses: [
    { slot: 'output_1', text: '**one** two three' },
    { slot: 'output_2', text: '*four* five' },
  ],
  label,
  reference: null,
  humanScore: null,
});

const score = (
  sourceId: string,
  slot: string,
  condition: JudgeMeta['condition'],
  s: number,
  extra: Partial<JudgeMeta> = {},
) => judgeResult({ sourceId, slot, mode: 'pointwise', condition, ...extra }, { score: s, reason: '' });

const pointwise = resolveBiasOptions({
  mode: 'pointwise',
  probes: ['position', 'length', 'format'],
  noiseFloor: true,
} as BiasConfig);

describe('bias probes: each effect against its own placebo (issue 32 item 9)', () => {
  it('plans a repeat of every effect’s unchanged side: original, plain, and the response shown second', () => {
    const items = [pair('i1')];
    const texts = new Map<string, string>();
    const repeats = planJudge(items, [judge], pointwise, texts).filter((t) => t.meta.sample === 1);
    expect(
      repeats.map((t) => `${t.meta.slot} ${t.meta.shown ? `pair ${t.meta.shown}` : t.meta.condition}`),
    ).toEqual([
      'output_1 original',
      'output_1 plain',
      'output_2 original',
      'output_2 plain',
      'output_1 pair second',
      'output_2 pair second',
    ]);
    // Each repeat is its first ask's request again, as sample 1, and the estimate counts every
    // one as a repeat (the pair-shown one included).
    const judgeStage = biasProbesPlugin.stages.find((st) => st.name === 'judge')!;
    for (const r of repeats) {
      expect(r.request.sample).toBe(1);
      expect(judgeStage.describe!(r).kind).toBe('repeat');
    }
    const pairwise = resolveBiasOptions({
      mode: 'pairwise',
      probes: ['length', 'format'],
      noiseFloor: true,
    } as BiasConfig);
    expect(
      planJudge(items, [judge], pairwise, texts)
        .filter((t) => t.meta.sample === 1)
        .map((t) => `${t.meta.condition} ${t.meta.order}`),
    ).toEqual(['original orig', 'original swap', 'plain orig', 'plain swap']);
  });

  it('reads Markdown against the plain text’s repeat and position against the second’s, with the paired change tests', () => {
    // Six items, one response each scored: the original steady under repeat, the plain text
    // changing on repeat for two items, the second-shown score on one. Markdown moves 4 of 6.
    const items = Array.from({ length: 6 }, (_, i) => pair(`i${i}`));
    const results: TaskResult[] = [];
    const markdownDiff = [1, 1, 2, 1, 0, 0];
    const plainRepeat = [0, 1, 0, 0, -1, 0];
    const longerDiff = [1, 0, 0, 0, 0, 0];
    const secondRepeat = [0, 0, 0, 0, 0, 1];
    const positionDiff = [1, 1, 1, 1, 1, 0];
    items.forEach((it, i) => {
      const s = it.sourceId;
      results.push(
        score(s, 'output_1', 'original', 3),
        score(s, 'output_1', 'original', 3, { sample: 1 }),
        score(s, 'output_1', 'longer', 3 + longerDiff[i]),
        score(s, 'output_1', 'plain', 2),
        score(s, 'output_1', 'plain', 2 + plainRepeat[i], { sample: 1 }),
        score(s, 'output_1', 'markdown', 2 + markdownDiff[i]),
        score(s, 'output_1', 'original', 2 + positionDiff[i], { shown: 'first' }),
        score(s, 'output_1', 'original', 2, { shown: 'second' }),
        score(s, 'output_1', 'original', 2 + secondRepeat[i], { shown: 'second', sample: 1 }),
      );
    });
    const m = metricsOfJ(pointwise, items, results);
    const nf = m.noise_floor!;
    expect(nf.placebo.map((z) => `${z.repeated} ${z.n} ${z.changed}`)).toEqual([
      'original 6 0',
      'plain 6 2',
      'second 6 1',
    ]);
    const row = (effect: string) => nf.excess.find((x) => x.effect === effect)!;
    const md = row('markdown');
    expect(md.repeated).toBe('plain');
    // The plain text's repeat, not the original's (which never changed).
    expect(md.placebo_mean).toBeCloseTo(0 / 6, 12);
    expect(md.excess).toBeCloseTo((5 - 0) / 6, 12);
    // Changed under the probe: 4 (i0–i3); under the repeat: 2 (i1, i4). Only-probe: i0, i2, i3;
    // only-repeat: i4.
    expect([md.changed_probe, md.changed_repeat, md.probe_only, md.repeat_only]).toEqual([4, 2, 3, 1]);
    expect(md.changed_p).toBeCloseTo(binomialTestTwoSided(3, 4, 0.5), 12);
    expect(md.changed_p).toBeCloseTo(0.625, 12);
    const absDiffs = markdownDiff.map((d, i) => Math.abs(d) - Math.abs(plainRepeat[i]));
    expect(md.abs_probe_mean).toBeCloseTo(5 / 6, 12);
    expect(md.abs_repeat_mean).toBeCloseTo(2 / 6, 12);
    expect(md.abs_p).toBeCloseTo(wilcoxonSignedRank(absDiffs)!.p, 12);

    const pos = row('position');
    expect(pos.repeated).toBe('second');
    expect(pos.placebo_mean).toBeCloseTo(1 / 6, 12);
    // Probe changed 5, repeat 1 (i5, where the probe did not): 5 vs 1 discordant.
    expect([pos.changed_probe, pos.changed_repeat, pos.probe_only, pos.repeat_only]).toEqual([5, 1, 5, 1]);
    expect(pos.changed_p).toBeCloseTo(binomialTestTwoSided(5, 6, 0.5), 12);

    const longer = row('longer');
    expect(longer.repeated).toBe('original');
    expect([longer.probe_only, longer.repeat_only]).toEqual([1, 0]);
    // Holm per test across the effects of the judge × category, each hypothesis once.
    const family = nf.excess.filter((x) => x.category === 'all');
    expect(family.map((x) => x.changed_p_holm)).toEqual(holmAdjust(family.map((x) => x.changed_p)));
    expect(family.map((x) => x.abs_p_holm)).toEqual(holmAdjust(family.map((x) => x.abs_p)));

    // The table: each effect under its own placebo, and how many repeated scores changed.
    const table = buildBiasTables(m).find((t) => t.id === 'noise_floor')!;
    expect(table.rows.map((r) => `${r.effect} | ${r.changed} | ${r.changed_repeat ?? ''}`)).toEqual([
      'Repeat − first (placebo) | 0/6 | ',
      'Longer − original | 1/6 | 0/6',
      'Repeat − first, plain (placebo) | 2/6 | ',
      'Markdown − plain | 4/6 | 2/6',
      'Repeat − first, shown second (placebo) | 1/6 | ',
      'Shown first − second | 5/6 | 1/6',
    ]);
    expect(table.columns.find((c) => c.key === 'mcnemar_p')!.method).toBe('exact McNemar');
  });

  it('gives pairwise accuracy per judge × variant against the gold label, with a Wilson interval', () => {
    const opts = resolveBiasOptions({ mode: 'pairwise', probes: ['length'] } as BiasConfig);
    // i1 gold 1, i2 gold 2. Original: orig A (=1 ✓), swap B (=1 ✓), i2 orig B (=2 ✓), swap tie.
    // Longer: i1 orig B (=2 ✗), swap B (=1 ✓), i2 orig A (=1 ✗), swap B (=1 ✗).
    const results = [
      ...bothOrders('i1', 'original', ['A', 'B']),
      ...bothOrders('i2', 'original', ['B', 'tie']),
      ...bothOrders('i1', 'longer', ['B', 'B']),
      ...bothOrders('i2', 'longer', ['A', 'B']),
    ];
    const m = metricsOfJ(opts, [pair('i1', 1), pair('i2', 2)], results);
    expect(m.accuracy!.map((r) => `${r.variant} ${r.correct}/${r.n} ties ${r.ties}`)).toEqual([
      'original 3/4 ties 1',
      'longer 1/4 ties 0',
    ]);
    // Wilson 95% of 3/4, by its formula.
    const z = 1.959963984540054;
    const [k, N] = [3, 4];
    const p = k / N;
    const centre = (p + (z * z) / (2 * N)) / (1 + (z * z) / N);
    const half = (z / (1 + (z * z) / N)) * Math.sqrt((p * (1 - p)) / N + (z * z) / (4 * N * N));
    expect(m.accuracy![0].accuracy_ci[0]).toBeCloseTo(centre - half, 10);
    expect(m.accuracy![0].accuracy_ci[1]).toBeCloseTo(centre + half, 10);
    expect(buildBiasTables(m).some((t) => t.id === 'accuracy')).toBe(true);
    // Pointwise data has no verdict to be right or wrong: no accuracy key.
    expect('accuracy' in metricsOfJ(pointwise, [], [])).toBe(false);
  });
});

// A hand-worked fixture: 10 questions, 2 generators, 2 judges, 3 settings, human labels on one
// generator's answers. Every expected number below was worked out by hand from the records
// (the reasoning is in the comments); interval bounds are statsmodels' values
// (proportion_confint wilson, cohens_kappa) and Newcombe method 10 from
// scripts/gen-refsens-stats-fixtures.py, McNemar p from scipy.stats.binomtest.
import { describe, expect, it } from 'vitest';
import type { Setting, Verdict } from '../../../shared/protocols/reference-sensitivity/types';
import { computeRefSensMetrics, type CalibrationRecord, type VerdictRecord } from './metrics';

const Q = Array.from({ length: 10 }, (_, i) => `q${i + 1}`);
const gold = new Map<string, string[]>([
  ['q1', ['The Eiffel Tower']],
  ['q2', ['Paris', 'City of Paris']],
  ['q3', ['1944']],
  ...[4, 5, 6, 7, 8, 9, 10].map((k): [string, string[]] => [`q${k}`, [`ans${k}`]]),
]);
// G1 is right (EM 1) on q1 q2 q3 q4 q6 q8 q10; G2 on q5 q7 only.
const G1 = ['Eiffel Tower.', 'paris', '1944', 'ans4', 'wrong', 'ans6', 'x', 'ans8', 'y', 'ans10'];
const G2 = ['tower', 'London', 'In 1944', 'no', 'ans5', 'no', 'ans7', 'no', 'no', 'no'];
const truth = (gen: string, i: number) => (gen === 'G1' ? [0, 1, 2, 3, 5, 7, 9] : [4, 6]).includes(i);

const C = 'CORRECT';
const I = 'INCORRECT';
const v = (b: boolean): Verdict => (b ? C : I);

function calib(judge: string, c1: string, c2: string): CalibrationRecord[] {
  // c1/c2: one letter per question, C, I or - (failed)
  const out: CalibrationRecord[] = [];
  Q.forEach((q, i) => {
    for (const [probe, s] of [
      ['C1', c1],
      ['C2', c2],
    ] as const)
      out.push({
        judge,
        sourceId: q,
        language: 'en',
        probe,
        verdict: s[i] === '-' ? null : s[i] === 'C' ? C : I,
      });
  });
  return out;
}

/** A judge's verdicts: truth, with the listed (generator, question index) flipped or failed. */
function judged(
  judge: string,
  setting: Setting,
  flipped: [string, number][],
  failed: [string, number][] = [],
  extracted: Record<string, string> = {},
): VerdictRecord[] {
  return (['G1', 'G2'] as const).flatMap((gen) =>
    Q.map((q, i) => {
      const isFlipped = flipped.some(([g, k]) => g === gen && k === i);
      const isFailed = failed.some(([g, k]) => g === gen && k === i);
      const answer = (gen === 'G1' ? G1 : G2)[i];
      return {
        judge,
        generator: gen,
        sourceId: q,
        language: 'en',
        setting,
        verdict: isFailed ? null : v(truth(gen, i) !== isFlipped),
        extracted: isFailed ? null : (extracted[`${gen}:${q}`] ?? answer),
      };
    }),
  );
}

const verdicts: VerdictRecord[] = [
  // J1 NR accepts wrong G1 q5, q7 and G2 q1, q2; RV is the truth; RC accepts G2 q1.
  ...judged('J1', 'NR', [
    ['G1', 4],
    ['G1', 6],
    ['G2', 0],
    ['G2', 1],
  ]),
  ...judged('J1', 'RV', [], [], { 'G2:q2': 'London city', 'G1:q5': 'WRONG!' }),
  ...judged('J1', 'RC', [['G2', 0]]),
  // J2 NR accepts wrong G1 q9; RV rejects right G2 q5; RC as RV with G1 q10 failed.
  ...judged('J2', 'NR', [['G1', 8]]),
  ...judged('J2', 'RV', [['G2', 4]]),
  ...judged('J2', 'RC', [['G2', 4]], [['G1', 9]]),
];

const humanG2 = (i: number): Verdict => ([0, 4, 6].includes(i) ? C : I); // a person also accepts "tower"

const metrics = computeRefSensMetrics({
  judges: ['J1', 'J2'],
  generators: ['G1', 'G2'],
  languages: ['en'],
  settings: ['NR', 'RV', 'RC'],
  calibration: [...calib('J1', 'CCCCCCCCII', 'CIIIIIIICI'), ...calib('J2', 'CCICCCCCCC', 'CCIIIIIII-')],
  verdicts,
  answers: [
    ...Q.map((q, i) => ({ generator: 'G1', sourceId: q, language: 'en', answer: G1[i], humanLabel: null })),
    ...Q.map((q, i) => ({
      generator: 'G2',
      sourceId: q,
      language: 'en',
      answer: G2[i],
      humanLabel: humanG2(i),
    })),
  ],
  gold,
  usage: [],
  failures: [],
});

const close = (got: [number, number] | null, want: [number, number]) => {
  expect(got).not.toBeNull();
  expect(got![0]).toBeCloseTo(want[0], 12);
  expect(got![1]).toBeCloseTo(want[1], 12);
};

describe('reference-sensitivity metrics on a hand-worked fixture', () => {
  it('calibration: paired C1/C2 rates, CGP and its Newcombe interval', () => {
    const [j1, j2] = metrics.calibration;
    // J1: a=1 (q1), b=7 (q2–q8), c=1 (q9), d=1 (q10)
    expect(j1).toMatchObject({ judge: 'J1', language: 'en', n: 10, c1_accept: 0.8, c2_accept: 0.2 });
    expect(j1.cgp).toBeCloseTo(0.6, 15);
    close(j1.c1_accept_ci, [0.49016247153664183, 0.9433178485456247]);
    close(j1.c2_accept_ci, [0.056682151454375246, 0.5098375284633583]);
    close(j1.cgp_ci, [0.08619258605798974, 0.8376657646934098]);
    // J2: q10's C2 failed, so 9 pairs: a=2 (q1, q2), b=6 (q4–q9), c=0, d=1 (q3)
    expect(j2).toMatchObject({ judge: 'J2', n: 9, c1_accept: 8 / 9, c2_accept: 2 / 9 });
    close(j2.c1_accept_ci, [0.5650002944233438, 0.980109112361455]);
    close(j2.c2_accept_ci, [0.06322510711784671, 0.5474110308930111]);
    // ad − bc = 2 ≤ n/2: Newcombe's corrected φ is 0 (the plain φ gave [0.2533, 0.8344]).
    close(j2.cgp_ci, [0.2076987125461276, 0.8499729998412162]);
  });

  it('acceptance per judge, generator (and all) and setting', () => {
    const get = (judge: string, generator: string, setting: Setting) =>
      metrics.acceptance.find(
        (r) => r.judge === judge && r.generator === generator && r.setting === setting,
      )!;
    const want: [string, string, Setting, number, number][] = [
      ['J1', 'G1', 'NR', 9, 10],
      ['J1', 'G1', 'RV', 7, 10],
      ['J1', 'G1', 'RC', 7, 10],
      ['J1', 'G2', 'NR', 4, 10],
      ['J1', 'G2', 'RV', 2, 10],
      ['J1', 'G2', 'RC', 3, 10],
      ['J1', 'all', 'NR', 13, 20],
      ['J1', 'all', 'RV', 9, 20],
      ['J1', 'all', 'RC', 10, 20],
      ['J2', 'G1', 'NR', 8, 10],
      ['J2', 'G1', 'RV', 7, 10],
      ['J2', 'G1', 'RC', 6, 9],
      ['J2', 'G2', 'NR', 2, 10],
      ['J2', 'G2', 'RV', 1, 10],
      ['J2', 'G2', 'RC', 1, 10],
      ['J2', 'all', 'NR', 10, 20],
      ['J2', 'all', 'RV', 8, 20],
      ['J2', 'all', 'RC', 7, 19],
    ];
    expect(metrics.acceptance).toHaveLength(want.length);
    for (const [j, g, s, k, n] of want) expect(get(j, g, s)).toMatchObject({ n, accept_rate: k / n });
    close(get('J1', 'all', 'NR').accept_rate_ci, [0.43285427668523624, 0.818808175898918]);
    close(get('J2', 'all', 'RC').accept_rate_ci, [0.19149512745135072, 0.5896046683519693]);
    close(get('J2', 'G1', 'RC').accept_rate_ci, [0.3542021355803961, 0.879416181613089]);
  });

  it('flips by direction with exact McNemar p and extraction changes', () => {
    const get = (judge: string, generator: string, transition: string) =>
      metrics.flips.find(
        (r) => r.judge === judge && r.generator === generator && r.transition === transition,
      )!;
    // [judge, generator, transition, n, C→I, I→C, McNemar p, extraction changes]
    const want: [string, string, string, number, number, number, number, number][] = [
      ['J1', 'G1', 'NR-RV', 10, 2, 0, 0.5, 0], // q5 "wrong" vs "WRONG!" normalize alike
      ['J1', 'G2', 'NR-RV', 10, 2, 0, 0.5, 1], // q2 "London" vs "London city"
      ['J1', 'all', 'NR-RV', 20, 4, 0, 0.125, 1],
      ['J1', 'G1', 'RV-RC', 10, 0, 0, 1, 0],
      ['J1', 'G2', 'RV-RC', 10, 0, 1, 1, 1],
      ['J1', 'all', 'RV-RC', 20, 0, 1, 1, 1],
      ['J1', 'G1', 'NR-RC', 10, 2, 0, 0.5, 0],
      ['J1', 'G2', 'NR-RC', 10, 1, 0, 1, 0],
      ['J1', 'all', 'NR-RC', 20, 3, 0, 0.25, 0],
      ['J2', 'G1', 'NR-RV', 10, 1, 0, 1, 0],
      ['J2', 'G2', 'NR-RV', 10, 1, 0, 1, 0],
      ['J2', 'all', 'NR-RV', 20, 2, 0, 0.5, 0],
      ['J2', 'G1', 'RV-RC', 9, 0, 0, 1, 0],
      ['J2', 'G2', 'RV-RC', 10, 0, 0, 1, 0],
      ['J2', 'all', 'RV-RC', 19, 0, 0, 1, 0],
      ['J2', 'G1', 'NR-RC', 9, 1, 0, 1, 0],
      ['J2', 'G2', 'NR-RC', 10, 1, 0, 1, 0],
      ['J2', 'all', 'NR-RC', 19, 2, 0, 0.5, 0],
    ];
    expect(metrics.flips).toHaveLength(want.length);
    for (const [j, g, t, n, c2i, i2c, p, changed] of want) {
      const r = get(j, g, t);
      expect(r).toMatchObject({ n, correct_to_incorrect: c2i, incorrect_to_correct: i2c });
      expect(r.flip_rate).toBeCloseTo((c2i + i2c) / n, 15);
      expect(r.mcnemar_p).toBeCloseTo(p, 12);
      expect(r.extraction_change_rate).toBeCloseTo(changed / n, 15);
    }
    close(get('J1', 'all', 'NR-RV').flip_rate_ci, [0.080657662579798, 0.4160174322518936]);
  });

  it('string baseline: EM and token F1 (SQuAD normalization) and agreement with EM', () => {
    const sb = metrics.string_baseline;
    // G1: EM = F1 = 7/10. G2: EM 2/10; F1: "tower" 2/3, "In 1944" 2/3, q5 1, q7 1 → (10/3)/10
    expect(sb.answers).toEqual([
      { generator: 'G1', language: 'en', n: 10, exact_match: 0.7, token_f1: 0.7 },
      { generator: 'G2', language: 'en', n: 10, exact_match: 0.2, token_f1: expect.closeTo(1 / 3, 12) },
      { generator: 'all', language: 'en', n: 20, exact_match: 0.45, token_f1: expect.closeTo(31 / 60, 12) },
    ]);
    const agree = (judge: string, generator: string, setting: Setting) =>
      sb.em_agreement.find((r) => r.judge === judge && r.generator === generator && r.setting === setting)!;
    const want: [string, string, Setting, number, number][] = [
      ['J1', 'G1', 'NR', 8, 10],
      ['J1', 'G2', 'NR', 8, 10],
      ['J1', 'all', 'NR', 16, 20],
      ['J1', 'all', 'RV', 20, 20],
      ['J1', 'G2', 'RC', 9, 10],
      ['J1', 'all', 'RC', 19, 20],
      ['J2', 'G1', 'NR', 9, 10],
      ['J2', 'all', 'NR', 19, 20],
      ['J2', 'G2', 'RV', 9, 10],
      ['J2', 'G1', 'RC', 9, 9],
      ['J2', 'all', 'RC', 18, 19],
    ];
    for (const [j, g, s, k, n] of want) {
      expect(agree(j, g, s).n).toBe(n);
      expect(agree(j, g, s).em_agreement).toBeCloseTo(k / n, 15);
    }
  });

  it('human labels: accuracy, Cohen’s κ with CI, and NR→RV flips toward the label', () => {
    const h = (judge: string, setting: Setting) =>
      metrics.human.settings.find((r) => r.judge === judge && r.setting === setting)!;
    // J1 NR on G2: judge C/human C q1 q5 q7, judge C/human I q2, rest I/I → [[3,1],[0,6]]
    expect(h('J1', 'NR')).toMatchObject({ n: 10, accuracy: 0.9 });
    expect(h('J1', 'NR').kappa).toBeCloseTo(0.782608695652174, 12);
    close(h('J1', 'NR').kappa_ci, [0.38806151326704325, 1]); // statsmodels: 1.1771558780373046, clipped to κ’s range
    close(h('J1', 'NR').accuracy_ci, [0.5958499732047614, 0.982123786904927]);
    // J1 RV: [[2,0],[1,7]]; J1 RC: [[3,0],[0,7]]
    expect(h('J1', 'RV').kappa).toBeCloseTo(0.7368421052631581, 12);
    close(h('J1', 'RV').kappa_ci, [0.2647771217351938, 1]); // statsmodels: 1.2089070887911224, clipped to κ’s range
    // Perfect agreement: κ's large-sample variance is 0, so no interval (it was the zero-width [1, 1]).
    expect(h('J1', 'RC')).toMatchObject({
      accuracy: 1,
      kappa: 1,
      kappa_ci: null,
      kappa_ci_undefined_reason: 'variance 0',
    });
    // J2 NR: [[2,0],[1,7]]; RV and RC: [[1,0],[2,7]]
    expect(h('J2', 'NR').accuracy).toBe(0.9);
    expect(h('J2', 'RV').accuracy).toBe(0.8);
    expect(h('J2', 'RC').kappa).toBeCloseTo(0.41176470588235303, 12);
    close(h('J2', 'RC').kappa_ci, [-0.1779081628152085, 1]); // statsmodels: 1.0014375745799144, clipped to κ’s range
    // J1 flips q1 (to I, human C: away) and q2 (to I, human I: toward); J2 flips q5 (away)
    expect(metrics.human.nr_rv_flips).toEqual([
      { judge: 'J1', flips: 2, toward_human: 1, toward_human_rate: 0.5 },
      { judge: 'J2', flips: 1, toward_human: 0, toward_human_rate: 0 },
    ]);
  });
});

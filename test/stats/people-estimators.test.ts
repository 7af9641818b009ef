import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  altTest,
  gwetAc,
  humanOnlyEstimate,
  ppiMean,
  ppiLabelBudget,
  neymanBandAllocation,
  ppiPlusPlusMean,
  roganGladen,
  stratifiedPpiMean,
} from '../../src/shared/stats';
import { seededRandom } from '../../src/shared/annotation/random';
import { mulberry32 } from '../../src/shared/random';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/stats/people-estimators.json', import.meta.url), 'utf8'),
) as {
  ppi: {
    y: number[];
    f_labelled: number[];
    f_unlabelled: number[];
    ppi: { estimate: number; se: number; ci: [number, number]; n_eff: number };
    ppipp: { estimate: number; se: number; lambda: number; ci: [number, number]; n_eff: number };
    ppi_small_sample: { se: number; center: number; ci: [number, number] };
    ppipp_small_sample: { se: number; center: number; ci: [number, number] };
    human_only: { estimate: number; se: number };
  }[];
  label_budget: {
    width: number;
    rho: number;
    unlabelled: number;
    rate: number;
    ppi_plus_plus: number;
    human_only: number;
  }[];
  rogan_gladen: {
    tp: number;
    m1: number;
    tn: number;
    m0: number;
    positives: number;
    N: number;
    estimate: number;
    se: number;
    ci: [number, number];
  }[];
};

// Alternative annotator test (Calderon, Reichart & Dror, ACL 2025, arXiv:2501.10970, §3 "the
// alt-test"): leave annotator j out; on each item i that j rated, the alignment S(·, x_i, j) of the
// judge and of h_j with the remaining annotators (ACC, or −RMSE for scores); W^f_ij = 1 if
// S(f) ≥ S(h_j), W^h_ij = 1 if S(h_j) ≥ S(f) (a tie counts for both); ρ^f_j, ρ^h_j their means;
// H0_j: ρ^f_j ≤ ρ^h_j − ε against H1_j: ρ^f_j > ρ^h_j − ε by a one-sided paired t-test;
// Benjamini–Yekutieli over the m annotators at q; winning rate ω = share of H0_j rejected, pass at
// ω ≥ 0.5; average advantage probability ρ = mean_j ρ^f_j. The Python side below is written from
// these definitions alone (SciPy's paired t-test, statsmodels' fdr_by) and reads only the raw labels.
const ALT_TEST_PY = String.raw`
import json, math, sys
import numpy as np
from scipy.stats import ttest_rel
from statsmodels.stats.multitest import multipletests

def alignment(scoring, pred, others):
    if scoring == 'accuracy':
        return float(np.mean([1.0 if pred == o else 0.0 for o in others]))
    return -math.sqrt(float(np.mean([(pred - o) ** 2 for o in others])))

out = []
for case in json.load(sys.stdin)['cases']:
    human, judge, eps, scoring = case['human'], case['judge'], case['epsilon'], case['scoring']
    rows = []
    for j, labels in human.items():
        wf, wh = [], []
        for i, hj in labels.items():
            others = [human[k][i] for k in human if k != j and i in human[k]]
            if i not in judge or not others:
                continue
            sf, sh = alignment(scoring, judge[i], others), alignment(scoring, hj, others)
            wf.append(1.0 if sf >= sh else 0.0)
            wh.append(1.0 if sh >= sf else 0.0)
        wf, wh = np.array(wf), np.array(wh)
        # H0: mean(W^h - W^f) >= eps, i.e. the paired test of W^h - eps against W^f, H1 'less'.
        p = float(ttest_rel(wh - eps, wf, alternative='less').pvalue)
        rows.append({'annotator': j, 'n': len(wf), 'rho_f': float(wf.mean()), 'rho_h': float(wh.mean()),
                     'p': None if math.isnan(p) else p})
    rejected = multipletests([r['p'] for r in rows], alpha=case['q'], method='fdr_by')[0]
    out.append({'rows': rows, 'rejected': [bool(x) for x in rejected],
                'omega': float(np.mean(rejected)), 'rho': float(np.mean([r['rho_f'] for r in rows]))})
print(json.dumps(out))
`;

type Labels = Record<string, Record<string, string | number>>;
interface AltCase {
  name: string;
  scoring: 'accuracy' | 'neg_rmse';
  epsilon: number;
  q: number;
  human: Labels;
  judge: Record<string, string | number>;
}

const CATS = ['pos', 'neg', 'mixed'];
const ITEMS = 40;

/**
 * 4 annotators × 40 items of differing skill (each skips an item now and then), and a judge that
 * agrees with the items' consensus at a planted rate.
 */
function synthetic(seed: number, scoring: AltCase['scoring'], judgeRate: number) {
  const rand = mulberry32(seed);
  const skill = { a1: 0.9, a2: 0.8, a3: 0.65, a4: 0.5 };
  const human: Labels = { a1: {}, a2: {}, a3: {}, a4: {} };
  const judge: Record<string, string | number> = {};
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  for (let i = 0; i < ITEMS; i++) {
    const item = `item-${i}`;
    const truth = scoring === 'accuracy' ? pick(CATS) : 1 + Math.floor(rand() * 5);
    const given: (string | number)[] = [];
    for (const [a, s] of Object.entries(skill)) {
      const label =
        scoring === 'accuracy'
          ? rand() < s
            ? truth
            : pick(CATS.filter((c) => c !== truth))
          : Math.min(5, Math.max(1, (truth as number) + (rand() < s ? 0 : pick([-2, -1, 1, 2]))));
      given.push(label);
      if (rand() >= 0.05) human[a][item] = label;
    }
    // Consensus: the plurality label (first on ties), or the rounded mean score.
    const consensus =
      scoring === 'accuracy'
        ? CATS.reduce((best, c) =>
            given.filter((g) => g === c).length > given.filter((g) => g === best).length ? c : best,
          )
        : Math.round(given.reduce<number>((s, g) => s + (g as number), 0) / given.length);
    judge[item] =
      rand() < judgeRate
        ? consensus
        : scoring === 'accuracy'
          ? pick(CATS.filter((c) => c !== consensus))
          : Math.min(5, Math.max(1, (consensus as number) + pick([-2, -1, 1, 2])));
  }
  return { human, judge };
}

const toMaps = (human: Labels, judge: Record<string, string | number>) => ({
  human: new Map(Object.entries(human).map(([a, m]) => [a, new Map(Object.entries(m))])),
  judge: new Map(Object.entries(judge)),
});

describe('alternative annotator test against SciPy/statsmodels from the paper’s definitions', () => {
  const cases: AltCase[] = [];
  for (const [seed, rate] of [
    [11, 0.9],
    [12, 0.75],
    [13, 0.6],
  ] as const)
    for (const epsilon of [0.2, 0.1])
      cases.push({
        name: `labels, seed ${seed}, judge rate ${rate}, ε ${epsilon}`,
        scoring: 'accuracy',
        epsilon,
        q: 0.05,
        ...synthetic(seed, 'accuracy', rate),
      });
  for (const [seed, rate] of [
    [21, 0.85],
    [22, 0.6],
  ] as const)
    for (const epsilon of [0.2, 0.1])
      cases.push({
        name: `scores, seed ${seed}, judge rate ${rate}, ε ${epsilon}`,
        scoring: 'neg_rmse',
        epsilon,
        q: 0.05,
        ...synthetic(seed, 'neg_rmse', rate),
      });

  let reference: {
    rows: { annotator: string; n: number; rho_f: number; rho_h: number; p: number | null }[];
    rejected: boolean[];
    omega: number;
    rho: number;
  }[] = [];
  beforeAll(() => {
    const res = spawnSync('/usr/bin/python3', ['-c', ALT_TEST_PY], {
      input: JSON.stringify({ cases }),
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(res.stderr);
    reference = JSON.parse(res.stdout);
  });

  cases.forEach((c, k) => {
    it(c.name, () => {
      const { human, judge } = toMaps(c.human, c.judge);
      const r = altTest(human, judge, { epsilon: c.epsilon, q: c.q, scoring: c.scoring });
      const ref = reference[k];
      expect(r.skipped).toEqual([]);
      expect(r.annotators.map((a) => a.annotator)).toEqual(ref.rows.map((x) => x.annotator));
      r.annotators.forEach((a, j) => {
        const x = ref.rows[j];
        expect(a.n).toBe(x.n);
        expect(a.judge_advantage).toBeCloseTo(x.rho_f, 12);
        expect(a.human_advantage).toBeCloseTo(x.rho_h, 12);
        // A constant W^h − W^f has no t statistic in SciPy; the synthetic sets avoid it.
        expect(x.p).not.toBeNull();
        expect(a.p_value!).toBeCloseTo(x.p!, 10);
        expect(a.rejected).toBe(ref.rejected[j]);
      });
      expect(r.winning_rate!).toBeCloseTo(ref.omega, 12);
      expect(r.advantage_probability!).toBeCloseTo(ref.rho, 12);
      expect(r.passed).toBe(ref.omega >= 0.5);
    });
  });

  it('the cases exercise both decisions of the step-up (some annotators rejected, some not)', () => {
    const all = reference.flatMap((x) => x.rejected);
    expect(all).toContain(true);
    expect(all).toContain(false);
    const omegas = reference.map((x) => x.omega);
    expect(omegas.some((w) => w >= 0.5)).toBe(true);
    expect(omegas.some((w) => w < 0.5)).toBe(true);
  });
});

describe('alternative annotator test: behaviour at the extremes', () => {
  // Annotators who disagree often; the items' consensus is their plurality label.
  const rand = mulberry32(7);
  const human: Labels = { a1: {}, a2: {}, a3: {}, a4: {} };
  const consensus: Record<string, string> = {};
  for (let i = 0; i < ITEMS; i++) {
    const item = `item-${i}`;
    const labels = Object.keys(human).map(() => CATS[Math.floor(rand() * CATS.length)]);
    Object.keys(human).forEach((a, k) => (human[a][item] = labels[k]));
    consensus[item] = CATS.reduce((best, c) =>
      labels.filter((l) => l === c).length > labels.filter((l) => l === best).length ? c : best,
    );
  }

  it('a judge that gives every item’s consensus wins against every annotator (ω = 1, passes)', () => {
    const disagree = Object.values(human).map(
      (m) => Object.entries(m).filter(([i, l]) => l !== consensus[i]).length / ITEMS,
    );
    expect(Math.min(...disagree)).toBeGreaterThan(0.25);
    const { human: h, judge } = toMaps(human, consensus);
    const r = altTest(h, judge);
    expect(r.winning_rate).toBe(1);
    expect(r.advantage_probability).toBe(1);
    expect(r.passed).toBe(true);
  });

  it('a judge always wrong (a label no annotator gave) loses against every annotator (ω = 0, fails)', () => {
    const wrong = Object.fromEntries(Object.keys(consensus).map((i) => [i, 'none of these']));
    const { human: h, judge } = toMaps(human, wrong);
    const r = altTest(h, judge);
    expect(r.winning_rate).toBe(0);
    // The judge still ties (S = 0 on both sides) where the left-out annotator matches nobody else.
    const ties = Object.keys(human).map(
      (a) =>
        Object.keys(consensus).filter((i) =>
          Object.keys(human).every((b) => b === a || human[b][i] !== human[a][i]),
        ).length / ITEMS,
    );
    expect(r.advantage_probability!).toBeCloseTo(ties.reduce((s, t) => s + t, 0) / ties.length, 12);
    expect(r.advantage_probability!).toBeLessThan(0.5);
    expect(r.annotators.every((a) => !a.rejected)).toBe(true);
    expect(r.passed).toBe(false);
  });

  it('says it is undefined with fewer than 3 annotators', () => {
    const h = new Map([
      ['a', new Map([['1', 'x']])],
      ['b', new Map([['1', 'x']])],
    ]);
    const r = altTest(h, new Map([['1', 'x']]));
    expect(r.winning_rate).toBeNull();
    expect(r.undefined_reason).toBe('fewer than 3 annotators');
  });
});

describe("Gwet's AC1/AC2 against irrCAC's documented outputs", () => {
  // Gwet (2014) Handbook of Inter-Rater Reliability, 4th ed., p. 120: 4 raters, 12 subjects, 5
  // categories (irrCAC's cac.raw4raters). Values from the irrCAC (Python port) docstring of CAC.gwet().
  const raw4: (number | null)[][] = [
    [1, 1, null, 1],
    [2, 2, 3, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [2, 2, 2, 2],
    [1, 2, 3, 4],
    [4, 4, 4, 4],
    [1, 1, 2, 1],
    [2, 2, 2, 2],
    [null, 5, 5, 5],
    [null, null, 1, 1],
    [null, null, 3, null],
  ];
  it('AC1 on cac.raw4raters: 0.77544 (se 0.14295, 95% CI 0.46081–1, pa 0.81818, pe 0.19032)', () => {
    const r = gwetAc(raw4, [1, 2, 3, 4, 5]);
    expect(r.coefficient!).toBeCloseTo(0.77544, 5);
    expect(r.se!).toBeCloseTo(0.14295, 5);
    expect(r.pa!).toBeCloseTo(0.81818, 5);
    expect(r.pe!).toBeCloseTo(0.19032, 5);
    expect(r.ci![0]).toBeCloseTo(0.46081, 4);
    expect(r.ci![1]).toBe(1);
  });
  it('AC2 with bipolar weights on cac.raw4raters: 0.90037 (se 0.10582, CI 0.66747–1)', () => {
    const w = [
      [1, 0.85714286, 0.66666667, 0.4, 0],
      [0.85714286, 1, 0.93333333, 0.75, 0.4],
      [0.66666667, 0.93333333, 1, 0.93333333, 0.66666667],
      [0.4, 0.75, 0.93333333, 1, 0.85714286],
      [0, 0.4, 0.66666667, 0.85714286, 1],
    ];
    const r = gwetAc(raw4, [1, 2, 3, 4, 5], w);
    expect(r.name).toBe('AC2');
    expect(r.coefficient!).toBeCloseTo(0.90037, 4);
    expect(r.se!).toBeCloseTo(0.10582, 4);
    expect(r.ci![0]).toBeCloseTo(0.66747, 3);
  });
  it('AC1 of two raters equals irrCAC gwet.ac1.table on cont3x3abstractors (0.8493305)', () => {
    // irrCAC overview vignette: rows rater 1, columns rater 2 over Ectopic, AIU, NIU.
    const table = [
      [13, 0, 0],
      [0, 20, 7],
      [0, 4, 56],
    ];
    const cats = ['E', 'A', 'N'];
    const rows: string[][] = [];
    table.forEach((row, i) =>
      row.forEach((c, j) => {
        for (let k = 0; k < c; k++) rows.push([cats[i], cats[j]]);
      }),
    );
    expect(gwetAc(rows, cats).coefficient!).toBeCloseTo(0.8493305, 6);
  });
  it('bounds the interval to [−1, 1] and says when it is undefined', () => {
    const r = gwetAc(
      [
        [1, 2],
        [2, 1],
        [1, 2],
        [1, 1],
      ],
      [1, 2],
    );
    expect(r.ci![0]).toBeGreaterThanOrEqual(-1);
    expect(gwetAc([[1, 1]], [1, 2]).undefined_reason).toBe('fewer than 2 subjects with 2 ratings');
  });
});

describe('PPI, PPI++ and Rogan–Gladen against numpy closed forms', () => {
  for (const [k, c] of fixture.ppi.entries()) {
    it(`case ${k}: n = ${c.y.length}, N = ${c.f_unlabelled.length}`, () => {
      const a = ppiMean(c.y, c.f_labelled, c.f_unlabelled);
      expect(a.estimate!).toBeCloseTo(c.ppi.estimate, 12);
      expect(a.se!).toBeCloseTo(c.ppi.se, 12);
      expect(a.n_eff!).toBeCloseTo(c.ppi.n_eff, 8);
      const b = ppiPlusPlusMean(c.y, c.f_labelled, c.f_unlabelled);
      expect(b.lambda!).toBeCloseTo(c.ppipp.lambda, 12);
      expect(b.estimate!).toBeCloseTo(c.ppipp.estimate, 12);
      expect(b.se!).toBeCloseTo(c.ppipp.se, 12);
      expect(b.n_eff!).toBeCloseTo(c.ppipp.n_eff, 8);
      // On a rate ([0, 1]): Agresti–Min pseudo-labels and the t quantile (numpy/scipy, independently).
      for (const [e, ref] of [
        [ppiMean(c.y, c.f_labelled, c.f_unlabelled, { range: [0, 1] }), c.ppi_small_sample],
        [ppiPlusPlusMean(c.y, c.f_labelled, c.f_unlabelled, { range: [0, 1] }), c.ppipp_small_sample],
      ] as const) {
        expect(e.se!).toBeCloseTo(ref.se, 12);
        expect(e.ci![0]).toBeCloseTo(ref.ci[0], 10);
        expect(e.ci![1]).toBeCloseTo(ref.ci[1], 10);
      }
      const h = humanOnlyEstimate(c.y);
      expect(h.estimate!).toBeCloseTo(c.human_only.estimate, 12);
      expect(h.se!).toBeCloseTo(c.human_only.se, 12);
    });
  }
  for (const [k, c] of fixture.rogan_gladen.entries()) {
    it(`Rogan–Gladen case ${k}`, () => {
      const r = roganGladen({
        testPositives: c.positives,
        testN: c.N,
        truePositives: c.tp,
        m1: c.m1,
        trueNegatives: c.tn,
        m0: c.m0,
      });
      expect(r.se!).toBeCloseTo(c.se, 12);
      expect(r.estimate!).toBeCloseTo(Math.min(1, c.estimate), 12);
      expect(r.ci![0]).toBeCloseTo(Math.max(0, c.ci[0]), 12);
      expect(r.ci![1]).toBeCloseTo(Math.min(1, c.ci[1]), 12);
      expect(r.clipped).toBe(c.ci[1] > 1 || c.ci[0] < 0);
    });
  }
  it('Rogan–Gladen with sensitivity and specificity known reduces to the textbook variance pq / (n J²)', () => {
    // influentialpoints.com, "Estimating confidence interval for true prevalence": with Se and Sp
    // known, Var = p(1 − p) / (n J²), J = Se + Sp − 1. Known = calibration counts so large that their
    // own variance vanishes: Se = 0.9, Sp = 0.8, 300 positives in 1000 → θ = (0.3 + 0.8 − 1)/0.7.
    const big = 1e12;
    const r = roganGladen({
      testPositives: 300,
      testN: 1000,
      truePositives: 0.9 * big,
      m1: big,
      trueNegatives: 0.8 * big,
      m0: big,
    });
    expect(r.estimate!).toBeCloseTo(0.1 / 0.7, 9);
    expect(r.se!).toBeCloseTo(Math.sqrt((0.3 * 0.7) / (1000 * 0.7 ** 2)), 6);
  });
  // Published worked examples, numbers taken from the text (not from our code). Neither states an
  // interval for the corrected rate with the counts behind it, so only the point estimate and the
  // sensitivity and specificity are checked against them.
  it('Rogan–Gladen reproduces a textbook worked example: 100 sows, 34 test-positive, Se 18/20, Sp 64/80 → 0.2', () => {
    // Quaderno di epidemiologia veterinaria, "Prevalenza reale e apparente"
    // (http://www.quadernodiepidemiologia.it/epi/test/11/q1106r5.htm): apparent prevalence 0.34,
    // Se = 18/(18 + 2) = 0.9, Sp = 64/(64 + 16) = 0.8, real prevalence 0.2.
    const r = roganGladen({
      testPositives: 34,
      testN: 100,
      truePositives: 18,
      m1: 20,
      trueNegatives: 64,
      m0: 80,
    });
    expect(r.p_hat).toBe(0.34);
    expect(r.sensitivity).toBe(0.9);
    expect(r.specificity).toBe(0.8);
    expect(r.estimate!).toBeCloseTo(0.2, 12);
  });
  it('Rogan–Gladen reproduces the Santa Clara seroprevalence study’s unweighted test-adjusted 1.2 %', () => {
    // Bendavid et al., Int J Epidemiol 50(2):410–419 (2021), abstract: raw prevalence 1.5 %,
    // specificity 99.5 %, sensitivity 82.8 %, "unweighted prevalence adjusted for test-performance
    // characteristics was 1.2 %". The rates as printed, as counts over 1000.
    const r = roganGladen({
      testPositives: 15,
      testN: 1000,
      truePositives: 828,
      m1: 1000,
      trueNegatives: 995,
      m0: 1000,
    });
    expect(r.estimate!.toFixed(3)).toBe('0.012');
  });
  it('Rogan–Gladen is undefined for a judge no better than chance', () => {
    const r = roganGladen({
      testPositives: 5,
      testN: 10,
      truePositives: 5,
      m1: 10,
      trueNegatives: 4,
      m0: 10,
    });
    expect(r.estimate).toBeNull();
    expect(r.undefined_reason).toBe('judge no better than chance (sensitivity + specificity ≤ 1)');
  });
});

describe('label budget before anyone rates (PPI++ at the optimal λ)', () => {
  for (const c of fixture.label_budget) {
    it(`width ${c.width}, ρ ${c.rho}, N ${c.unlabelled}, rate ${c.rate}: ${c.ppi_plus_plus} vs ${c.human_only}`, () => {
      expect(ppiLabelBudget({ width: c.width, rho: c.rho, unlabelled: c.unlabelled, rate: c.rate })).toEqual({
        ppi_plus_plus: c.ppi_plus_plus,
        human_only: c.human_only,
      });
    });
  }
  it('plans a width PPI++ then reaches (seeded simulation)', () => {
    // A judge with sensitivity 0.85 and specificity 0.8 on a rate of 0.5: ρ(judge, people) is
    // Youden's J scaled, (0.85 + 0.8 − 1) · sqrt(0.25 / (p_f (1 − p_f))) with p_f = 0.525.
    const pf = 0.5 * 0.85 + 0.5 * 0.2;
    const rho = 0.65 * Math.sqrt(0.25 / (pf * (1 - pf)));
    const N = 2000;
    const { ppi_plus_plus: n } = ppiLabelBudget({ width: 0.1, rho, unlabelled: N });
    const rand = seededRandom('budget-check');
    const widths: number[] = [];
    for (let r = 0; r < 300; r++) {
      const draw = (m: number) => {
        const y: number[] = [];
        const f: number[] = [];
        for (let i = 0; i < m; i++) {
          const yi = rand() < 0.5 ? 1 : 0;
          y.push(yi);
          f.push(yi === 1 ? (rand() < 0.85 ? 1 : 0) : rand() < 0.8 ? 0 : 1);
        }
        return { y, f };
      };
      const lab = draw(n!);
      const unl = draw(N);
      const e = ppiPlusPlusMean(lab.y, lab.f, unl.f);
      widths.push(e.ci![1] - e.ci![0]);
    }
    const meanWidth = widths.reduce((a, b) => a + b, 0) / widths.length;
    expect(meanWidth).toBeGreaterThan(0.095);
    expect(meanWidth).toBeLessThan(0.105);
  });
  it('refuses a width outside (0, 1]', () => {
    expect(() => ppiLabelBudget({ width: 0, rho: 0.5, unlabelled: 10 })).toThrow(/width/);
  });
});

describe('coverage with a planted judge error (seeded simulation)', () => {
  // A judge with sensitivity 0.85 and specificity 0.7 over a true rate of 0.35: its naive rate is
  // 0.4925, far off; the corrected estimators must still cover 0.35.
  const theta = 0.35;
  const sens = 0.85;
  const spec = 0.7;
  const N = 2000;
  const reps = 1000;
  for (const n of [50, 500]) {
    it(`PPI, PPI++, stratified PPI++ and Rogan–Gladen cover ≥ 93 % at n = ${n}`, () => {
      const rand = seededRandom(`coverage-${n}`);
      const hits = { ppi: 0, pp: 0, strat: 0, rg: 0 };
      let naiveHits = 0;
      for (let r = 0; r < reps; r++) {
        const draw = (m: number) => {
          const y: number[] = [];
          const f: number[] = [];
          const s: number[] = [];
          for (let i = 0; i < m; i++) {
            const stratum = rand() < 0.5 ? 0 : 1;
            // Two strata with different rates, so stratification has something to use.
            const yi = rand() < (stratum === 0 ? theta - 0.1 : theta + 0.1) ? 1 : 0;
            const fi = yi === 1 ? (rand() < sens ? 1 : 0) : rand() < spec ? 0 : 1;
            y.push(yi);
            f.push(fi);
            s.push(stratum);
          }
          return { y, f, s };
        };
        const lab = draw(n);
        const unl = draw(N);
        const inside = (ci: [number, number] | null) => ci !== null && ci[0] <= theta && theta <= ci[1];
        if (inside(ppiMean(lab.y, lab.f, unl.f, { range: [0, 1] }).ci)) hits.ppi++;
        if (inside(ppiPlusPlusMean(lab.y, lab.f, unl.f, { range: [0, 1] }).ci)) hits.pp++;
        const strata = [0, 1].map((k) => ({
          y: lab.y.filter((_, i) => lab.s[i] === k),
          fLabelled: lab.f.filter((_, i) => lab.s[i] === k),
          fUnlabelled: unl.f.filter((_, i) => unl.s[i] === k),
        }));
        if (inside(stratifiedPpiMean(strata, { range: [0, 1] }).ci)) hits.strat++;
        const tp = lab.y.filter((v, i) => v === 1 && lab.f[i] === 1).length;
        const tn = lab.y.filter((v, i) => v === 0 && lab.f[i] === 0).length;
        const m1 = lab.y.filter((v) => v === 1).length;
        const rg = roganGladen({
          testPositives: unl.f.filter((v) => v === 1).length,
          testN: N,
          truePositives: tp,
          m1,
          trueNegatives: tn,
          m0: n - m1,
        });
        if (inside(rg.ci)) hits.rg++;
        const naive = unl.f.reduce((a, b) => a + b, 0) / N;
        if (Math.abs(naive - theta) < 0.05) naiveHits++;
      }
      expect(hits.ppi / reps).toBeGreaterThanOrEqual(0.93);
      expect(hits.pp / reps).toBeGreaterThanOrEqual(0.93);
      expect(hits.strat / reps).toBeGreaterThanOrEqual(0.93);
      expect(hits.rg / reps).toBeGreaterThanOrEqual(0.93);
      // The planted error is real: the judge alone is never within 0.05 of the truth.
      expect(naiveHits).toBe(0);
    });
  }
});

describe('which items to label: Neyman allocation over the judge-score bands', () => {
  // Hand-worked: 100 labels, three bands of 300, the judge wrong on 10 %, 30 %, 10 %, floor 10.
  // S = √(0.1·0.9) = 0.3, √(0.3·0.7) = 0.45826, 0.3; the 70 after the floors split 0.3 : 0.45826 :
  // 0.3 of 1.05826 → 19.843, 30.314, 19.843 → 19, 30, 19 and the 2 left to the largest remainders
  // (low, high) → 20, 30, 20; with the floors 30, 40, 30.
  const bands = [
    { band: 'low' as const, size: 300, disagreement: 0.1 },
    { band: 'mid' as const, size: 300, disagreement: 0.3 },
    { band: 'high' as const, size: 300, disagreement: 0.1 },
  ];
  it('gives the band where the judge is weakest more, after a floor each', () => {
    expect(neymanBandAllocation({ total: 100, bands, floor: 10 })).toEqual([
      { band: 'low', count: 30 },
      { band: 'mid', count: 40 },
      { band: 'high', count: 30 },
    ]);
  });
  it('keeps the floor when the judge never errs in a band, and no band above its size', () => {
    expect(
      neymanBandAllocation({
        total: 100,
        bands: [
          { band: 'low', size: 300, disagreement: 0 },
          // Neyman would give the small band 10 + 70 · 6/126 = 13.3 of its 12: it keeps 12.
          { band: 'mid', size: 12, disagreement: 0.5 },
          { band: 'high', size: 300, disagreement: 0.2 },
        ],
        floor: 10,
      }),
    ).toEqual([
      { band: 'low', count: 10 },
      { band: 'mid', count: 12 },
      { band: 'high', count: 78 },
    ]);
    // Fewer labels than floors: an even split.
    expect(neymanBandAllocation({ total: 12, bands, floor: 10 }).map((b) => b.count)).toEqual([4, 4, 4]);
    expect(() =>
      neymanBandAllocation({ total: 10, bands: [{ band: 'low', size: 5, disagreement: 2 }] }),
    ).toThrow(/disagreement/);
  });
});

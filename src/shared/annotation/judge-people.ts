// Judge and people together (issue 36; DESIGN.md section 1a): beside "does the judge agree with
// people", what the judge's labels on every item plus people's on a subset say about a quantity
// people care about — a binary verdict's rate (the share labelled with the scale's first label, the
// share preferring response 1, the share scoring at or above a cut) — as naive, human-only, PPI,
// PPI++, stratified PPI++ and Rogan–Gladen estimates with intervals and n_eff; Gwet's AC1/AC2
// among people and between judge and people; and the alternative annotator test per judge.
// Pure: computed inside computeAgreement so the page, the exports and the tests share it.
import {
  altTest,
  DEFAULT_ALT_TEST_EPSILON,
  gwetAc,
  humanOnlyEstimate,
  naiveEstimate,
  ppiMean,
  ppiPlusPlusMean,
  quadraticWeights,
  roganGladen,
  sampleVariance,
  stratifiedPpiMean,
  JUDGE_BANDS,
  type JudgeBand,
  type AltTestResult,
  type Estimate,
  type GwetResult,
  type RoganGladenResult,
} from '../stats';
import type { JudgeRating, RatingScale, RatingValue } from './types';

/** The binary verdict the estimates are about. */
export interface EstimateTarget {
  /** 'first label' (labels), 'response 1 preferred' (preferences), 'score at or above' (scores). */
  kind: 'first label' | 'response 1 preferred' | 'score at or above';
  /** The label, or the cut for scores. */
  positive: string | number;
  /** In words, for captions: e.g. "share labelled CORRECT". */
  text: string;
}

export interface JudgeEstimates {
  judge: string;
  target: EstimateTarget;
  /** Items with a judge verdict and a human reference (the calibration set). */
  n_labelled: number;
  /** Items with a judge verdict and no human reference (set items unresolved, units outside the set). */
  n_unlabelled: number;
  /**
   * Human labels of the rarer verdict among the labelled items: below RARER_VERDICT_MIN the
   * intervals are outside what docs/VALIDATION.md checked (≥ 93 % down to about 5), and the tables say so.
   */
  rarer_verdict_labels: number;
  /**
   * A pilot's judge–person disagreement per judge-score band (the label budget's allocation reads
   * it): labelled items of the band, and the disagreement share smoothed as (k + 1)/(n + 2), so a
   * band where a small pilot saw no disagreement still gets a Neyman weight; null with no items.
   */
  band_disagreement: { band: JudgeBand; labelled: number; disagreement: number | null }[];
  estimates: (Estimate | RoganGladenResult)[];
  /** Present when the items have more than one category. */
  stratified?: Estimate;
  /** Judge vs the human reference, two raters: AC1 (labels), AC2 with quadratic weights (ordered scales). */
  gwet: GwetResult;
  alt_test: AltTestResult;
}

export interface JudgeAndPeople {
  target: EstimateTarget;
  /** AC1 / AC2 among the annotators. */
  people_gwet: GwetResult;
  judges: JudgeEstimates[];
}

export interface JudgePeopleInput {
  scale: RatingScale;
  /** `stratum`: the set's sampling stratum (`judge-<band> × <category>`), for the band disagreement. */
  items: { itemKey: string; category: string | null; stratum?: string | null }[];
  human: { itemKey: string; annotator: string; value: RatingValue }[];
  /** The human reference per item (adjudicated, median or majority), as computeAgreement built it. */
  reference: ReadonlyMap<string, { numeric: number; category: RatingValue }>;
  /** Judges' ratings on the set's items. */
  judges: JudgeRating[];
  /** Judges' ratings on the experiment's units outside the set (PPI's unlabelled items). */
  unlabelledJudges?: JudgeRating[];
  altTestEpsilon?: number;
  /**
   * The labelled items were chosen as the judge's least sure, not drawn at random. Every estimate
   * that reads people's labels assumes a random sample of the units (PPI's labelled set,
   * Rogan–Gladen's calibration set, people alone): on the hardest units they are biased, so they are
   * left undefined with that reason, and only the judge alone is estimated.
   */
  chosenNotRandom?: boolean;
}

/**
 * Human labels of the rarer verdict below which a corrected estimate's interval is untested: the
 * validation (docs/VALIDATION.md, planted judges at label budgets 50–500) holds ≥ 93 % down to
 * θ = 10 % at n = 50, about 5 of them, since PPI's small-sample corrections (stats/ppi.ts). With
 * fewer, the rectifier's variance rests on two or three disagreements, and the note says so.
 */
export const RARER_VERDICT_MIN: Partial<Record<Estimate['method'], number>> = {
  ppi: 5,
  'ppi++': 5,
  'stratified ppi++': 5,
  'rogan-gladen': 5,
};

export const NOT_RANDOM_REASON = 'items chosen as the judge’s least sure, not drawn at random' as const;

/** The cut for scores: the upper half of the scale (1–5 → ≥ 4, 1–10 → ≥ 6). */
export function scoreCut(scale: { min: number; max: number }): number {
  return Math.floor((scale.min + scale.max) / 2) + 1;
}

export function estimateTarget(scale: RatingScale): EstimateTarget {
  if (scale.kind === 'label')
    return { kind: 'first label', positive: scale.labels[0], text: `share labelled ${scale.labels[0]}` };
  if (scale.kind === 'preference')
    return {
      kind: 'response 1 preferred',
      positive: '1',
      text: 'share preferring response 1 (ties count as not)',
    };
  const cut = scoreCut(scale);
  return { kind: 'score at or above', positive: cut, text: `share scoring ≥ ${cut}` };
}

function indicator(scale: RatingScale, target: EstimateTarget, value: RatingValue): number | null {
  if (scale.kind === 'score') {
    const v = Number(value);
    return Number.isFinite(v) ? (v >= Number(target.positive) ? 1 : 0) : null;
  }
  return String(value) === String(target.positive) ? 1 : 0;
}

/** The scale's categories with the weights AC2 uses (ordered scales) or none (labels: AC1). */
function gwetScale(scale: RatingScale): { categories: (string | number)[]; weights?: number[][] } {
  if (scale.kind === 'score') {
    const cats = Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i);
    return { categories: cats, weights: quadraticWeights(cats) };
  }
  // Preferences are ordered (2 better < tie < 1 better), as in ICC and ordinal α.
  if (scale.kind === 'preference')
    return { categories: ['2', 'tie', '1'], weights: quadraticWeights([-1, 0, 1]) };
  return { categories: [...scale.labels] };
}

/** A rating as one of gwetScale's categories: scores rounded half up onto the scale. */
function onePoint(scale: RatingScale, v: RatingValue): string | number {
  if (scale.kind !== 'score') return String(v);
  return Math.min(scale.max, Math.max(scale.min, Math.floor(Number(v) + 0.5)));
}

function peopleGwet(input: JudgePeopleInput): GwetResult {
  const { categories, weights } = gwetScale(input.scale);
  const annotators = [...new Set(input.human.map((h) => h.annotator))].sort();
  const byItem = new Map<string, Map<string, RatingValue>>();
  for (const h of input.human) {
    const m = byItem.get(h.itemKey) ?? new Map<string, RatingValue>();
    m.set(h.annotator, input.scale.kind === 'score' ? Number(h.value) : String(h.value));
    byItem.set(h.itemKey, m);
  }
  const rows = [...byItem.values()].map((m) => annotators.map((a) => m.get(a) ?? null));
  return gwetAc(rows, categories, weights);
}

export function judgeAndPeople(input: JudgePeopleInput): JudgeAndPeople {
  const { scale, reference } = input;
  const target = estimateTarget(scale);
  const category = new Map(input.items.map((i) => [i.itemKey, i.category ?? '(none)']));
  const bandOfItem = new Map(
    input.items.map((i) => [i.itemKey, JUDGE_BANDS.find((b) => i.stratum?.startsWith(`judge-${b} × `))]),
  );
  const judges = [...new Set(input.judges.map((j) => j.judge))].sort();
  const { categories, weights } = gwetScale(scale);
  const humanByAnnotator = new Map<string, Map<string, string | number>>();
  for (const h of input.human) {
    const m = humanByAnnotator.get(h.annotator) ?? new Map<string, string | number>();
    m.set(h.itemKey, scale.kind === 'score' ? Number(h.value) : String(h.value));
    humanByAnnotator.set(h.annotator, m);
  }
  const out: JudgeEstimates[] = [];
  for (const judge of judges) {
    const lab: {
      itemKey: string;
      y: number;
      f: number;
      stratum: string;
      judgeCat: RatingValue;
      humanCat: RatingValue;
    }[] = [];
    const unl: { f: number; stratum: string }[] = [];
    for (const r of input.judges) {
      if (r.judge !== judge) continue;
      const f = indicator(scale, target, r.value);
      if (f === null) continue;
      const ref = reference.get(r.itemKey);
      const stratum = category.get(r.itemKey) ?? r.category ?? '(none)';
      if (ref) {
        const y =
          scale.kind === 'score'
            ? ref.numeric >= Number(target.positive)
              ? 1
              : 0
            : indicator(scale, target, ref.category)!;
        lab.push({ itemKey: r.itemKey, y, f, stratum, judgeCat: r.value, humanCat: ref.category });
      } else unl.push({ f, stratum });
    }
    for (const r of input.unlabelledJudges ?? []) {
      if (r.judge !== judge || reference.has(r.itemKey)) continue;
      const f = indicator(scale, target, r.value);
      if (f !== null) unl.push({ f, stratum: r.category ?? '(none)' });
    }
    const y = lab.map((p) => p.y);
    const fl = lab.map((p) => p.f);
    const fu = unl.map((p) => p.f);
    const range: [number, number] = [0, 1];
    const tp = lab.filter((p) => p.y === 1 && p.f === 1).length;
    const tn = lab.filter((p) => p.y === 0 && p.f === 0).length;
    const m1 = lab.filter((p) => p.y === 1).length;
    const estimates: (Estimate | RoganGladenResult)[] = [
      naiveEstimate([...fl, ...fu], { range }),
      humanOnlyEstimate(y, { range }),
      ppiMean(y, fl, fu, { range }),
      ppiPlusPlusMean(y, fl, fu, { range }),
      roganGladen({
        testPositives: fu.filter((v) => v === 1).length,
        testN: fu.length,
        truePositives: tp,
        m1,
        trueNegatives: tn,
        m0: lab.length - m1,
        humanVariance: sampleVariance(y),
      }),
    ];
    if (input.chosenNotRandom)
      for (const [i, e] of estimates.entries())
        if (e.method !== 'naive')
          estimates[i] = {
            method: e.method,
            estimate: null,
            se: null,
            ci: null,
            clipped: false,
            n_eff: null,
            ...(e.method === 'rogan-gladen' ? { sensitivity: null, specificity: null, p_hat: null } : {}),
            undefined_reason: NOT_RANDOM_REASON,
          } as Estimate | RoganGladenResult;
    const strata = [...new Set([...lab.map((p) => p.stratum), ...unl.map((p) => p.stratum)])].sort();
    const stratified =
      !input.chosenNotRandom && strata.length > 1 && fu.length > 0
        ? stratifiedPpiMean(
            strata.map((s) => ({
              y: lab.filter((p) => p.stratum === s).map((p) => p.y),
              fLabelled: lab.filter((p) => p.stratum === s).map((p) => p.f),
              fUnlabelled: unl.filter((p) => p.stratum === s).map((p) => p.f),
            })),
            { range },
          )
        : undefined;
    const judgeValues = new Map(
      input.judges
        .filter((r) => r.judge === judge)
        .map((r) => [r.itemKey, onePoint(scale, r.value)] as const),
    );
    const band_disagreement = JUDGE_BANDS.map((band) => {
      const inBand = lab.filter((p) => bandOfItem.get(p.itemKey) === band);
      const k = inBand.filter((p) => p.y !== p.f).length;
      return {
        band,
        labelled: inBand.length,
        disagreement: inBand.length ? (k + 1) / (inBand.length + 2) : null,
      };
    });
    out.push({
      judge,
      target,
      n_labelled: lab.length,
      band_disagreement,
      n_unlabelled: unl.length,
      rarer_verdict_labels: Math.min(m1, lab.length - m1),
      estimates,
      ...(stratified ? { stratified } : {}),
      gwet: gwetAc(
        lab.map((p) => [onePoint(scale, p.judgeCat), onePoint(scale, p.humanCat)]),
        categories,
        weights,
      ),
      alt_test: altTest(humanByAnnotator, judgeValues, {
        epsilon: input.altTestEpsilon ?? DEFAULT_ALT_TEST_EPSILON,
        scoring: scale.kind === 'score' ? 'neg_rmse' : 'accuracy',
      }),
    });
  }
  return { target, people_gwet: peopleGwet(input), judges: out };
}

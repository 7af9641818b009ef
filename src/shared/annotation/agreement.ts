// The agreement report (DESIGN.md section 5d): among people, judge vs the human median (scores)
// or majority (labels, preferences), by human-quality band and by category, the decision at a
// threshold on Spearman's rho with its interval, and calibration mappings with k-fold CV.
// Pure: the same function serves the dashboard, the exports and the tests.
import {
  cohensKappa,
  crossValidate,
  fleissKappa,
  foldAssignment,
  icc21,
  isotonicFit,
  kendallTauB,
  krippendorffAlpha,
  linearFit,
  median,
  pearsonR,
  spearmanInterval,
  exactAgreement,
  normalQuantile,
  type CI,
  type KappaCiUndefinedReason,
  type Knot,
  type RhoCiUndefinedReason,
} from '../stats';
import type { JudgeRating, RatingScale, RatingValue } from './types';
import { judgeAndPeople, type JudgeAndPeople } from './judge-people';
import { checkAccuracy, type CheckAccuracyRow } from './check-accuracy';

/** Below this, people do not agree well enough to validate any judge on the task. */
export const PEOPLE_AGREEMENT_FLOOR = 0.6;
export const DEFAULT_THRESHOLD = 0.8;
/** Items a category needs for its own calibration mapping. */
export const MIN_MAPPING_ITEMS = 20;

export interface HumanLabel {
  itemKey: string;
  annotator: string;
  value: RatingValue;
}

export interface AgreementInput {
  scale: RatingScale;
  /** `stratum`: the set's sampling stratum, for the judge-and-people band disagreement. */
  items: { itemKey: string; category: string | null; stratum?: string | null }[];
  human: HumanLabel[];
  /**
   * Adjudicated labels (one per item at most): where present, the item's human reference is the
   * adjudicated label, not the median or majority of the annotators' labels.
   */
  adjudicated?: { itemKey: string; value: RatingValue }[];
  judges: JudgeRating[];
  threshold?: number;
  /** Seeds the cross-validation folds (the set's uid). */
  seed: string;
  folds?: number;
  /** Judges' ratings on the experiment's units outside the set: PPI's unlabelled items. */
  unlabelledJudges?: JudgeRating[];
  /** The alternative annotator test's cost–benefit ε (default 0.2, the authors' value for experts). */
  altTestEpsilon?: number;
  /** The set holds the judge's least-sure units, chosen, not drawn at random (judge-people.ts). */
  chosenNotRandom?: boolean;
}

export interface InterAnnotator {
  n_items: number;
  n_annotators: number;
  annotators: string[];
  /** Items every annotator rated (what ICC and Fleiss' kappa use). */
  n_complete: number;
  icc21: number | null;
  icc21_ci: CI | null;
  krippendorff_alpha: number | null;
  alpha_level: 'nominal' | 'ordinal';
  fleiss_kappa: number | null;
  /** The measure the warning looks at: ICC for scores and preferences, Fleiss' kappa for labels (alpha without them). */
  primary: 'icc21' | 'fleiss_kappa' | 'krippendorff_alpha';
  primary_value: number | null;
  /** primary_value < 0.6: the task looks ill-defined for validating a judge. */
  warning: boolean;
}

/** 'undefined': ρ does not exist (a side is constant), so there is nothing to decide on. */
export type Decision = 'replace' | 'mix' | 'undecided' | 'undefined';

/** Which side made ρ undefined. */
export type DecisionUndefinedReason = 'judge constant' | 'human constant' | 'both constant';

export interface AgreementRow {
  judge: string;
  variant: 'raw' | 'debiased';
  n: number;
  spearman_rho: number | null;
  spearman_rho_ci: CI | null;
  /** Present when ρ's interval is undefined: a constant side, ρ = ±1, or fewer than 4 items. */
  spearman_rho_ci_undefined_reason?: RhoCiUndefinedReason;
  pearson_r: number | null;
  kendall_tau_b: number | null;
  kappa: number | null;
  kappa_ci: CI | null;
  /** Present when κ has a value but no interval (its variance is 0). */
  kappa_ci_undefined_reason?: KappaCiUndefinedReason;
  kappa_weights: 'quadratic' | 'none';
  exact_agreement: number | null;
}

export interface JudgeHumanRow extends AgreementRow {
  decision: Decision;
  /** Undecided: about how many more rated items would make the interval clear the threshold. */
  more_items: number | null;
  /** Present when the decision is 'undefined': which side is constant. */
  decision_reason?: DecisionUndefinedReason;
  /**
   * Present when the decision rests on ρ alone: at ρ = ±1 the Fisher-z interval does not exist,
   * so 'replace' (or 'mix') is the point value's and comes with this warning.
   */
  decision_warning?: 'ρ = ±1, no interval';
}

export interface BandRow extends AgreementRow {
  band: 'low' | 'mid' | 'high';
}

export interface CategoryRow extends AgreementRow {
  category: string;
}

export interface MappingRow {
  judge: string;
  category: string;
  n: number;
  knots: Knot[];
  linear: { slope: number; intercept: number };
  k: number;
  mae_before: number;
  mae_after: number;
  mae_linear: number;
  rho_before: number | null;
  rho_after: number | null;
  rho_linear: number | null;
}

export interface ScatterPoint {
  judge: string;
  variant: 'raw' | 'debiased';
  itemKey: string;
  category: string | null;
  judgeValue: number;
  human: number;
}

export interface AgreementReport {
  scale: RatingScale;
  threshold: number;
  inter_annotator: InterAnnotator;
  judge_human: JudgeHumanRow[];
  bands: BandRow[];
  categories: CategoryRow[];
  calibration_mapping: MappingRow[];
  points: ScatterPoint[];
  /** Items without a human reference (no labels, or a tied majority, and no adjudicated label). */
  unresolved_items: number;
  /** Items whose human reference is an adjudicated label. */
  adjudicated_items: number;
  /** Corrected estimates, Gwet's AC1/AC2 and the alternative annotator test (judge-people.ts). */
  judge_and_people: JudgeAndPeople;
  /**
   * Each automatic check's sensitivity and specificity for the scale's `positive` label
   * (check-accuracy.ts); present only on such a scale.
   */
  check_accuracy?: CheckAccuracyRow[];
}

/**
 * Numbers for correlations: scores as they are; preferences +1 (output 1 better), 0 (tie), -1
 * (output 2 better); labels by their position on the scale, the first label highest (CORRECT = 1).
 */
export function numericValue(scale: RatingScale, value: RatingValue): number | null {
  if (scale.kind === 'score') return typeof value === 'number' ? value : Number(value);
  if (scale.kind === 'preference') return value === '1' ? 1 : value === '2' ? -1 : value === 'tie' ? 0 : null;
  const i = scale.labels.indexOf(String(value));
  return i < 0 ? null : scale.labels.length - 1 - i;
}

/** The categories kappa uses: the scale points, the preference options, the labels. */
export function scaleCategories(scale: RatingScale): RatingValue[] {
  if (scale.kind === 'score')
    return Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i);
  if (scale.kind === 'preference') return ['1', '2', 'tie'];
  return [...scale.labels];
}

/** Is the value a point of the scale? */
export function onScale(scale: RatingScale, value: RatingValue): boolean {
  if (scale.kind === 'score')
    return Number.isInteger(value) && (value as number) >= scale.min && (value as number) <= scale.max;
  return scaleCategories(scale).includes(String(value));
}

/**
 * The human reference of an item: the median of the scores (rounded half up to a scale point for
 * kappa and exact agreement), or the most frequent label (null when two labels tie for most).
 */
export function humanReference(
  scale: RatingScale,
  values: readonly RatingValue[],
): { numeric: number; category: RatingValue } | null {
  if (values.length === 0) return null;
  if (scale.kind === 'score') {
    const m = median(values.map(Number))!;
    return { numeric: m, category: Math.floor(m + 0.5) };
  }
  const counts = new Map<string, number>();
  for (const v of values) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  if (sorted.length > 1 && sorted[0][1] === sorted[1][1]) return null;
  const category = sorted[0][0];
  return { numeric: numericValue(scale, category)!, category };
}

function interAnnotator(input: AgreementInput): InterAnnotator {
  const { scale } = input;
  const annotators = [...new Set(input.human.map((h) => h.annotator))].sort();
  const byItem = new Map<string, Map<string, RatingValue>>();
  for (const h of input.human) {
    const m = byItem.get(h.itemKey) ?? new Map<string, RatingValue>();
    m.set(h.annotator, h.value);
    byItem.set(h.itemKey, m);
  }
  const rated = [...byItem.entries()];
  const complete = rated.filter(([, m]) => annotators.every((a) => m.has(a)));
  // Scores and preferences are ordered (output 1 better > tie > output 2 better), so ICC and an
  // ordinal alpha apply to them on the numeric coding; labels are nominal.
  const ordinal = scale.kind !== 'label';
  let icc: ReturnType<typeof icc21> | null = null;
  if (ordinal && annotators.length >= 2) {
    icc = icc21(complete.map(([, m]) => annotators.map((a) => numericValue(scale, m.get(a)!)!)));
  }
  const level = ordinal ? 'ordinal' : 'nominal';
  const alpha =
    annotators.length >= 2
      ? krippendorffAlpha(
          rated.map(([, m]) => annotators.map((a) => (m.has(a) ? numericValue(scale, m.get(a)!) : null))),
          level,
        ).alpha
      : null;
  let fleiss: number | null = null;
  if (scale.kind !== 'score' && annotators.length >= 2 && complete.length > 0) {
    const cats = scaleCategories(scale).map(String);
    fleiss = fleissKappa(
      complete.map(([, m]) => cats.map((c) => annotators.filter((a) => String(m.get(a)) === c).length)),
    );
  }
  const primary =
    ordinal && icc?.icc != null ? 'icc21' : fleiss !== null ? 'fleiss_kappa' : 'krippendorff_alpha';
  const primaryValue = primary === 'icc21' ? (icc?.icc ?? null) : primary === 'fleiss_kappa' ? fleiss : alpha;
  return {
    n_items: rated.length,
    n_annotators: annotators.length,
    annotators,
    n_complete: complete.length,
    icc21: icc?.icc ?? null,
    icc21_ci: icc?.ci ?? null,
    krippendorff_alpha: alpha,
    alpha_level: level,
    fleiss_kappa: fleiss,
    primary,
    primary_value: primaryValue,
    warning: primaryValue !== null && primaryValue < PEOPLE_AGREEMENT_FLOOR,
  };
}

interface Pair {
  itemKey: string;
  category: string | null;
  judgeNumeric: number;
  judgeCategory: RatingValue;
  humanNumeric: number;
  humanCategory: RatingValue;
}

function agreementOf(scale: RatingScale, pairs: readonly Pair[]): Omit<AgreementRow, 'judge' | 'variant'> {
  const x = pairs.map((p) => p.judgeNumeric);
  const y = pairs.map((p) => p.humanNumeric);
  const s = spearmanInterval(x, y);
  const weights = scale.kind === 'score' ? 'quadratic' : 'none';
  const k = cohensKappa(
    pairs.map((p) => p.judgeCategory),
    pairs.map((p) => p.humanCategory),
    weights,
    scaleCategories(scale),
  );
  return {
    n: pairs.length,
    spearman_rho: s.rho,
    spearman_rho_ci: s.ci,
    ...(s.ci_undefined_reason ? { spearman_rho_ci_undefined_reason: s.ci_undefined_reason } : {}),
    pearson_r: pearsonR(x, y),
    kendall_tau_b: kendallTauB(x, y),
    kappa: k.kappa,
    kappa_ci: k.ci,
    ...(k.ci_undefined_reason ? { kappa_ci_undefined_reason: k.ci_undefined_reason } : {}),
    kappa_weights: weights,
    exact_agreement: exactAgreement(
      pairs.map((p) => String(p.judgeCategory)),
      pairs.map((p) => String(p.humanCategory)),
    ),
  };
}

type DecisionFields = Pick<JudgeHumanRow, 'decision' | 'more_items' | 'decision_reason' | 'decision_warning'>;

/**
 * The decision at the threshold, applied with the interval: its lower end at or above → replace;
 * its upper end below → mix; straddling → undecided, with about how many more items would shrink
 * the interval to clear the threshold at the same rho. The interval's own spread is what shrinks:
 * its half-width on the z scale, (atanh hi − atanh lo)/2 = q · se (spearmanInterval's jackknife),
 * is taken as q · sqrt(f/(n − 3)) and scaled to n' items as sqrt(f/(n' − 3)), so the count follows
 * the spread the data showed (until the jackknife, it assumed Bonett–Wright's 1 + rho²/2, which on
 * 1–5 ratings is about half the real variance at high rho and promised too few items).
 * Without rho (a constant side, `constant` says which) → undefined. At rho = ±1 there is no
 * interval: the point value decides, with a warning.
 */
export function decide(
  rho: number | null,
  ci: CI | null,
  n: number,
  threshold: number,
  constant?: DecisionUndefinedReason,
): DecisionFields {
  if (rho === null) {
    return constant
      ? { decision: 'undefined', more_items: null, decision_reason: constant }
      : { decision: 'undecided', more_items: null };
  }
  if (ci === null && n >= 4 && Math.abs(rho) >= 1) {
    return {
      decision: rho >= threshold ? 'replace' : 'mix',
      more_items: null,
      decision_warning: 'ρ = ±1, no interval',
    };
  }
  if (ci === null) return { decision: 'undecided', more_items: null };
  if (ci[0] >= threshold) return { decision: 'replace', more_items: null };
  if (ci[1] < threshold) return { decision: 'mix', more_items: null };
  const gap = Math.abs(Math.atanh(Math.max(-0.999999, Math.min(0.999999, rho))) - Math.atanh(threshold));
  if (gap < 1e-9) return { decision: 'undecided', more_items: null };
  const halfZ = (Math.atanh(ci[1]) - Math.atanh(ci[0])) / 2;
  const q = normalQuantile(0.975);
  const factor = (halfZ / q) ** 2 * (n - 3);
  const needed = Math.ceil((q / gap) ** 2 * factor + 3);
  return { decision: 'undecided', more_items: Math.max(1, needed - n) };
}

/** Which side of the pairs is constant (so ρ is undefined), if one is and there are pairs to see it. */
function constantSide(pairs: readonly Pair[]): DecisionUndefinedReason | undefined {
  if (pairs.length < 2) return undefined;
  const same = (v: readonly number[]) => v.every((x) => x === v[0]);
  const judge = same(pairs.map((p) => p.judgeNumeric));
  const human = same(pairs.map((p) => p.humanNumeric));
  return judge && human ? 'both constant' : judge ? 'judge constant' : human ? 'human constant' : undefined;
}

/** The 1/3 and 2/3 quantiles (linear interpolation, as numpy's default). */
export function tercileCuts(values: readonly number[]): [number, number] {
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => {
    const h = (s.length - 1) * p;
    const lo = Math.floor(h);
    return s[lo] + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]) - s[lo]);
  };
  return [q(1 / 3), q(2 / 3)];
}

export function bandOf(v: number, cuts: [number, number]): 'low' | 'mid' | 'high' {
  return v <= cuts[0] ? 'low' : v <= cuts[1] ? 'mid' : 'high';
}

/** A numeric (e.g. debiased, averaged) rating back on the scale's categories, for kappa. */
function toCategory(scale: RatingScale, v: number): RatingValue {
  if (scale.kind === 'score') return Math.min(scale.max, Math.max(scale.min, Math.floor(v + 0.5)));
  // Preferences are coded +1 / 0 / −1 (numericValue); an average leaning either way is that side.
  if (scale.kind === 'preference') return v > 0 ? '1' : v < 0 ? '2' : 'tie';
  const last = scale.labels.length - 1;
  return scale.labels[last - Math.min(last, Math.max(0, Math.round(v)))];
}

export function computeAgreement(input: AgreementInput): AgreementReport {
  const { scale } = input;
  const threshold = input.threshold ?? DEFAULT_THRESHOLD;
  const categories = new Map(input.items.map((i) => [i.itemKey, i.category]));
  const valuesByItem = new Map<string, RatingValue[]>();
  for (const h of input.human) {
    if (!categories.has(h.itemKey)) continue;
    valuesByItem.set(h.itemKey, [...(valuesByItem.get(h.itemKey) ?? []), h.value]);
  }
  const adjudicated = new Map((input.adjudicated ?? []).map((a) => [a.itemKey, a.value]));
  const reference = new Map<string, { numeric: number; category: RatingValue }>();
  let unresolved = 0;
  let settled = 0;
  for (const item of input.items) {
    const a = adjudicated.get(item.itemKey);
    const numeric = a === undefined ? null : numericValue(scale, a);
    const r =
      numeric !== null && a !== undefined
        ? { numeric, category: a }
        : humanReference(scale, valuesByItem.get(item.itemKey) ?? []);
    if (numeric !== null) settled++;
    if (r) reference.set(item.itemKey, r);
    else unresolved++;
  }
  const cuts = reference.size > 0 ? tercileCuts([...reference.values()].map((r) => r.numeric)) : null;

  const judges = [...new Set(input.judges.map((j) => j.judge))].sort();
  const judgeHuman: JudgeHumanRow[] = [];
  const bands: BandRow[] = [];
  const byCategory: CategoryRow[] = [];
  const mappings: MappingRow[] = [];
  const points: ScatterPoint[] = [];
  for (const judge of judges) {
    const ratings = input.judges.filter((j) => j.judge === judge && reference.has(j.itemKey));
    const variants: ('raw' | 'debiased')[] = ratings.some((r) => typeof r.debiased === 'number')
      ? ['raw', 'debiased']
      : ['raw'];
    for (const variant of variants) {
      const pairs: Pair[] = [];
      for (const r of ratings) {
        const numeric = variant === 'raw' ? numericValue(scale, r.value) : (r.debiased ?? null);
        if (numeric === null || !Number.isFinite(numeric)) continue;
        const h = reference.get(r.itemKey)!;
        pairs.push({
          itemKey: r.itemKey,
          category: categories.get(r.itemKey) ?? null,
          judgeNumeric: numeric,
          judgeCategory: variant === 'raw' ? r.value : toCategory(scale, numeric),
          humanNumeric: h.numeric,
          humanCategory: h.category,
        });
      }
      const base = { judge, variant, ...agreementOf(scale, pairs) };
      judgeHuman.push({
        ...base,
        ...decide(base.spearman_rho, base.spearman_rho_ci, base.n, threshold, constantSide(pairs)),
      });
      for (const p of pairs) {
        points.push({
          judge,
          variant,
          itemKey: p.itemKey,
          category: p.category,
          judgeValue: p.judgeNumeric,
          human: p.humanNumeric,
        });
      }
      if (variant !== 'raw') continue;
      if (cuts) {
        for (const band of ['low', 'mid', 'high'] as const) {
          const inBand = pairs.filter((p) => bandOf(p.humanNumeric, cuts) === band);
          bands.push({ judge, variant, band, ...agreementOf(scale, inBand) });
        }
      }
      const cats = [...new Set(pairs.map((p) => p.category ?? '(none)'))].sort();
      for (const category of cats) {
        const inCat = pairs.filter((p) => (p.category ?? '(none)') === category);
        byCategory.push({ judge, variant, category, ...agreementOf(scale, inCat) });
      }
      if (scale.kind === 'score') {
        const groups: [string, Pair[]][] = [['all', pairs]];
        for (const category of cats) {
          const inCat = pairs.filter((p) => (p.category ?? '(none)') === category);
          if (cats.length > 1 && inCat.length >= MIN_MAPPING_ITEMS) groups.push([category, inCat]);
        }
        for (const [category, group] of groups) {
          const m = mappingOf(
            judge,
            category,
            group,
            input.folds ?? 5,
            `${input.seed}\u0000${judge}\u0000${category}`,
          );
          if (m) mappings.push(m);
        }
      }
    }
  }
  return {
    scale,
    threshold,
    inter_annotator: interAnnotator({
      ...input,
      human: input.human.filter((h) => categories.has(h.itemKey)),
    }),
    judge_human: judgeHuman,
    bands,
    categories: byCategory,
    calibration_mapping: mappings,
    points,
    unresolved_items: unresolved,
    adjudicated_items: settled,
    judge_and_people: judgeAndPeople({
      scale,
      items: input.items,
      human: input.human.filter((h) => categories.has(h.itemKey)),
      reference,
      judges: input.judges,
      unlabelledJudges: input.unlabelledJudges,
      altTestEpsilon: input.altTestEpsilon,
      chosenNotRandom: input.chosenNotRandom,
    }),
    ...(scale.kind === 'label' && scale.positive !== undefined
      ? { check_accuracy: checkAccuracy(scale, reference, input.judges) }
      : {}),
  };
}

function mappingOf(
  judge: string,
  category: string,
  pairs: readonly Pair[],
  folds: number,
  seed: string,
): MappingRow | null {
  const x = pairs.map((p) => p.judgeNumeric);
  const y = pairs.map((p) => p.humanNumeric);
  const k = Math.min(folds, pairs.length);
  if (k < 2) return null;
  const cv = crossValidate(x, y, foldAssignment(pairs.length, k, seed));
  return {
    judge,
    category,
    n: pairs.length,
    knots: isotonicFit(x, y),
    linear: linearFit(x, y),
    k,
    mae_before: cv.mae_before,
    mae_after: cv.mae_isotonic,
    mae_linear: cv.mae_linear,
    rho_before: cv.rho_before,
    rho_after: cv.rho_isotonic,
    rho_linear: cv.rho_linear,
  };
}

// Planted truths (issue 33): data drawn from models whose parameter the statistic estimates is
// known in closed form, so coverage and error rates are measured against the truth itself, not
// against another estimator. Each generator says what its truth is and why.
import { bernoulli, beta, binomial, categorical, multinomial, normal, type Rng } from './rng';

/** k successes of n at rate p (the verdict-level rates: accuracy, flip, acceptance). */
export const binaryRate = (rng: Rng, n: number, p: number): number => binomial(rng, n, p);

/**
 * Tie-half scores: 1 with pCorrect, ½ with pTie, else 0; mean pCorrect + pTie / 2.
 */
export function tieHalfScores(rng: Rng, n: number, pCorrect: number, pTie: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const u = rng();
    out[i] = u < pCorrect ? 1 : u < pCorrect + pTie ? 0.5 : 0;
  }
  return out;
}

/** The four cells of a paired 2×2 table: a = yes/yes, b = yes/no, c = no/yes, d = no/no. */
export type Cells = [number, number, number, number];

/**
 * Cell probabilities of paired binary outcomes with margins p1 (first), p2 (second) and
 * correlation φ: p11 = p1 p2 + φ √(p1 q1 p2 q2). Throws when φ is not attainable for the margins.
 */
export function pairedProbabilities(p1: number, p2: number, phi: number): Cells {
  const p11 = p1 * p2 + phi * Math.sqrt(p1 * (1 - p1) * p2 * (1 - p2));
  const cells: Cells = [p11, p1 - p11, p2 - p11, 1 - p1 - p2 + p11];
  if (cells.some((c) => c < -1e-12))
    throw new RangeError(`φ = ${phi} not attainable at p1 = ${p1}, p2 = ${p2}`);
  return cells.map((c) => Math.max(0, c)) as Cells;
}

export function pairedBinary(rng: Rng, n: number, probs: Cells): Cells {
  return multinomial(rng, n, probs) as Cells;
}

/**
 * Items judged in two orders with item-level heterogeneity and a position bias β: each item has
 * a merit share r ~ Beta(a, a) for its answer X; with probability β the judge picks whatever is
 * shown first, else X with probability r. X is first in the original order and second in the
 * swapped one, so an item's two verdicts share r. Returns per item [first picked in orig, first
 * picked in swap]. Truths, with m2 = E[r(1 − r)] = a / (2(2a + 1)):
 * first-position rate (1 + β) / 2; P(first both times) = β + (1 − β)² m2; P(second both
 * times) = (1 − β)² m2, so the discordant share is β + 2(1 − β)² m2 and their difference β.
 */
export function twoOrderItems(rng: Rng, nItems: number, bias: number, a: number): [boolean, boolean][] {
  const out: [boolean, boolean][] = [];
  for (let i = 0; i < nItems; i++) {
    const r = beta(rng, a, a);
    const orig = bernoulli(rng, bias) || bernoulli(rng, r);
    const swap = bernoulli(rng, bias) || bernoulli(rng, 1 - r);
    out.push([orig, swap]);
  }
  return out;
}

export function twoOrderTruth(
  bias: number,
  a: number,
): { rate: number; bothFirst: number; bothSecond: number } {
  const m2 = a / (2 * (2 * a + 1));
  return {
    rate: (1 + bias) / 2,
    bothFirst: bias + (1 - bias) ** 2 * m2,
    bothSecond: (1 - bias) ** 2 * m2,
  };
}

/**
 * Clustered verdicts: item accuracy r ~ Beta(μκ, (1 − μ)κ) (concentration κ; small κ, strong
 * clustering), `perItem` verdicts per item (two orders) each correct with r. Truth: μ.
 */
export function clusteredRate(rng: Rng, nItems: number, mu: number, kappa: number, perItem = 2): number[] {
  const out = new Array<number>(nItems);
  for (let i = 0; i < nItems; i++) {
    const r = beta(rng, mu * kappa, (1 - mu) * kappa);
    let k = 0;
    for (let j = 0; j < perItem; j++) if (rng() < r) k++;
    out[i] = k;
  }
  return out;
}

/**
 * Two conditions on shared items: condition A as clusteredRate; condition B's verdicts are
 * fresh draws at the item's r, each flipped with probability f. Rates μ and μ(1 − f) + (1 − μ)f,
 * so the truth of B − A is f(1 − 2μ); the items' r makes the conditions correlated.
 */
export function pairedClusters(
  rng: Rng,
  nItems: number,
  mu: number,
  kappa: number,
  flip: number,
  perItem = 2,
): { a: number[]; b: number[] } {
  const a = new Array<number>(nItems);
  const b = new Array<number>(nItems);
  for (let i = 0; i < nItems; i++) {
    const r = beta(rng, mu * kappa, (1 - mu) * kappa);
    let ka = 0;
    let kb = 0;
    for (let j = 0; j < perItem; j++) {
      if (rng() < r) ka++;
      if (rng() < r !== rng() < flip) kb++;
    }
    a[i] = ka;
    b[i] = kb;
  }
  return { a, b };
}

/** Paired differences of a few shapes (what bias probes compare per item). */
export type DiffShape = 'normal' | 'likert-symmetric' | 'likert-skewed';

/**
 * - normal: N(shift, 1); mean = shift.
 * - likert-symmetric: −2..2 with P = .1, .2, .4, .2, .1 (zeros and ties: Wilcoxon's approximate
 *   branch), plus shift added to every value; mean = shift.
 * - likert-skewed: 0 with .75, +1 with .15, +4 with .10, minus 0.55 (a few large jumps, mean 0),
 *   plus shift; mean = shift. Skewed: what the t interval is least comfortable with.
 */
export function diffs(rng: Rng, n: number, shape: DiffShape, shift: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    if (shape === 'normal') out[i] = shift + normal(rng);
    else if (shape === 'likert-symmetric') out[i] = shift + categorical(rng, [0.1, 0.2, 0.4, 0.2, 0.1]) - 2;
    else {
      const u = rng();
      out[i] = shift + (u < 0.75 ? 0 : u < 0.9 ? 1 : 4) - 0.55;
    }
  }
  return out;
}

/**
 * Labels of m raters on n items over categories with prevalence π: each item has a true
 * category c ~ π; each rater independently gives c with probability s, else a draw from π.
 * Every rater's margin is π and two raters agree with probability s² + (1 − s²) Σπ², so
 * Cohen's κ (two raters), Fleiss' κ and Krippendorff's α (any metric: disagreeing pairs are
 * independent draws from π) all equal s² in the population; planted κ → s = √κ. Cohen's
 * quadratic-weighted κ equals s² too (the construction is p_ij = (1 − s²)π_iπ_j + s²π_iδ_ij).
 */
export function raterLabels(
  rng: Rng,
  n: number,
  m: number,
  prevalence: readonly number[],
  kappa: number,
): number[][] {
  const s = Math.sqrt(kappa);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const c = categorical(rng, prevalence);
    const row = new Array<number>(m);
    for (let j = 0; j < m; j++) row[j] = rng() < s ? c : categorical(rng, prevalence);
    out.push(row);
  }
  return out;
}

/**
 * Scores x_ij = r_i + c_j + e_ij with r ~ N(0, σr²), c ~ N(0, σc²), e ~ N(0, σe²): the two-way
 * random model whose ICC(2,1) (absolute agreement) is σr² / (σr² + σc² + σe²). With σr² = icc,
 * σc² = raterShare · (1 − icc) and σe² = the rest, the truth is icc. The k raters are drawn
 * afresh for every sample (random raters, what ICC(2,1) generalises to).
 */
export function iccRatings(rng: Rng, n: number, k: number, icc: number, raterShare: number): number[][] {
  const sr = Math.sqrt(icc);
  const sc = Math.sqrt(raterShare * (1 - icc));
  const se = Math.sqrt((1 - raterShare) * (1 - icc));
  const cols = Array.from({ length: k }, () => sc * normal(rng));
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const r = sr * normal(rng);
    out.push(cols.map((c) => r + c + se * normal(rng)));
  }
  return out;
}

/** Pearson r of a bivariate normal whose Spearman ρ is rhoS: r = 2 sin(π ρ_S / 6). */
export const pearsonForSpearman = (rhoS: number): number => 2 * Math.sin((Math.PI * rhoS) / 6);
/** Kendall's τ of a bivariate normal with Pearson r: (2/π) asin r. */
export const kendallForPearson = (r: number): number => (2 / Math.PI) * Math.asin(r);

/** n pairs of a standard bivariate normal with correlation r. */
export function bivariateNormal(rng: Rng, n: number, r: number): { x: number[]; y: number[] } {
  const x = new Array<number>(n);
  const y = new Array<number>(n);
  const c = Math.sqrt(1 - r * r);
  for (let i = 0; i < n; i++) {
    const a = normal(rng);
    x[i] = a;
    y[i] = r * a + c * normal(rng);
  }
  return { x, y };
}

/**
 * Units a judge labels with planted error (issue 36): each unit's true verdict y ~ Bernoulli(θ_s)
 * in one of two equally likely strata with rates θ − δ and θ + δ (so the overall rate is θ, and a
 * stratified estimator has something to use), and the judge's f = 1 with probability `sens` when
 * y = 1, f = 0 with probability `spec` when y = 0. Truth for every estimator: θ. The judge alone
 * estimates θ·sens + (1 − θ)(1 − spec) instead.
 */
export function judgedUnits(
  rng: Rng,
  m: number,
  theta: number,
  sens: number,
  spec: number,
  delta = 0,
): { y: number[]; f: number[]; stratum: number[] } {
  const y = new Array<number>(m);
  const f = new Array<number>(m);
  const stratum = new Array<number>(m);
  for (let i = 0; i < m; i++) {
    const s = rng() < 0.5 ? 0 : 1;
    const yi = rng() < (s === 0 ? theta - delta : theta + delta) ? 1 : 0;
    stratum[i] = s;
    y[i] = yi;
    f[i] = yi === 1 ? (rng() < sens ? 1 : 0) : rng() < spec ? 0 : 1;
  }
  return { y, f, stratum };
}

/**
 * The dose–response design of Judge-LS (issue 37): `nItems` items, each judged at every level and
 * in two orders; the measured ratio of an item's text at a level is the level plus N(0, 0.03)
 * (clipped to [0, 1]; 0 and 1 exact, as the English itself and a full translation measure); an
 * item flips with probability b_i + slope · x, b_i = base · 2 · Beta(a, a) (item heterogeneity, mean
 * base). With 2 · base + slope ≤ 1 nothing is clipped, so the marginal slope is exactly `slope`.
 */
export function doseItems(
  rng: Rng,
  nItems: number,
  levels: readonly number[],
  slope: number,
  base: number,
  a: number,
): { cluster: string; x: number; y: number }[] {
  const out: { cluster: string; x: number; y: number }[] = [];
  for (let i = 0; i < nItems; i++) {
    const b = base * 2 * beta(rng, a, a);
    for (const level of levels) {
      const x = level === 0 || level === 1 ? level : Math.min(1, Math.max(0, level + 0.03 * normal(rng)));
      for (let order = 0; order < 2; order++)
        out.push({ cluster: `i${i}`, x, y: bernoulli(rng, b + slope * x) ? 1 : 0 });
    }
  }
  return out;
}

/**
 * Items judged correct or not in two conditions (English and a target language), each in two
 * orders, under the null of no average language effect but with item-level effects: each item
 * has a logit difficulty b ~ N(1, 1) and an effect size e = |N(0, τ)| that lowers the accuracy of
 * one of its two conditions, which one by a fair coin. Both orders of an item share b and e, as a
 * confusing translation hurts an item in both orders. By the coin, the two conditions' accuracies
 * have the same law, so the population-average change is exactly 0 (the McNemar null), while an
 * item's pairs are not independent. Returns per item its count of EN-only correct pairs and of
 * target-only correct pairs over its two orders.
 */
export function twoOrderLanguageItems(rng: Rng, nItems: number, tau: number): [number, number][] {
  const logistic = (x: number) => 1 / (1 + Math.exp(-x));
  const out = new Array<[number, number]>(nItems);
  for (let i = 0; i < nItems; i++) {
    const b = 1 + normal(rng);
    const e = Math.abs(tau * normal(rng));
    const hurtTarget = bernoulli(rng, 0.5);
    const pEn = logistic(hurtTarget ? b : b - e);
    const pTarget = logistic(hurtTarget ? b - e : b);
    const counts: [number, number] = [0, 0];
    for (let order = 0; order < 2; order++) {
      const en = bernoulli(rng, pEn);
      const target = bernoulli(rng, pTarget);
      if (en !== target) counts[en ? 0 : 1]++;
    }
    out[i] = counts;
  }
  return out;
}

/**
 * n items on a 1–5 scale as a judge and three people rate them (bench/validate-e2e/agreement.ts's
 * law, drawn without the pipeline): a true score q uniform on 1–5; the judge gives q, or with
 * probability `judgeNoise` a uniform score; the reference is the median of three people who each
 * give q, or with probability `humanNoise` a uniform score. Truth: plantedAgreement(judgeNoise,
 * humanNoise).rho. Heavily tied and far from a bivariate normal: ρ varies about twice as much at
 * high ρ as Bonett–Wright's variance assumes.
 */
export function agreeOrRandomRatings(
  rng: Rng,
  n: number,
  judgeNoise: number,
  humanNoise: number,
): { x: number[]; y: number[] } {
  const u5 = () => 1 + Math.floor(rng() * 5);
  const x = new Array<number>(n);
  const y = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const q = u5();
    x[i] = rng() < judgeNoise ? u5() : q;
    y[i] = [0, 1, 2].map(() => (rng() < humanNoise ? u5() : q)).sort((a, b) => a - b)[1];
  }
  return { x, y };
}

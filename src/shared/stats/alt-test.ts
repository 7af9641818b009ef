// The Alternative Annotator Test (Calderon, Reichart & Dror, ACL 2025, "The Alternative Annotator
// Test for LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators with LLMs",
// arXiv:2501.10970), by the paper's definitions (§3; the authors' notebook at
// github.com/nitaytech/AltTest computes the same): leave one annotator out; on each item that
// annotator rated, score the judge and the left-out annotator against the remaining annotators
// (accuracy for categories, −RMSE for numbers); W_judge = 1 if the judge scores at least as well,
// W_human = 1 if the annotator does. Per annotator, a one-sided one-sample t-test of d = W_human − W_judge
// against ε (H1: mean d < ε, i.e. the judge's advantage probability exceeds the annotator's minus
// ε); Benjamini–Yekutieli over the annotators at q; the winning rate ω is the share rejected, and
// the judge passes at ω ≥ 0.5. ε is the cost–benefit allowance: the authors suggest 0.2 for expert
// annotators, 0.15 for skilled ones and 0.1 for crowd workers.
import { studentTTwoSidedP } from './special';

/** The authors' suggestion for expert annotators; 0.15 skilled, 0.1 crowd workers. */
export const DEFAULT_ALT_TEST_EPSILON = 0.2;
export const DEFAULT_ALT_TEST_Q = 0.05;
/** The paper recommends at least three annotators (with two there is no consensus to represent). */
export const MIN_ALT_TEST_ANNOTATORS = 3;
/** The reference implementation skips annotators with fewer items (the t-test's normality). */
export const MIN_ALT_TEST_ITEMS = 30;

export type AltTestScoring = 'accuracy' | 'neg_rmse';

export interface AltTestAnnotatorRow {
  annotator: string;
  n: number;
  /** P(judge at least as good as this annotator) on the annotator's items. */
  judge_advantage: number;
  /** P(annotator at least as good as the judge). */
  human_advantage: number;
  p_value: number | null;
  rejected: boolean;
}

export type AltTestUndefinedReason = 'fewer than 3 annotators' | 'no annotator with enough items';

export interface AltTestResult {
  epsilon: number;
  q: number;
  scoring: AltTestScoring;
  annotators: AltTestAnnotatorRow[];
  /** Annotators left out for having fewer than `minItems` scoreable items. */
  skipped: { annotator: string; n: number }[];
  winning_rate: number | null;
  /** ρ: the mean of the per-annotator judge advantage probabilities. */
  advantage_probability: number | null;
  passed: boolean | null;
  undefined_reason?: AltTestUndefinedReason;
}

export interface AltTestOptions {
  epsilon?: number;
  q?: number;
  scoring?: AltTestScoring;
  minItems?: number;
  /** The paper's ≥ 3; the reference implementation itself runs with 2. */
  minAnnotators?: number;
}

function score(scoring: AltTestScoring, pred: string | number, others: readonly (string | number)[]): number {
  if (scoring === 'accuracy') return others.filter((o) => String(o) === String(pred)).length / others.length;
  const mse = others.reduce<number>((s, o) => s + (Number(pred) - Number(o)) ** 2, 0) / others.length;
  return -Math.sqrt(mse);
}

/** One-sided p of a one-sample t-test, H1: mean < mu (scipy ttest_1samp alternative='less'). */
function tTestLess(values: readonly number[], mu: number): number | null {
  const n = values.length;
  const m = values.reduce((s, v) => s + v, 0) / n;
  const v = values.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1);
  // A constant d: t is ±∞ (scipy's p is then 0 or 1), or undefined when d equals ε exactly.
  if (!(v > 0)) return m < mu ? 0 : m > mu ? 1 : null;
  const t = (m - mu) / Math.sqrt(v / n);
  const two = studentTTwoSidedP(t, n - 1);
  return t < 0 ? two / 2 : 1 - two / 2;
}

/** Benjamini–Yekutieli step-up at q: which hypotheses are rejected. */
export function benjaminiYekutieli(pValues: readonly number[], q: number): boolean[] {
  const m = pValues.length;
  const h = Array.from({ length: m }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  let last = -1;
  order.forEach(([p], k) => {
    if (p <= ((k + 1) / m) * (q / h)) last = k;
  });
  const out = new Array<boolean>(m).fill(false);
  for (let k = 0; k <= last; k++) out[order[k][1]] = true;
  return out;
}

/**
 * `human` maps annotator → item → label; `judge` maps item → label. Items need at least two
 * annotators (one left out, one to compare against) and a judge label.
 */
export function altTest(
  human: ReadonlyMap<string, ReadonlyMap<string, string | number>>,
  judge: ReadonlyMap<string, string | number>,
  opts: AltTestOptions = {},
): AltTestResult {
  const epsilon = opts.epsilon ?? DEFAULT_ALT_TEST_EPSILON;
  const q = opts.q ?? DEFAULT_ALT_TEST_Q;
  const scoring = opts.scoring ?? 'accuracy';
  const minItems = opts.minItems ?? MIN_ALT_TEST_ITEMS;
  const minAnnotators = opts.minAnnotators ?? MIN_ALT_TEST_ANNOTATORS;
  const base = { epsilon, q, scoring };
  const annotators = [...human.keys()];
  if (annotators.length < minAnnotators)
    return {
      ...base,
      annotators: [],
      skipped: [],
      winning_rate: null,
      advantage_probability: null,
      passed: null,
      undefined_reason: 'fewer than 3 annotators',
    };
  const raters = new Map<string, string[]>();
  for (const a of annotators)
    for (const item of human.get(a)!.keys()) raters.set(item, [...(raters.get(item) ?? []), a]);
  const rows: Omit<AltTestAnnotatorRow, 'rejected'>[] = [];
  const skipped: { annotator: string; n: number }[] = [];
  for (const a of annotators) {
    const items = [...human.get(a)!.keys()].filter((i) => judge.has(i) && (raters.get(i)?.length ?? 0) >= 2);
    if (items.length < minItems) {
      skipped.push({ annotator: a, n: items.length });
      continue;
    }
    const wJudge: number[] = [];
    const wHuman: number[] = [];
    for (const i of items) {
      const others = raters
        .get(i)!
        .filter((b) => b !== a)
        .map((b) => human.get(b)!.get(i)!);
      const h = score(scoring, human.get(a)!.get(i)!, others);
      const f = score(scoring, judge.get(i)!, others);
      wJudge.push(f >= h ? 1 : 0);
      wHuman.push(h >= f ? 1 : 0);
    }
    const d = wHuman.map((x, k) => x - wJudge[k]);
    rows.push({
      annotator: a,
      n: items.length,
      judge_advantage: wJudge.reduce((s, x) => s + x, 0) / items.length,
      human_advantage: wHuman.reduce((s, x) => s + x, 0) / items.length,
      p_value: tTestLess(d, epsilon),
    });
  }
  if (rows.length === 0)
    return {
      ...base,
      annotators: [],
      skipped,
      winning_rate: null,
      advantage_probability: null,
      passed: null,
      undefined_reason: 'no annotator with enough items',
    };
  // d ≡ ε has no t statistic (scipy: NaN, never rejected): p = 1 for the step-up.
  const rejected = benjaminiYekutieli(
    rows.map((r) => r.p_value ?? 1),
    q,
  );
  const winning = rejected.filter(Boolean).length / rows.length;
  return {
    ...base,
    annotators: rows.map((r, i) => ({ ...r, rejected: rejected[i] })),
    skipped,
    winning_rate: winning,
    advantage_probability: rows.reduce((s, r) => s + r.judge_advantage, 0) / rows.length,
    passed: winning >= 0.5,
  };
}

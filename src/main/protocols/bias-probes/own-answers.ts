// The `own-answers` measure (self-preference; DESIGN.md §5c): observational, nothing is
// perturbed. On the items where exactly one response was written by the judge's own model, the
// judge's win score of that response (its original verdicts, both orders averaged) is read
// against the human label on the same pair, paired per item, with length controlled by
// stratifying on which response is longer. Pure over the pairs `effectPairs` builds, so the
// profile row, this section and the verdict links read the same units.
import type { OwnAnswersRow, OwnEstimate } from '../../../shared/protocols/bias-probes/types';
import {
  clipInterval,
  clusteredPairedEffect,
  studentTTwoSidedP,
  studentTUpperQuantile,
} from '../../../shared/stats';
import type { EffectSpec } from '../../../shared/protocols/bias-probes/probe-types';
import type { BiasOptions } from './config';

/** One (item, order) of an own-answers effect: the own response's win score and the human's. */
export interface OwnUnit {
  sourceId: string;
  category: string | null;
  /** The judge's win score of its own response in this order (1 win, ½ tie, 0 loss). */
  win: number;
  /** 1 when the humans preferred the judge's own response, else 0. */
  ref: number;
  /** The own response has more tokens than the other one. */
  longer: boolean;
}

/** What an item pairs: the own response's slot, if exactly one of the two is the judge's own. */
export function ownSlot(
  effect: EffectSpec,
  judgeModel: string,
  models: readonly (string | undefined)[],
  opts: BiasOptions,
): { slot: 1 | 2 } | 'both' | null {
  const own = models.map((m) => m !== undefined && effect.ownAnswer!(judgeModel, m, opts));
  if (own[0] && own[1]) return 'both';
  return own[0] ? { slot: 1 } : own[1] ? { slot: 2 } : null;
}

const NO_ITEM = 'no item';

function estimate(values: readonly number[], range: [number, number]): OwnEstimate {
  if (!values.length) return { n: 0, mean: null, ci: null, ci_undefined: NO_ITEM };
  const e = clusteredPairedEffect(
    values,
    values.map((_, i) => String(i)),
    range,
  );
  return {
    n: values.length,
    mean: e.mean,
    ci: e.ci,
    ...(e.ci ? {} : { ci_undefined: e.ci_undefined_reason ?? 'every value is equal' }),
  };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: readonly number[]) => {
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};

/**
 * The equal-weight mean of the two length strata's excess, as a length-balanced comparison reads
 * it: neither "own answer longer" nor "own answer shorter" dominates because the judge's model
 * writes longer answers. Welch's t on the two strata (Satterthwaite df), clipped to [−1, 1].
 */
function lengthBalanced(
  longer: readonly number[],
  other: readonly number[],
): OwnAnswersRow['length_balanced'] {
  const n = longer.length + other.length;
  const none = (why: string) => ({ n, mean: null, ci: null, ci_undefined: why, p: null, df: null });
  if (longer.length < 2 || other.length < 2)
    return none(
      `length cannot be balanced: ${longer.length} item(s) where the own answer is longer and ` +
        `${other.length} where it is not (2 each are needed)`,
    );
  const est = (mean(longer) + mean(other)) / 2;
  const a1 = variance(longer) / longer.length;
  const a2 = variance(other) / other.length;
  const se = Math.sqrt(a1 + a2) / 2;
  if (se === 0)
    return {
      ...none('every item’s difference is equal within each stratum, so the interval has no width'),
      mean: est,
    };
  const df = (a1 + a2) ** 2 / (a1 ** 2 / (longer.length - 1) + a2 ** 2 / (other.length - 1));
  const q = studentTUpperQuantile(0.025, df);
  return {
    n,
    mean: est,
    ci: clipInterval([est - q * se, est + q * se], [-1, 1]),
    p: studentTTwoSidedP(est / se, df),
    df,
  };
}

/**
 * The section's row of one judge × category. `excess` takes the profile row's Wilcoxon p and Holm
 * (the caller fills them), so the two agree.
 */
export function ownAnswersRow(
  head: {
    judge: string;
    category: string;
    effect: string;
    judge_model: string;
    own_models: string[];
    both_own: number;
  },
  units: readonly OwnUnit[],
): OwnAnswersRow {
  const byItem = new Map<string, OwnUnit[]>();
  for (const u of units) byItem.set(u.sourceId, [...(byItem.get(u.sourceId) ?? []), u]);
  const items = [...byItem.values()].map((us) => ({
    win: mean(us.map((u) => u.win)),
    ref: us[0].ref,
    longer: us[0].longer,
  }));
  const diffs = items.map((i) => i.win - i.ref);
  const longer = items.filter((i) => i.longer).map((i) => i.win - i.ref);
  const other = items.filter((i) => !i.longer).map((i) => i.win - i.ref);
  const row: OwnAnswersRow = {
    ...head,
    n_pairs: items.length,
    self_win_rate: estimate(
      items.map((i) => i.win),
      [0, 1],
    ),
    reference_win_rate: estimate(
      items.map((i) => i.ref),
      [0, 1],
    ),
    excess: { ...estimate(diffs, [-1, 1]), p: null, p_method: null, p_holm: null },
    strata: [
      { stratum: 'own_longer', excess: estimate(longer, [-1, 1]) },
      { stratum: 'own_not_longer', excess: estimate(other, [-1, 1]) },
    ],
    length_balanced: lengthBalanced(longer, other),
  };
  if (!items.length)
    row.undefined_reason =
      `no item has exactly one response by the judge's own model (judge model ${head.judge_model}; ` +
      `answer models counted as its own: ${head.own_models.length ? head.own_models.join(', ') : 'none in the data'})`;
  return row;
}

// The hybrid as a workflow (issue 36): the judge screens every unit, people refine the ones the
// judge is least sure about. Three signs of doubt, each read from the stored answers:
//   - boundary: a score within `margin` points of a cut (by default the pass mark the corrected
//     estimates count, scoreCut), so a small change of the score moves the unit to the other side;
//   - position: the two orders of a pairwise question name different responses (the verdict
//     depends on where a response was shown, not on the responses);
//   - repeat: the same request asked again (the noise floor's repeats) gave another answer.
// Pure: the core hands it the protocol's units, ratings and single answers (`JudgeAsk`).
import { scoreCut } from './judge-people';
import type { JudgeRating, RatingScale, RatingValue } from './types';

export const LEAST_SURE_CRITERIA = ['position', 'repeat', 'boundary'] as const;
export type LeastSureCriterion = (typeof LEAST_SURE_CRITERIA)[number];

/**
 * One answer of a judge about a unit, before orders and repeats are merged into its rating: on the
 * unit's scale, a preference already named by the item's outputs ('1' is output 1 in either order).
 */
export interface JudgeAsk {
  itemKey: string;
  judge: string;
  /** The order the two responses were shown in; null where a unit is asked about in one order only. */
  order: 'orig' | 'swap' | null;
  /** 0 for a first ask, k for the k-th repeat of the same request. */
  sample: number;
  value: RatingValue;
}

export type LeastSureReason =
  | {
      criterion: 'boundary';
      judge: string;
      score: number;
      /** The cut: a score ≥ cut is on its upper side. */
      cut: number;
      /** Score points the score is from the other side (1: the next point down or up crosses it). */
      distance: number;
    }
  /** The first asks' two orders (a repeat's orders are compared with their first asks instead). */
  | { criterion: 'position'; judge: string; orig: RatingValue; swap: RatingValue }
  | { criterion: 'repeat'; judge: string; order: 'orig' | 'swap' | null; values: RatingValue[] };

export interface LeastSureItem {
  itemKey: string;
  itemId: number;
  category: string | null;
  reasons: LeastSureReason[];
}

/** Why a criterion cannot find anything in this experiment. */
export type LeastSureUnavailable =
  'not a score scale' | 'every unit is asked in one order' | 'no repeated answers (the noise floor is off)';

export interface LeastSureOptions {
  criteria?: readonly LeastSureCriterion[];
  /** Score points from a cut that still count as near it (default 1). */
  margin?: number;
  /** Score cuts (a score ≥ cut is above); default the pass mark of the corrected estimates. */
  cuts?: readonly number[];
}

export interface LeastSureSelection {
  criteria: LeastSureCriterion[];
  margin: number;
  cuts: number[];
  unavailable: { criterion: LeastSureCriterion; reason: LeastSureUnavailable }[];
  /** Every unit people could rate. */
  units: number;
  /** Units meeting each criterion asked for. */
  counts: Record<LeastSureCriterion, number>;
  /** Units meeting at least one: most doubtful first (see `rank`). */
  items: LeastSureItem[];
}

export const DEFAULT_LEAST_SURE_MARGIN = 1;

/** Points a score must move to change sides of `cut` (integer scale points). */
export function cutDistance(score: number, cut: number): number {
  return score >= cut ? score - cut + 1 : cut - score;
}

/**
 * Most doubtful first: more criteria met; then a judge disagreeing with itself (position, repeat)
 * before a score near a cut, since that is doubt seen rather than inferred; then the nearest
 * score; ties by item key, so the order (and the set a size cuts from it) is reproducible.
 */
function rank(a: LeastSureItem, b: LeastSureItem): number {
  const kinds = (i: LeastSureItem) => new Set(i.reasons.map((r) => r.criterion));
  const seen = (i: LeastSureItem) => i.reasons.some((r) => r.criterion !== 'boundary');
  const nearest = (i: LeastSureItem) =>
    Math.min(Infinity, ...i.reasons.map((r) => (r.criterion === 'boundary' ? r.distance : Infinity)));
  return (
    kinds(b).size - kinds(a).size ||
    Number(seen(b)) - Number(seen(a)) ||
    nearest(a) - nearest(b) ||
    (a.itemKey < b.itemKey ? -1 : a.itemKey > b.itemKey ? 1 : 0)
  );
}

export function selectLeastSure(
  input: {
    scale: RatingScale;
    units: readonly { itemKey: string; itemId: number; category: string | null }[];
    ratings: readonly JudgeRating[];
    asks: readonly JudgeAsk[];
  },
  opts: LeastSureOptions = {},
): LeastSureSelection {
  const criteria = LEAST_SURE_CRITERIA.filter((c) => (opts.criteria ?? LEAST_SURE_CRITERIA).includes(c));
  const margin = opts.margin ?? DEFAULT_LEAST_SURE_MARGIN;
  const { scale } = input;
  const cuts =
    scale.kind !== 'score'
      ? []
      : opts.cuts?.length
        ? [...new Set(opts.cuts)].sort((a, b) => a - b)
        : [scoreCut(scale)];
  const unavailable: LeastSureSelection['unavailable'] = [];
  if (criteria.includes('boundary') && scale.kind !== 'score')
    unavailable.push({ criterion: 'boundary', reason: 'not a score scale' });
  if (criteria.includes('position') && !input.asks.some((a) => a.order !== null))
    unavailable.push({ criterion: 'position', reason: 'every unit is asked in one order' });
  if (criteria.includes('repeat') && !input.asks.some((a) => a.sample > 0))
    unavailable.push({ criterion: 'repeat', reason: 'no repeated answers (the noise floor is off)' });

  const units = new Set(input.units.map((u) => u.itemKey));
  const reasons = new Map<string, LeastSureReason[]>();
  const add = (key: string, r: LeastSureReason) => {
    if (!units.has(key)) return;
    reasons.set(key, [...(reasons.get(key) ?? []), r]);
  };
  const same = (a: RatingValue, b: RatingValue) => String(a) === String(b);

  if (criteria.includes('position') || criteria.includes('repeat')) {
    // judge × unit → order → sample → answer
    const by = new Map<
      string,
      { judge: string; itemKey: string; at: Map<string, Map<number, RatingValue>> }
    >();
    for (const a of input.asks) {
      const k = `${a.judge}\u0000${a.itemKey}`;
      const e = by.get(k) ?? { judge: a.judge, itemKey: a.itemKey, at: new Map() };
      const o = e.at.get(String(a.order)) ?? new Map<number, RatingValue>();
      o.set(a.sample, a.value);
      e.at.set(String(a.order), o);
      by.set(k, e);
    }
    for (const e of [...by.values()].sort((x, y) => (x.judge < y.judge ? -1 : x.judge > y.judge ? 1 : 0))) {
      if (criteria.includes('position')) {
        // First asks only: a repeat's two orders disagreeing is mostly its own flip, counted below.
        const orig = e.at.get('orig')?.get(0);
        const swap = e.at.get('swap')?.get(0);
        if (orig !== undefined && swap !== undefined && !same(orig, swap))
          add(e.itemKey, { criterion: 'position', judge: e.judge, orig, swap });
      }
      if (criteria.includes('repeat')) {
        for (const [order, samples] of [...e.at].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
          if (samples.size < 2) continue;
          const values = [...samples].sort((x, y) => x[0] - y[0]).map(([, v]) => v);
          if (values.some((v) => !same(v, values[0])))
            add(e.itemKey, {
              criterion: 'repeat',
              judge: e.judge,
              order: order === 'null' ? null : (order as 'orig' | 'swap'),
              values,
            });
        }
      }
    }
  }
  if (criteria.includes('boundary') && scale.kind === 'score') {
    for (const r of [...input.ratings].sort((x, y) => (x.judge < y.judge ? -1 : x.judge > y.judge ? 1 : 0))) {
      const score = Number(r.value);
      if (!Number.isFinite(score)) continue;
      const near = cuts
        .map((cut) => ({ cut, distance: cutDistance(score, cut) }))
        .filter((c) => c.distance <= margin)
        .sort((x, y) => x.distance - y.distance)[0];
      if (near) add(r.itemKey, { criterion: 'boundary', judge: r.judge, score, ...near });
    }
  }

  const counts = { position: 0, repeat: 0, boundary: 0 } as Record<LeastSureCriterion, number>;
  const items: LeastSureItem[] = [];
  for (const u of input.units) {
    const rs = reasons.get(u.itemKey);
    if (!rs) continue;
    for (const c of new Set(rs.map((r) => r.criterion))) counts[c]++;
    items.push({ itemKey: u.itemKey, itemId: u.itemId, category: u.category, reasons: rs });
  }
  items.sort(rank);
  return { criteria, margin, cuts, unavailable, units: input.units.length, counts, items };
}

/** The stratum a least-sure set stores for an item: which criteria chose it. */
export function leastSureStratum(item: LeastSureItem): string {
  const met = LEAST_SURE_CRITERIA.filter((c) => item.reasons.some((r) => r.criterion === c));
  return `least sure: ${met.join(' + ')}`;
}

/** A reason in plain English (CLI, set exports); the page words it in its language. */
export function leastSureReasonText(r: LeastSureReason): string {
  if (r.criterion === 'boundary')
    return `${r.judge}: score ${r.score} is ${r.distance} point${r.distance === 1 ? '' : 's'} from the other side of ≥ ${r.cut}`;
  if (r.criterion === 'position')
    return `${r.judge}: orders disagree (original order → ${r.orig}, swapped → ${r.swap})`;
  return `${r.judge}: flipped on repeat (${r.values.join(' → ')}${r.order ? `, ${r.order} order` : ''})`;
}

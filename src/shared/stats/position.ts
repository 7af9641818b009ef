// The paired position test (issue 32 item 1). A study that asks both answer orders of an item
// holds a pair per item: a judge that keeps its preference says "first" in one order and
// "second" in the other, so consistent items cancel and only the discordant ones carry
// evidence of a lean: both orders "first" against both orders "second". Counting the 2n
// verdicts as independent draws (an unpaired binomial on the first-position rate) dilutes those
// items with the consistent ones: 15 both-first against 0 both-second of 419 items is p = 6e-5
// paired, and p = 0.38 unpaired.
import { mcnemarExact } from './binomial';
import type { CI } from './intervals';
import { newcombePairedInterval } from './paired';

/** Where a verdict put its preference, as shown: the first answer (A), the second (B), or a tie. */
export type ShownPosition = 'first' | 'second' | 'tie';

/** One item's two verdicts: the original order and the swapped one. */
export interface PositionPair {
  orig: ShownPosition;
  swap: ShownPosition;
}

/** Which position the discordant items lean to; 'none' when they split evenly (or there are none). */
export type PositionLean = 'first' | 'second' | 'none';

/** How the first-position rate's interval is made, for captions, column help and exports. */
// Short: a table header adds it in brackets (the formula is in each table's caption).
export const FIRST_RATE_METHOD = "Newcombe (1998) method 10 over each item's two orders";
/** How the paired test is named. */
export const POSITION_TEST_METHOD = 'exact McNemar on discordant items';

export interface PairedPositionTest {
  /** Items with a verdict in both orders. */
  n: number;
  /** Both orders chose the answer shown first: a lean to the first position. */
  both_first: number;
  /** Both orders chose the answer shown second. */
  both_second: number;
  /** The same answer in both orders (one "first", one "second"). */
  consistent: number;
  /** A tie in at least one order: left out of the test and the rate. */
  ties: number;
  /** Exact two-sided p of both_first among both_first + both_second at ½; 1 with no discordant item. */
  p: number;
  lean: PositionLean;
  /**
   * Share of "first" among the verdicts of items decided in both orders, ½ + (both_first −
   * both_second) / (2 · decided items); null when no item was decided in both orders.
   */
  first_rate: number | null;
  /** 95% interval of first_rate, paired by item (FIRST_RATE_METHOD), inside [0, 1]; null with first_rate. */
  first_rate_ci: CI | null;
}

/**
 * The columns a position table adds for the paired test (each protocol adds its own Holm column,
 * adjusted over its table's family).
 */
export interface PositionLeanColumns {
  /** Items where both orders chose the answer shown first. */
  both_first: number;
  /** Items where both orders chose the answer shown second. */
  both_second: number;
  /** Items with a tie in at least one order (out of the test and the rate). */
  tied: number;
  lean: PositionLean;
  /** Exact McNemar p of both_first against both_second (1 with no discordant item). */
  lean_p: number;
  /** First-position share of the verdicts of items decided in both orders; null: none was. */
  first_rate: number | null;
  /** Paired by item (FIRST_RATE_METHOD), inside [0, 1]; null with first_rate. */
  first_rate_ci: CI | null;
}

/** A table's columns of the paired test. */
export function leanColumns(t: PairedPositionTest): PositionLeanColumns {
  return {
    both_first: t.both_first,
    both_second: t.both_second,
    tied: t.ties,
    lean: t.lean,
    lean_p: t.p,
    first_rate: t.first_rate,
    first_rate_ci: t.first_rate_ci,
  };
}

/** The position a pairwise winner (A | B | tie) took as shown. */
export function shownPosition(winner: 'A' | 'B' | 'tie'): ShownPosition {
  return winner === 'tie' ? 'tie' : winner === 'A' ? 'first' : 'second';
}

/**
 * The paired position test over the items' pairs of verdicts. The rate's interval reads each
 * item as one unit with two margins (orig chose the first answer; swap chose the second): the
 * rate is ½ + (p₁ − p₂)/2 for those margins, and Newcombe's paired interval for p₁ − p₂ keeps a
 * width when every item is consistent (where an item bootstrap collapses to a point) and stays
 * in [0, 1].
 */
export function pairedPositionTest(pairs: readonly PositionPair[]): PairedPositionTest {
  let bothFirst = 0;
  let bothSecond = 0;
  // Consistent items split by which answer they kept, which Newcombe's margins need.
  let keptFirstShown = 0;
  let keptSecondShown = 0;
  let ties = 0;
  for (const { orig, swap } of pairs) {
    if (orig === 'tie' || swap === 'tie') ties++;
    else if (orig === 'first' && swap === 'first') bothFirst++;
    else if (orig === 'second' && swap === 'second') bothSecond++;
    else if (orig === 'first') keptFirstShown++;
    else keptSecondShown++;
  }
  const decided = bothFirst + bothSecond + keptFirstShown + keptSecondShown;
  let firstRate: number | null = null;
  let ci: CI | null = null;
  if (decided > 0) {
    firstRate = 0.5 + (bothFirst - bothSecond) / (2 * decided);
    // Cells for p₁ = P(orig chose first) and p₂ = P(swap chose second): a = both, b = orig only
    // (both-first), c = swap only (both-second), d = neither.
    const [lo, hi] = newcombePairedInterval(keptFirstShown, bothFirst, bothSecond, keptSecondShown);
    ci = [Math.max(0, 0.5 + lo / 2), Math.min(1, 0.5 + hi / 2)];
  }
  return {
    n: pairs.length,
    both_first: bothFirst,
    both_second: bothSecond,
    consistent: keptFirstShown + keptSecondShown,
    ties,
    p: mcnemarExact(bothFirst, bothSecond),
    lean: bothFirst > bothSecond ? 'first' : bothSecond > bothFirst ? 'second' : 'none',
    first_rate: firstRate,
    first_rate_ci: ci,
  };
}

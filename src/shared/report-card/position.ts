// The position measurements every study with both answer orders puts on the report card: the
// first-shown (A) rate of the paired position test, and that test's lean behind the position
// gate. One definition, so the card reads a lean alike whichever study measured it.
import type { CardPhrase, HeadlineRow, PositionLeanTest } from './types';
import type { PositionLeanColumns } from '../stats/position';

/**
 * The Position-A rate over the `n` items of a position row minus those tied in some order: the
 * rate paired by item, its interval reading an item's two orders together.
 */
export function positionARateRow(p: PositionLeanColumns, n: number, condition: CardPhrase): HeadlineRow {
  return {
    measure: 'position_a_rate',
    label: 'Position-A rate',
    condition,
    n: n - p.tied,
    value: p.first_rate,
    ci: p.first_rate_ci,
    unit: 'pct',
    ...(p.first_rate === null ? { note: { key: 'no_item_decided_both_orders' } } : {}),
  };
}

/** The lean test behind a position gate, with the Holm-adjusted p of the study's family. */
export function positionLean(p: PositionLeanColumns, holmP: number): PositionLeanTest {
  return { both_first: p.both_first, both_second: p.both_second, lean: p.lean, p: holmP };
}

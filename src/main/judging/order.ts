// The order swap of pairwise verdicts: `orig` shows the item's first output as A, `swap` shows it
// as B, so a judge's position bias can be told from its preference.
import type { Winner } from './pairwise';

export type PairOrder = 'orig' | 'swap';
export const PAIR_ORDERS: readonly PairOrder[] = ['orig', 'swap'];

/** The texts shown as A and B in an order. */
export function shownPair<T>(order: PairOrder, first: T, second: T): [a: T, b: T] {
  return order === 'orig' ? [first, second] : [second, first];
}

/** Which output (1 = the item's first, 2 = its second) a verdict in that order chose, or tie. */
export function choiceOf(order: PairOrder, winner: Winner): 1 | 2 | 'tie' {
  if (winner === 'tie') return 'tie';
  return (winner === 'A') === (order === 'orig') ? 1 : 2;
}

// Headline rows a study builds the same way: a rate over n units that, over none, has no value,
// no interval and a note that says why (never a 0 that reads as "never").
import type { CI } from '../report/format';
import type { CardPhrase, HeadlineRow } from './types';

/** A share (unit "pct") measured over `n` units; with none, undefined with the note `emptyKey`. */
export function rateRow(
  measure: string,
  label: string,
  condition: CardPhrase,
  measured: { n: number; value: number; ci: CI | null },
  emptyKey: string,
): HeadlineRow {
  const { n } = measured;
  return {
    measure,
    label,
    condition,
    n,
    value: n ? measured.value : null,
    ci: n ? measured.ci : null,
    unit: 'pct',
    ...(n ? {} : { note: { key: emptyKey } }),
  };
}

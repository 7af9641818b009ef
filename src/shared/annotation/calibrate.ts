// Applying a calibration mapping (isotonic, with the line beside it) to judge scores of another
// experiment: the category's own mapping where the set had enough items for one, else 'all'.
import type { MappingRow } from './agreement';
import { applyKnots } from '../stats';

export interface CalibratedRow {
  itemKey: string;
  judge: string;
  category: string | null;
  raw: number;
  calibrated: number;
  linear: number;
  /** Which mapping was applied: a category's, or 'all'. */
  mapping: string;
}

export function applyMapping(
  mappings: readonly MappingRow[],
  judge: string,
  scores: readonly { itemKey: string; judge: string; category: string | null; raw: number }[],
): CalibratedRow[] {
  const mine = mappings.filter((m) => m.judge === judge);
  const all = mine.find((m) => m.category === 'all');
  if (!all) throw new RangeError(`no calibration mapping for judge "${judge}"`);
  return scores.map((s) => {
    const m = mine.find((x) => x.category !== 'all' && x.category === (s.category ?? '(none)')) ?? all;
    return {
      itemKey: s.itemKey,
      judge: s.judge,
      category: s.category,
      raw: s.raw,
      calibrated: applyKnots(m.knots, s.raw),
      linear: m.linear.intercept + m.linear.slope * s.raw,
      mapping: m.category,
    };
  });
}

/** The mapping as a flat table (one row per knot), for CSV export. */
export function mappingCsvRows(mappings: readonly MappingRow[]): string[][] {
  const rows: string[][] = [];
  for (const m of mappings) {
    for (const k of m.knots) {
      rows.push([
        m.judge,
        m.category,
        String(k.x),
        String(k.y),
        String(m.linear.slope),
        String(m.linear.intercept),
      ]);
    }
  }
  return rows;
}

// Numbers in chart tooltips, with the exports' digits (src/shared/report/format.ts) and a % sign
// for reading; tables use the shared formatCell and show exactly the exported text.
import { formatCi, formatInt, formatP, formatPct, formatUsd, MISSING } from '../../../shared/report/format';

export { formatCi, formatInt, formatP, formatUsd, MISSING };

/** 0.835 → "83.5%"; a missing value → "–". */
export function formatPercent(v: number | null | undefined): string {
  const s = formatPct(v);
  return s === MISSING ? s : `${s}%`;
}

/**
 * A difference of two fractions in percentage points with its sign: −0.035 → "−3.5"; a value that
 * rounds to zero has no sign ("0.0", not "+0.0" or "−0.0").
 */
export function formatPoints(v: number | null | undefined): string {
  const s = formatPct(v);
  if (s === MISSING || /^0(\.0*)?$/.test(s)) return s;
  return v! > 0 ? `+${s}` : s.replace('-', '−');
}

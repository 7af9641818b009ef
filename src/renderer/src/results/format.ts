// Numbers as a paper prints them. The exports' formatters are reused so the app's tables show
// exactly the digits of the exported CSV/LaTeX tables; only the % sign is added for reading.
import type { CI } from '../../../shared/protocols/judge-ls/types';
import { formatCi, formatInt, formatP, formatPct, formatUsd, MISSING } from '../../../shared/report/format';

export { formatCi, formatInt, formatP, formatUsd, MISSING };

/** 0.835 → "83.5%"; a missing value → "–". */
export function formatPercent(v: number | null | undefined): string {
  const s = formatPct(v);
  return s === MISSING ? s : `${s}%`;
}

/** A difference of two fractions in percentage points with its sign: −0.035 → "−3.5". */
export function formatPoints(v: number | null | undefined): string {
  const s = formatPct(v);
  if (s === MISSING) return s;
  return v! > 0 ? `+${s}` : s.replace('-', '−');
}

export function isCi(v: unknown): v is CI {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number';
}

// Paper-style number formatting shared by every table writer (CSV and LaTeX show the same text).
/** A 95% confidence interval: [low, high]. */
export type CI = [number, number];

/** Shown for a value that does not exist (no valid pair, no non-tie probe, ...). */
export const MISSING = '–';

function finite(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * v.toFixed(digits) without a sign on a value that rounds to zero: −0.0001 shows as "0.000",
 * never "-0.000" (a minus sign there claims a direction the printed digits do not have).
 */
export function toFixedText(v: number, digits: number): string {
  const text = v.toFixed(digits);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** A fraction as a percentage with one decimal: 0.835 → "83.5". */
export function formatPct(v: number | null | undefined): string {
  return finite(v) ? toFixedText(v * 100, 1) : MISSING;
}

/** A CI of fractions in points: [0.801, 0.865] → "[80.1, 86.5]". */
export function formatCi(ci: CI | null | undefined): string {
  if (!ci || !finite(ci[0]) || !finite(ci[1])) return MISSING;
  return `[${formatPct(ci[0])}, ${formatPct(ci[1])}]`;
}

/** p-values the way papers print them: "< 0.001", otherwise three significant digits. */
export function formatP(p: number | null | undefined): string {
  if (!finite(p)) return MISSING;
  if (p < 0.001) return '< 0.001';
  return p.toPrecision(3);
}

export function formatInt(v: number | null | undefined): string {
  return finite(v) ? String(Math.round(v)) : MISSING;
}

/**
 * A count with thousands separators, as `n.toLocaleString('en-US')` prints it ("12,345"). An
 * integer is grouped here: toLocaleString pages in ~5 MiB of ICU data, which then stays in a
 * one-study process's memory (issue 39). Anything else still goes through toLocaleString.
 */
export function groupedInt(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 || Object.is(n, -0) ? `-${digits}` : digits;
}

/** US dollars without a currency sign (the header says USD); small costs keep four decimals. */
export function formatUsd(v: number | null | undefined): string {
  if (!finite(v)) return MISSING;
  return Math.abs(v) >= 1 || v === 0 ? toFixedText(v, 2) : toFixedText(v, 4);
}

/**
 * A number with fixed decimals as text (effect sizes, correlations, kappas: no percent); null
 * stays null so the cell shows as missing.
 */
export function fixedText(v: number | null | undefined, digits = 2): string | null {
  return v === null || v === undefined ? null : toFixedText(v, digits);
}

/**
 * An interval with fixed decimals as text, "[low, high]"; without one, "undefined (reason)" when
 * a reason is given (e.g. κ's variance is 0), else null.
 */
export function fixedIntervalText(
  ci: CI | null | undefined,
  digits = 2,
  undefinedReason?: string | null,
): string | null {
  if (ci) return `[${toFixedText(ci[0], digits)}, ${toFixedText(ci[1], digits)}]`;
  return undefinedReason ? undefinedText(undefinedReason) : null;
}

/** How a statistic or interval that does not exist is shown: "undefined (one side constant)". */
export function undefinedText(reason: string): string {
  return `undefined (${reason})`;
}

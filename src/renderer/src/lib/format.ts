/** Formats an ISO timestamp for the UI language; shows the raw value if it does not parse. */
export function formatDateTime(iso: string, language: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(d);
}

export function formatNumber(n: number, language: string): string {
  return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en').format(n);
}

function locale(language: string): string {
  return language === 'zh' ? 'zh-CN' : 'en';
}

/** US dollars; small amounts keep enough digits to be non-zero ($0.0042, not $0.00). */
export function formatUsd(usd: number, language: string): string {
  const digits = usd !== 0 && Math.abs(usd) < 1 ? 4 : 2;
  return new Intl.NumberFormat(locale(language), {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: digits,
    // No "-$0.00" for a value that rounds to zero.
    signDisplay: 'negative',
  }).format(usd);
}

/** Token counts and the like: 1.2M, 35K (12万 in Chinese), exact below a thousand. */
export function formatCompact(n: number, language: string): string {
  return new Intl.NumberFormat(locale(language), { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

export function formatPercent(fraction: number, language: string): string {
  return new Intl.NumberFormat(locale(language), {
    style: 'percent',
    maximumFractionDigits: 0,
    signDisplay: 'negative',
  }).format(fraction);
}

/** A duration as hours and minutes, for ETAs and estimates; null below a minute. */
export function splitDuration(seconds: number): { hours: number; minutes: number } | null {
  if (!Number.isFinite(seconds) || seconds < 60) return null;
  const total = Math.round(seconds / 60);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

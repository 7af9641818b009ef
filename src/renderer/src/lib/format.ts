/** Formats an ISO timestamp for the UI language; shows the raw value if it does not parse. */
export function formatDateTime(iso: string, language: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(d);
}

export function formatNumber(n: number, language: string): string {
  return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en').format(n);
}

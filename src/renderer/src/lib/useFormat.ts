import { useTranslation } from 'react-i18next';
import { formatCompact, formatDateTime, formatNumber, formatUsd, splitDuration } from './format';

/** Formatters bound to the UI language, for numbers shown in running text and tables. */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return {
    number: (n: number) => formatNumber(n, lang),
    compact: (n: number) => formatCompact(n, lang),
    usd: (n: number) => formatUsd(n, lang),
    /** A stored ISO timestamp, in the UI language's date and time format. */
    dateTime: (iso: string) => formatDateTime(iso, lang),
    duration(seconds: number): string {
      const d = splitDuration(seconds);
      if (!d) return t('time.underMinute');
      if (d.hours === 0) return t('time.minutes', { count: d.minutes });
      return t('time.hoursMinutes', { hours: d.hours, minutes: d.minutes });
    },
  };
}

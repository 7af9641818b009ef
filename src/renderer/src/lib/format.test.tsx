// Dates in the reader's locale: one helper, its locale from the UI language.
import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';

describe('formatDateTime', () => {
  const iso = '2026-12-01T02:57:58.000Z';
  const expected = (locale: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  it('writes a date the English way in English and the Chinese way in 中文', () => {
    expect(formatDateTime(iso, 'en')).toBe(expected('en'));
    expect(formatDateTime(iso, 'en')).toMatch(/Dec 1, 2026/);
    expect(formatDateTime(iso, 'zh')).toBe(expected('zh-CN'));
    expect(formatDateTime(iso, 'zh')).toMatch(/^2026年12月1日/);
    // Not the US numeric form toLocaleString() gave.
    expect(formatDateTime(iso, 'zh')).not.toMatch(/12\/1\/2026/);
  });

  it('shows a value that is not a date as it is', () => {
    expect(formatDateTime('not a date', 'zh')).toBe('not a date');
  });
});

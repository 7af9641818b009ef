import { describe, expect, it } from 'vitest';
import { fixedIntervalText, fixedText } from './format';
import { formatCell } from './table';
import { usageTable } from './usage';

describe('the report kit’s shared table parts', () => {
  it('lists usage one row per role, costs in USD, without the ledger-only columns', () => {
    const t = usageTable([
      {
        role: 'judge',
        judge: 'J',
        model: 'm',
        calls: 1200,
        cache_hits: 3,
        input_tokens: 5,
        output_tokens: 6,
        cached_input_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: 0.5,
      },
    ]);
    expect(t.columns.map((c) => c.key)).toEqual([
      'role',
      'judge',
      'model',
      'calls',
      'input_tokens',
      'output_tokens',
      'cost_usd',
    ]);
    expect(t.columns.map((c) => formatCell(c, t.rows[0][c.key]))).toEqual(
      expect.arrayContaining(['judge', 'J', 'm']),
    );
    expect(t.rows[0].cost_usd).toBe(0.5);
  });

  it('shows fixed decimals as text and keeps a missing value missing', () => {
    expect(fixedText(0.12345, 3)).toBe('0.123');
    expect(fixedText(-0.5)).toBe('-0.50');
    expect(fixedText(null)).toBeNull();
    expect(fixedIntervalText([-0.1, 0.72345], 3)).toBe('[-0.100, 0.723]');
    expect(fixedIntervalText(null)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { memoByText } from '../../src/shared/text-memo';

describe('a function remembered by text', () => {
  it('computes a text once while it is kept, and again after the memo passed its size', () => {
    const seen: string[] = [];
    const length = memoByText(10, (t) => {
      seen.push(t);
      return t.length;
    });
    expect([length('abcd'), length('abcd'), length('efgh'), length('abcd')]).toEqual([4, 4, 4, 4]);
    expect(seen).toEqual(['abcd', 'efgh']);
    // 4 + 4 + 3 > 10: dropped whole, then the new text kept alone.
    expect(length('ijk')).toBe(3);
    expect(length('ijk')).toBe(3);
    expect(length('abcd')).toBe(4);
    expect(seen).toEqual(['abcd', 'efgh', 'ijk', 'abcd']);
  });

  it('keeps an undefined or falsy value as a value', () => {
    let calls = 0;
    const none = memoByText(100, () => {
      calls++;
      return undefined;
    });
    none('x');
    none('x');
    expect(calls).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { parseReason } from './audit-reasons';

describe('parseReason', () => {
  it('reads the language and field an audit reason names', () => {
    expect(parseReason('ZH.output_1: numbers_missing (EN 4, ZH 0)', 'LS')).toEqual({
      field: 'output_1',
      language: 'ZH',
      text: 'numbers_missing (EN 4, ZH 0)',
    });
  });

  it("falls back to the variant's language, and to no field for whole-variant reasons", () => {
    expect(parseReason('instruction: empty', 'LS')).toEqual({
      field: 'instruction',
      language: 'LS',
      text: 'empty',
    });
    expect(parseReason('edited by hand', 'ZH')).toEqual({
      field: null,
      language: 'ZH',
      text: 'edited by hand',
    });
  });
});

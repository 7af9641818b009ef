import { describe, expect, it } from 'vitest';
import { normalizeChoice, parseVariant } from './parse';

describe('parseVariant', () => {
  const english = { instruction: 'Say hi', output1: 'Hi', output2: 'Hello' };

  it('maps the wire fields to a variant text', () => {
    expect(parseVariant({ instruction: '说你好', output_1: '嗨', output_2: '你好' }, english)).toEqual({
      ok: true,
      value: { instruction: '说你好', output1: '嗨', output2: '你好' },
    });
    expect(
      parseVariant({ language_variant: { instruction: '说', output_1: '嗨', output_2: '好' } }),
    ).toMatchObject({
      ok: true,
    });
  });

  it('rejects a missing, non-string or blank field where the English is not blank', () => {
    expect(parseVariant({ instruction: '说你好', output_1: '嗨' }, english)).toEqual({
      ok: false,
      error: '"output_2" is missing',
    });
    expect(parseVariant({ instruction: '说你好', output_1: 3, output_2: '你好' }, english)).toEqual({
      ok: false,
      error: '"output_1" is not a string',
    });
    expect(parseVariant({ instruction: ' ', output_1: '嗨', output_2: '你好' }, english)).toEqual({
      ok: false,
      error: '"instruction" is empty',
    });
  });

  it('accepts a blank field when the English field is blank too', () => {
    const r = parseVariant(
      { instruction: '说你好', output_1: '', output_2: '你好' },
      { ...english, output1: '' },
    );
    expect(r).toEqual({ ok: true, value: { instruction: '说你好', output1: '', output2: '你好' } });
    // Without the English, every field must be filled.
    expect(parseVariant({ instruction: '说你好', output_1: '', output_2: '你好' })).toMatchObject({
      ok: false,
    });
  });
});

describe('normalizeChoice', () => {
  it('maps quality orders to the output number', () => {
    expect(normalizeChoice('orig', 'A')).toBe(1);
    expect(normalizeChoice('orig', 'B')).toBe(2);
    expect(normalizeChoice('swap', 'A')).toBe(2);
    expect(normalizeChoice('swap', 'B')).toBe(1);
    expect(normalizeChoice('orig', 'tie')).toBe('tie');
    expect(normalizeChoice('swap', 'tie')).toBe('tie');
  });

  it('maps tie-probe orders to the language', () => {
    expect(normalizeChoice('en_zh', 'A')).toBe('EN');
    expect(normalizeChoice('en_zh', 'B')).toBe('ZH');
    expect(normalizeChoice('zh_en', 'A')).toBe('ZH');
    expect(normalizeChoice('zh_en', 'B')).toBe('EN');
    expect(normalizeChoice('zh_en', 'tie')).toBe('tie');
  });
});

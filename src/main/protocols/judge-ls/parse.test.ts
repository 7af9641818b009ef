import { describe, expect, it } from 'vitest';
import { normalizeChoice, normalizeWinner, parseVariant, parseVerdict } from './parse';

describe('parseVerdict', () => {
  it('accepts a schema-conforming verdict', () => {
    expect(parseVerdict({ winner: 'A', confidence: 0.8, reason: 'closer to the instruction' })).toEqual({
      ok: true,
      value: { winner: 'A', confidence: 0.8, reason: 'closer to the instruction' },
    });
  });

  it.each([
    ['a', 'A'],
    ['b', 'B'],
    [' B ', 'B'],
    ['Tie', 'tie'],
    ['TIE', 'tie'],
    ['tie.', 'tie'],
    ['Response A', 'A'],
    ['response b', 'B'],
    ['Output (a)', 'A'],
    ['Output (B)', 'B'],
    ['(a)', 'A'],
    ['"A"', 'A'],
    ['**B**', 'B'],
    ['Assistant A.', 'A'],
  ])('reads winner %j as %s', (raw, expected) => {
    expect(normalizeWinner(raw)).toBe(expected);
    const r = parseVerdict({ winner: raw, confidence: 1, reason: '' });
    expect(r).toEqual({ ok: true, value: { winner: expected, confidence: 1, reason: '' } });
  });

  it.each(['C', 'AB', 'A or B', 'both', 'neither', 'Response A is better', '1', '', 'draw'])(
    'rejects winner %j',
    (raw) => {
      const r = parseVerdict({ winner: raw, confidence: 0.5, reason: 'x' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain('"winner" must be "A", "B" or "tie"');
    },
  );

  it('rejects non-string winners and a missing winner', () => {
    expect(parseVerdict({ winner: 1, confidence: 0.5, reason: '' })).toMatchObject({ ok: false });
    expect(parseVerdict({ confidence: 0.5, reason: '' })).toEqual({
      ok: false,
      error: '"winner" is missing',
    });
  });

  it('clamps confidence and makes it null when missing or not numeric', () => {
    const conf = (c: unknown) => {
      const r = parseVerdict({ winner: 'A', confidence: c, reason: 'r' });
      return r.ok ? r.value.confidence : 'error';
    };
    expect(conf(1.7)).toBe(1);
    expect(conf(-0.2)).toBe(0);
    expect(conf('0.25')).toBe(0.25);
    expect(conf(undefined)).toBeNull();
    expect(conf('high')).toBeNull();
    expect(conf(Number.NaN)).toBeNull();
    expect(conf(null)).toBeNull();
  });

  it('uses an empty reason when none is given', () => {
    expect(parseVerdict({ winner: 'tie' })).toEqual({
      ok: true,
      value: { winner: 'tie', confidence: null, reason: '' },
    });
  });

  it('accepts JSON text, fenced JSON and the object wrapped under its schema name', () => {
    const v = { ok: true, value: { winner: 'B', confidence: 0.9, reason: 'r' } };
    expect(parseVerdict('{"winner":"B","confidence":0.9,"reason":"r"}')).toEqual(v);
    expect(parseVerdict('```json\n{"winner":"B","confidence":0.9,"reason":"r"}\n```')).toEqual(v);
    expect(parseVerdict({ pairwise_verdict: { winner: 'B', confidence: 0.9, reason: 'r' } })).toEqual(v);
  });

  it('rejects answers that are not a JSON object', () => {
    expect(parseVerdict('I prefer A')).toEqual({ ok: false, error: 'the answer is not JSON' });
    expect(parseVerdict(['A'])).toEqual({ ok: false, error: 'the answer is not a JSON object' });
    expect(parseVerdict(null)).toEqual({ ok: false, error: 'the answer is not a JSON object' });
  });
});

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

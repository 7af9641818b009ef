import { describe, expect, it } from 'vitest';
import { normalizeWinner, PAIRWISE_VERDICT_SCHEMA, parsePairwiseVerdict } from './pairwise';

describe('parsePairwiseVerdict', () => {
  it('accepts a schema-conforming verdict', () => {
    expect(
      parsePairwiseVerdict({ winner: 'A', confidence: 0.8, reason: 'closer to the instruction' }),
    ).toEqual({
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
    // 1 and 2 are the first and second response shown.
    ['1', 'A'],
    ['2', 'B'],
    ['Response 2', 'B'],
    [' "1". ', 'A'],
  ])('reads winner %j as %s', (raw, expected) => {
    expect(normalizeWinner(raw)).toBe(expected);
    const r = parsePairwiseVerdict({ winner: raw, confidence: 1, reason: '' });
    expect(r).toEqual({ ok: true, value: { winner: expected, confidence: 1, reason: '' } });
  });

  it.each(['C', 'AB', 'A or B', 'both', 'neither', 'Response A is better', '3', '12', '', 'draw'])(
    'rejects winner %j',
    (raw) => {
      const r = parsePairwiseVerdict({ winner: raw, confidence: 0.5, reason: 'x' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain('"winner" must be "A", "B" or "tie"');
    },
  );

  it('reads the numbers 1 and 2 as A and B, and rejects other non-strings and a missing winner', () => {
    expect(parsePairwiseVerdict({ winner: 1, confidence: 0.5, reason: '' })).toMatchObject({
      ok: true,
      value: { winner: 'A' },
    });
    expect(parsePairwiseVerdict({ winner: 2 })).toMatchObject({ ok: true, value: { winner: 'B' } });
    for (const winner of [0, 3, 1.5, true, null, ['A'], { letter: 'A' }])
      expect(parsePairwiseVerdict({ winner, confidence: 0.5, reason: '' })).toMatchObject({ ok: false });
    expect(parsePairwiseVerdict({ confidence: 0.5, reason: '' })).toEqual({
      ok: false,
      error: '"winner" is missing',
    });
  });

  it('clamps confidence and makes it null when missing or not numeric', () => {
    const conf = (c: unknown) => {
      const r = parsePairwiseVerdict({ winner: 'A', confidence: c, reason: 'r' });
      return r.ok ? r.value.confidence : 'error';
    };
    expect(conf(1.7)).toBe(1);
    expect(conf(-0.2)).toBe(0);
    expect(conf('0.25')).toBe(0.25);
    expect(conf(' 0.9 ')).toBe(0.9);
    expect(conf('80%')).toBe(0.8);
    expect(conf(undefined)).toBeNull();
    expect(conf('high')).toBeNull();
    expect(conf(Number.NaN)).toBeNull();
    expect(conf(null)).toBeNull();
  });

  it('uses an empty reason when none is given', () => {
    expect(parsePairwiseVerdict({ winner: 'tie' })).toEqual({
      ok: true,
      value: { winner: 'tie', confidence: null, reason: '' },
    });
  });

  it('accepts JSON text, fenced JSON and the object wrapped under its schema name', () => {
    const v = { ok: true, value: { winner: 'B', confidence: 0.9, reason: 'r' } };
    expect(parsePairwiseVerdict('{"winner":"B","confidence":0.9,"reason":"r"}')).toEqual(v);
    expect(parsePairwiseVerdict('```json\n{"winner":"B","confidence":0.9,"reason":"r"}\n```')).toEqual(v);
    expect(parsePairwiseVerdict({ pairwise_verdict: { winner: 'B', confidence: 0.9, reason: 'r' } })).toEqual(
      v,
    );
  });

  it('rejects answers that are not a JSON object', () => {
    expect(parsePairwiseVerdict('I prefer A')).toEqual({ ok: false, error: 'the answer is not JSON' });
    expect(parsePairwiseVerdict(['A'])).toEqual({ ok: false, error: 'the answer is not a JSON object' });
    expect(parsePairwiseVerdict(null)).toEqual({ ok: false, error: 'the answer is not a JSON object' });
  });
});

describe('the pairwise wire schema', () => {
  it('is the contract of DESIGN.md section 6, strict as structured output asks', () => {
    expect(PAIRWISE_VERDICT_SCHEMA.name).toBe('pairwise_verdict');
    expect(PAIRWISE_VERDICT_SCHEMA.schema).toEqual({
      type: 'object',
      properties: {
        winner: { type: 'string', enum: ['A', 'B', 'tie'], description: 'The better response, or tie.' },
        confidence: { type: 'number', description: 'Confidence from 0 (a guess) to 1 (certain).' },
        reason: { type: 'string', description: 'A short explanation.' },
      },
      required: ['winner', 'confidence', 'reason'],
      additionalProperties: false,
    });
  });
});

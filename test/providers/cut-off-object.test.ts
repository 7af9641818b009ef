// What is read from an answer cut off at the output limit: only members written out whole.
import { describe, expect, it } from 'vitest';
import { cutOffObject, readFromCutOff } from '../../src/main/providers/structured';

describe('cutOffObject', () => {
  it.each([
    ['{"winner": "A", "confidence": 0.8, "reason": "The fir', { winner: 'A', confidence: 0.8 }],
    // A number at the very end might have had more digits: left out with its key.
    ['{"winner": "A", "confidence": 0.8', { winner: 'A' }],
    ['{"score": 4', undefined],
    ['{"score": 4, "reason": "fine', { score: 4 }],
    // A key written out but not its value.
    ['{"winner": "B", "confidence"', { winner: 'B' }],
    ['{"winner": "B", "confidence":', { winner: 'B' }],
    // A string value still open is left out, not guessed ("ti" is not "tie").
    ['{"winner": "ti', undefined],
    // Escaped quotes do not close a string.
    ['{"reason": "said \\"A\\"", "winner": "A", "x', { reason: 'said "A"', winner: 'A' }],
    // Wrapped under the schema name, and prose before it.
    [
      'Sure.\n```json\n{"pairwise_verdict": {"winner": "A", "reason": "r',
      { pairwise_verdict: { winner: 'A' } },
    ],
    // Arrays keep their whole elements.
    ['{"scores": [1, 2, 3', { scores: [1, 2] }],
    ['no object at all', undefined],
    // A whole object is not a cut-off one.
    ['{"winner": "A"} and then the prose was cut', undefined],
  ])('%j', (text, want) => {
    expect(cutOffObject(text)).toEqual(want);
  });

  it('tells a stored answer read from a cut-off object from a whole one', () => {
    expect(readFromCutOff('{"winner": "A", "reason": "x', { winner: 'A' })).toBe(true);
    expect(readFromCutOff('{"winner": "A", "reason": "x"}', { winner: 'A', reason: 'x' })).toBe(false);
    expect(readFromCutOff('plain text answer', 'plain text answer')).toBe(false);
  });
});

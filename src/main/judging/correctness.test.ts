import { describe, expect, it } from 'vitest';
import { parseCorrectnessVerdict } from './correctness';

const value = (json: unknown) => {
  const r = parseCorrectnessVerdict(json);
  return r.ok ? r.value : r.error;
};

describe('correctness_verdict', () => {
  it('reads the verdict in any case and wrapping, and the object wrapped under its name', () => {
    const v = { extracted_answer: 'Paris', explanation: 'e' };
    expect(value({ ...v, verdict: 'CORRECT' })).toEqual({ ...v, verdict: 'CORRECT' });
    expect(value({ ...v, verdict: 'correct' })).toEqual({ ...v, verdict: 'CORRECT' });
    expect(value({ ...v, verdict: ' **Incorrect**. ' })).toEqual({ ...v, verdict: 'INCORRECT' });
    expect(value({ correctness_verdict: { ...v, verdict: 'Correct' } })).toEqual({
      ...v,
      verdict: 'CORRECT',
    });
    expect(value(JSON.stringify({ ...v, verdict: 'INCORRECT' }))).toEqual({ ...v, verdict: 'INCORRECT' });
  });

  it('takes a missing explanation as empty and a numeric extracted answer as its text', () => {
    expect(value({ extracted_answer: 1945, verdict: 'CORRECT' })).toEqual({
      extracted_answer: '1945',
      explanation: '',
      verdict: 'CORRECT',
    });
  });

  it('refuses a verdict that is neither, and a missing extracted answer (the metrics compare it)', () => {
    for (const verdict of ['maybe', 'partially correct', '', true, undefined])
      expect(value({ extracted_answer: 'x', explanation: 'e', verdict })).toMatch(
        /"verdict" must be "CORRECT" or "INCORRECT"/,
      );
    expect(value({ explanation: 'e', verdict: 'CORRECT' })).toBe('"extracted_answer" must be a string');
    expect(value('no json')).toMatch(/not JSON/);
  });
});

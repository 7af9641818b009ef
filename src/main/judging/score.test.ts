import { describe, expect, it } from 'vitest';
import { parseScoreVerdict } from './score';

describe('score_verdict', () => {
  it('reads a score on the asked scale and refuses anything else with the reason', () => {
    expect(parseScoreVerdict({ score: 4, reason: 'ok' }, 5)).toEqual({
      ok: true,
      value: { score: 4, reason: 'ok' },
    });
    expect(parseScoreVerdict('{"score": "7", "reason": "r"}', 10)).toEqual({
      ok: true,
      value: { score: 7, reason: 'r' },
    });
    for (const score of [0, 6, 3.5, 'high', null, '3.5', '4/10', '', undefined])
      expect(parseScoreVerdict({ score, reason: '' }, 5)).toMatchObject({
        ok: false,
        error: expect.stringContaining('"score" must be an integer from 1 to 5'),
      });
    expect(parseScoreVerdict('not json', 5)).toMatchObject({ ok: false });
  });

  it('reads every unambiguous form: text, wrapped, "4/5", "4 out of 5", no reason', () => {
    const score = (json: unknown, scale = 5) => {
      const r = parseScoreVerdict(json, scale);
      return r.ok ? r.value : r.error;
    };
    expect(score({ score: '4' })).toEqual({ score: 4, reason: '' });
    expect(score({ score: ' 5.0 ', reason: 'r' })).toEqual({ score: 5, reason: 'r' });
    expect(score({ score_verdict: { score: 2, reason: 'r' } })).toEqual({ score: 2, reason: 'r' });
    expect(score({ score: '4/5' })).toEqual({ score: 4, reason: '' });
    expect(score({ score: '8 out of 10' }, 10)).toEqual({ score: 8, reason: '' });
    expect(score('Score:\n```json\n{"score": 3}\n```')).toEqual({ score: 3, reason: '' });
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeWinner, parsePairwiseVerdict, parseRewrite, parseScoreVerdict } from './parse';

describe('bias-probes answers', () => {
  it('reads a score_verdict on the asked scale and refuses anything else with the reason', () => {
    expect(parseScoreVerdict({ score: 4, reason: 'ok' }, 5)).toEqual({
      ok: true,
      value: { score: 4, reason: 'ok' },
    });
    expect(parseScoreVerdict('{"score": "7", "reason": "r"}', 10)).toEqual({
      ok: true,
      value: { score: 7, reason: 'r' },
    });
    for (const score of [0, 6, 3.5, 'high', null])
      expect(parseScoreVerdict({ score, reason: '' }, 5)).toMatchObject({
        ok: false,
        error: expect.stringContaining('"score" must be an integer from 1 to 5'),
      });
    expect(parseScoreVerdict('not json', 5)).toMatchObject({ ok: false });
  });

  it('reads a pairwise_verdict, tolerating "Response A" style winners', () => {
    for (const [raw, w] of [
      ['A', 'A'],
      ['response b', 'B'],
      ['(A)', 'A'],
      ['**Tie**', 'tie'],
      ['C', null],
      [3, null],
    ] as const)
      expect(normalizeWinner(raw)).toBe(w);
    expect(parsePairwiseVerdict({ winner: 'B', confidence: 1.4, reason: 'r' })).toEqual({
      ok: true,
      value: { winner: 'B', confidence: 1, reason: 'r' },
    });
    expect(parsePairwiseVerdict({ winner: 'both' })).toMatchObject({ ok: false });
  });

  it('reads a rewrite, and NO_FILLER as "no shorter variant"', () => {
    expect(parseRewrite('  text  ')).toEqual({ ok: true, value: { text: 'text' } });
    expect(parseRewrite('NO_FILLER')).toEqual({ ok: true, value: { text: null, none: true } });
    expect(parseRewrite({})).toMatchObject({ ok: false });
  });
});

// The pointwise score every pointwise study asks for (DESIGN.md section 6): one wire schema, one
// tolerant parser.
import type { ResponseSchema } from '../providers/types';
import { answerObject, fail, textOf, type ParseResult } from './answer';
import { strictObject } from './schema';

export interface ScoreVerdict {
  score: number;
  reason: string;
}

/** No minimum/maximum in the schema (strict mode on some servers refuses them): the parser checks the scale. */
export const SCORE_VERDICT_SCHEMA: ResponseSchema = {
  name: 'score_verdict',
  description: 'A score of one response on the given scale.',
  schema: strictObject({
    score: { type: 'integer', description: 'The score, an integer on the scale.' },
    reason: { type: 'string', description: 'A short explanation.' },
  }),
};

/** 4, "4", "4.0", "4/5" or "4 out of 5" (the denominator must be the scale asked for); null otherwise. */
function scoreOf(raw: unknown, scale: number): number | null {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return null;
  const m = /^\s*(\d+(?:\.0+)?)\s*(?:(?:\/|out of)\s*(\d+)\s*)?$/i.exec(raw);
  if (!m || (m[2] !== undefined && Number(m[2]) !== scale)) return null;
  return Number(m[1]);
}

/** Parses a `score_verdict`: an integer from 1 to `scale`; a missing reason is ''. */
export function parseScoreVerdict(json: unknown, scale: number): ParseResult<ScoreVerdict> {
  const obj = answerObject(json, SCORE_VERDICT_SCHEMA.name);
  if (typeof obj === 'string') return fail(obj);
  const score = scoreOf(obj.score, scale);
  if (score === null || !Number.isInteger(score) || score < 1 || score > scale)
    return fail(`"score" must be an integer from 1 to ${scale}, got ${JSON.stringify(obj.score)}`);
  return { ok: true, value: { score, reason: textOf(obj.reason) } };
}

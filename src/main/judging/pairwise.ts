// The pairwise verdict every pairwise study asks for (DESIGN.md section 6): one wire schema, one
// tolerant parser.
import type { ResponseSchema } from '../providers/types';
import { answerObject, fail, numberOf, textOf, type ParseResult } from './answer';
import { strictObject } from './schema';

export type Winner = 'A' | 'B' | 'tie';

export interface PairwiseVerdict {
  winner: Winner;
  /** In [0, 1]; null when the judge gave none (or nothing numeric). */
  confidence: number | null;
  reason: string;
}

export const PAIRWISE_VERDICT_SCHEMA: ResponseSchema = {
  name: 'pairwise_verdict',
  description: 'Which response follows the instruction better.',
  schema: strictObject({
    winner: { type: 'string', enum: ['A', 'B', 'tie'], description: 'The better response, or tie.' },
    // No minimum/maximum: not every OpenAI-compatible server accepts them in strict mode;
    // the parser clamps instead.
    confidence: { type: 'number', description: 'Confidence from 0 (a guess) to 1 (certain).' },
    reason: { type: 'string', description: 'A short explanation.' },
  }),
};

// "A", "a", "(A)", "Response A", "Output (a)", "Assistant B.", "**A**": a single letter A or B,
// optionally named as a response/output/answer/assistant and wrapped in brackets. "1" and "2"
// are the first and second response shown (A and B).
const WINNER = /^(?:(?:response|output|answer|assistant|candidate)\s*)?[([]?\s*([ab12])\s*[)\]]?$/i;

/** Normalizes a `winner` value; null when it names neither response nor a tie. */
export function normalizeWinner(raw: unknown): Winner | null {
  if (raw === 1 || raw === 2) return raw === 1 ? 'A' : 'B';
  if (typeof raw !== 'string') return null;
  const s = raw
    .trim()
    .replace(/^[\s"'`*_]+|[\s"'`*_.!]+$/g, '')
    .trim();
  if (/^tie$/i.test(s)) return 'tie';
  const m = WINNER.exec(s);
  if (!m) return null;
  const c = m[1].toUpperCase();
  return c === 'A' || c === '1' ? 'A' : 'B';
}

/** A confidence in [0, 1] (numbers beyond are clamped; "80%" is 0.8); null when absent or not numeric. */
export function normalizeConfidence(raw: unknown): number | null {
  const percent = typeof raw === 'string' ? /^\s*(-?\d+(?:\.\d+)?)\s*%\s*$/.exec(raw) : null;
  const n = percent ? Number(percent[1]) / 100 : numberOf(raw);
  return n === null ? null : Math.min(1, Math.max(0, n));
}

/**
 * Parses a `pairwise_verdict`. Only the winner decides whether an answer is usable: it must name
 * A, B or a tie (in any of the forms above); confidence and reason are read when given.
 */
export function parsePairwiseVerdict(json: unknown): ParseResult<PairwiseVerdict> {
  const obj = answerObject(json, PAIRWISE_VERDICT_SCHEMA.name);
  if (typeof obj === 'string') return fail(obj);
  if (obj.winner === undefined) return fail('"winner" is missing');
  const winner = normalizeWinner(obj.winner);
  if (winner === null) return fail(`"winner" must be "A", "B" or "tie", got ${JSON.stringify(obj.winner)}`);
  return {
    ok: true,
    value: { winner, confidence: normalizeConfidence(obj.confidence), reason: textOf(obj.reason) },
  };
}

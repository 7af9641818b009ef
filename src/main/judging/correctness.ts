// The correctness verdict (is a generated answer correct?; DESIGN.md section 6): one wire schema,
// one tolerant parser.
import type { ResponseSchema } from '../providers/types';
import { answerObject, fail, textOf, type ParseResult } from './answer';

export type Correctness = 'CORRECT' | 'INCORRECT';

export interface CorrectnessVerdict {
  extracted_answer: string;
  explanation: string;
  verdict: Correctness;
}

export const CORRECTNESS_VERDICT_SCHEMA: ResponseSchema = {
  name: 'correctness_verdict',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['extracted_answer', 'explanation', 'verdict'],
    properties: {
      extracted_answer: { type: 'string' },
      explanation: { type: 'string' },
      verdict: { type: 'string', enum: ['CORRECT', 'INCORRECT'] },
    },
  },
};

/**
 * Parses a `correctness_verdict`. The verdict in any case and wrapping ("correct", "**Incorrect**.");
 * the extracted answer is a measured value (the metrics compare it across settings), so it must be
 * there (a number counts as its text); a missing explanation is ''.
 */
export function parseCorrectnessVerdict(json: unknown): ParseResult<CorrectnessVerdict> {
  const obj = answerObject(json, CORRECTNESS_VERDICT_SCHEMA.name);
  if (typeof obj === 'string') return fail(`${obj} "${CORRECTNESS_VERDICT_SCHEMA.name}"`);
  const extracted =
    typeof obj.extracted_answer === 'number' ? String(obj.extracted_answer) : obj.extracted_answer;
  if (typeof extracted !== 'string') return fail('"extracted_answer" must be a string');
  const verdict =
    typeof obj.verdict === 'string'
      ? obj.verdict
          .trim()
          .replace(/^[\s"'`*_]+|[\s"'`*_.!]+$/g, '')
          .toUpperCase()
      : '';
  if (verdict !== 'CORRECT' && verdict !== 'INCORRECT')
    return fail(`"verdict" must be "CORRECT" or "INCORRECT", got ${JSON.stringify(obj.verdict)}`);
  return { ok: true, value: { extracted_answer: extracted, explanation: textOf(obj.explanation), verdict } };
}

// Parsing a generated (plain-text) answer; verdicts are the judging kit's correctness_verdict
// (src/main/judging/correctness.ts).
import type { ParseResult } from '../../judging/answer';

export function parseGeneratedAnswer(json: unknown): ParseResult<{ answer: string }> {
  if (typeof json !== 'string' || json.trim() === '')
    return { ok: false, error: 'the generated answer is empty' };
  return { ok: true, value: { answer: json.trim() } };
}

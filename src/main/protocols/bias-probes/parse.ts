// Parsing the plain-text rewrites; verdicts are the judging kit's score_verdict and
// pairwise_verdict (src/main/judging/).
import type { ParseResult } from '../../judging/answer';
import { NO_FILLER } from './prompts';

/**
 * A rewrite: its text, or `none` when the rewriter found no filler to cut. `hand`: a person's
 * text laid over the rewriter's answer (hand-edits.ts), never stored in the results.
 */
export type Rewrite =
  { text: string; none?: false; hand?: { by: string; at: string } } | { text: null; none: true };

export function parseRewrite(json: unknown): ParseResult<Rewrite> {
  if (typeof json !== 'string') return { ok: false, error: 'the rewrite is not text' };
  const text = json.trim();
  if (text === NO_FILLER) return { ok: true, value: { text: null, none: true } };
  // An empty rewrite is stored (the audit flags it) rather than asked again: it is the model's answer.
  return { ok: true, value: { text } };
}

// Prompts of the self-consistency protocol: the judging kit's standard score and pairwise prompts,
// one fixed text per mode, so every repeat is the very same request.
import { pairwiseUserPrompt, scoreSystemPrompt, scoreUserPrompt } from '../../judging/prompts';

export const PAIRWISE_SYSTEM =
  'You are an impartial judge. Decide which of two responses follows the instruction better: ' +
  'correctness, helpfulness and doing what was asked, no more and no less. The order of the ' +
  'responses, their length and their style must not decide. Answer with a JSON object ' +
  '"pairwise_verdict": {"winner": "A" | "B" | "tie", "confidence": 0-1, "reason": short}.';

export const DEFAULT_RUBRIC =
  'Judge how well the response follows the instruction: correctness, helpfulness and whether it ' +
  'does what was asked, no more and no less.';

/** The score's system prompt under the configured rubric (default: the one above). */
export function scoreSystem(scale: number, rubric: string | null): string {
  return scoreSystemPrompt(scale, rubric ?? DEFAULT_RUBRIC);
}

/** The prompts as run, for the manifest. */
export function promptTemplatesOf(scale: number, rubric: string | null): Record<string, string> {
  return {
    pairwiseSystem: PAIRWISE_SYSTEM,
    pairwiseUser: pairwiseUserPrompt('{{instruction}}', '{{response_a}}', '{{response_b}}'),
    scoreSystem: scoreSystem(scale, rubric),
    scoreUser: scoreUserPrompt('{{instruction}}', '{{response}}', scale),
  };
}

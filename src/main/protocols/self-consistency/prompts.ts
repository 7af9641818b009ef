// Prompts of the self-consistency protocol: the judging kit's named sections and verdict
// contracts, one fixed text per mode, so every repeat is the very same request.
import { inlineTag, sections } from '../../judging/template';

export const PAIRWISE_SYSTEM =
  'You are an impartial judge. Decide which of two responses follows the instruction better: ' +
  'correctness, helpfulness and doing what was asked, no more and no less. The order of the ' +
  'responses, their length and their style must not decide. Answer with a JSON object ' +
  '"pairwise_verdict": {"winner": "A" | "B" | "tie", "confidence": 0-1, "reason": short}.';

export function pairwisePrompt(instruction: string, a: string, b: string): string {
  return (
    sections([
      ['instruction', instruction],
      ['response_a', a],
      ['response_b', b],
    ]) + '\n\nWhich response is better?'
  );
}

export const DEFAULT_RUBRIC =
  'Judge how well the response follows the instruction: correctness, helpfulness and whether it ' +
  'does what was asked, no more and no less.';

export function scoreSystem(scale: number, rubric: string | null): string {
  return (
    `You are an impartial judge. Rate a response to an instruction on an integer scale from 1 ` +
    `(very poor) to ${scale} (excellent).\n\nRubric: ${rubric ?? DEFAULT_RUBRIC}\n\n` +
    'Answer with a JSON object "score_verdict": {"score": integer, "reason": short explanation}.'
  );
}

export function scorePrompt(instruction: string, response: string, scale: number): string {
  return (
    `${inlineTag('scale', `1-${scale}`)}\n` +
    sections([
      ['instruction', instruction],
      ['response', response],
    ]) +
    '\n\nRate the response.'
  );
}

/** The prompts as run, for the manifest. */
export function promptTemplatesOf(scale: number, rubric: string | null): Record<string, string> {
  return {
    pairwiseSystem: PAIRWISE_SYSTEM,
    pairwiseUser: pairwisePrompt('{{instruction}}', '{{response_a}}', '{{response_b}}'),
    scoreSystem: scoreSystem(scale, rubric),
    scoreUser: scorePrompt('{{instruction}}', '{{response}}', scale),
  };
}

// The standard prompts that ask for the kit's verdicts (score.ts, pairwise.ts): the texts under
// judgement sit in named sections, the scale in an inline tag. Studies that ask the same question
// share these words, so their requests (and the ledger's cached answers) stay alike; a study
// words only what is its own — the rubric, and the pairwise system prompt's cautions.
import { inlineTag, sections } from './template';

/**
 * The system prompt of a pointwise score on 1…`scale` under `rubric`, asking for the
 * `score_verdict` object.
 */
export function scoreSystemPrompt(scale: number, rubric: string): string {
  return (
    `You are an impartial judge. Rate a response to an instruction on an integer scale from 1 ` +
    `(very poor) to ${scale} (excellent).\n\nRubric: ${rubric}\n\n` +
    'Answer with a JSON object "score_verdict": {"score": integer, "reason": short explanation}.'
  );
}

/** The user prompt of a pointwise score: the scale, the instruction and the one response. */
export function scoreUserPrompt(instruction: string, response: string, scale: number): string {
  return (
    `${inlineTag('scale', `1-${scale}`)}\n` +
    sections([
      ['instruction', instruction],
      ['response', response],
    ]) +
    '\n\nRate the response.'
  );
}

/** The user prompt of a pairwise verdict: the instruction and the two responses as shown (A, B). */
export function pairwiseUserPrompt(instruction: string, a: string, b: string): string {
  return (
    sections([
      ['instruction', instruction],
      ['response_a', a],
      ['response_b', b],
    ]) + '\n\nWhich response is better?'
  );
}

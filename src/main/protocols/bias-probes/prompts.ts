// Prompts of the bias-probes protocol. Texts sit in the judging kit's named sections
// (<instruction>, <response>, <response_a>…), so any reader (the simulated provider, a person
// reading the manifest) can tell the parts apart; the answers are the kit's score_verdict and
// pairwise_verdict.
import { inlineTag, sections } from '../../judging/template';
import { rewriteConditions, rewriteOf } from '../../../shared/protocols/bias-probes/probe-registry';
import { pairwiseUserPrompt, scoreSystemPrompt, scoreUserPrompt } from '../../judging/prompts';
import { DEFAULT_RUBRIC, PAIRWISE_INSTRUCTIONS } from '../../../shared/protocols/bias-probes/instructions';

/** What the rewriter answers when a response has no filler to cut. */
export { NO_FILLER } from '../../../shared/protocols/bias-probes/probe-types';

export const REWRITE_SYSTEM =
  'You rewrite responses for a controlled experiment. Change only what you are asked to change. ' +
  'Never add facts, numbers, names, examples or claims that are not in the response; keep every ' +
  'number exactly as written. Answer with the rewritten response only, without any preface.';

/** A rewrite request: the condition's id as the task, its probe's instructions, the source text. */
export function rewritePrompt(kind: string, instruction: string, response: string): string {
  const spec = rewriteOf(kind);
  if (!spec) throw new Error(`no probe makes a "${kind}" rewrite`);
  return (
    `${inlineTag('rewrite_task', kind)}\n${spec.instructions}\n\n` +
    sections([
      ['instruction', instruction],
      ['response', response],
    ])
  );
}

export { DEFAULT_RUBRIC, PAIRWISE_INSTRUCTIONS };

export const scoreSystem = (scale: number, rubric: string | null): string =>
  scoreSystemPrompt(scale, rubric ?? DEFAULT_RUBRIC);

export const scorePrompt = scoreUserPrompt;

/** Pointwise score of one response while both of a pair are in view (the position probe). */
export function pairScorePrompt(
  instruction: string,
  a: string,
  b: string,
  target: 'A' | 'B',
  scale: number,
): string {
  return (
    `${inlineTag('scale', `1-${scale}`)}\n` +
    sections([
      ['instruction', instruction],
      ['response_a', a],
      ['response_b', b],
    ]) +
    `\n\n${inlineTag('target', target)}\nRate Response ${target} only (the other is shown for context).`
  );
}

export const PAIRWISE_SYSTEM =
  `${PAIRWISE_INSTRUCTIONS} Answer with a ` +
  'JSON object "pairwise_verdict": {"winner": "A" | "B" | "tie", "confidence": 0-1, "reason": short}.';

/**
 * The judging instructions of a mode: the words a paraphrase replaces in the system prompt (the
 * rubric pointwise, the instructions pairwise); the scale and the answer format stay as they are,
 * so a paraphrase changes the wording of the policy only.
 */
export const judgingInstructions = (opts: { mode: string; rubric: string | null }): string =>
  opts.mode === 'pairwise' ? PAIRWISE_INSTRUCTIONS : (opts.rubric ?? DEFAULT_RUBRIC);

/** The system prompt with its judging instructions replaced by a paraphrase. */
export const withInstructions = (system: string, original: string, paraphrase: string): string =>
  system.split(original).join(paraphrase);

/**
 * A paraphrase request: the condition's id as the task, its probe's instructions, which of the K
 * paraphrases this is (so the K requests differ and a model words each its own way), the text.
 */
export function paraphrasePrompt(kind: string, task: string, k: number, count: number, text: string): string {
  return (
    `${inlineTag('rewrite_task', kind)}\n${task}\n` +
    `${inlineTag('paraphrase', `${k + 1} of ${count}`)}\n\n` +
    sections([['judging_instructions', text]])
  );
}

export const pairwisePrompt = pairwiseUserPrompt;

/** The prompts as run, for the manifest. */
export function promptTemplatesOf(
  scale: number,
  rubric: string | null,
  probes: readonly string[],
): Record<string, string> {
  return {
    rewriteSystem: REWRITE_SYSTEM,
    // rewriteLonger, rewriteShorter, rewriteMarkdown, … (every registered rewrite, registry order;
    // an opt-in probe's only when the study selects it, so a study without it keeps its manifest).
    ...Object.fromEntries(
      rewriteConditions(probes).map(({ condition, rewrite }) => [
        `rewrite${condition.id[0].toUpperCase()}${condition.id.slice(1)}`,
        rewritePrompt(condition.id, '{{instruction}}', rewrite.placeholder),
      ]),
    ),
    scoreSystem: scoreSystem(scale, rubric),
    scoreUser: scorePrompt('{{instruction}}', '{{response}}', scale),
    pairScoreUser: pairScorePrompt('{{instruction}}', '{{response_a}}', '{{response_b}}', 'A', scale),
    pairwiseSystem: PAIRWISE_SYSTEM,
    pairwiseUser: pairwisePrompt('{{instruction}}', '{{response_a}}', '{{response_b}}'),
  };
}

// The bias-probes judging instructions, shared so a probe's `detect` can tell the built-in wording
// from a paraphrase of it (the rubric probe); the main side's prompts build the system prompts
// from them.

/** The pointwise rubric when the config gives none. */
export const DEFAULT_RUBRIC =
  'Judge how well the response follows the instruction: correctness, helpfulness and whether it ' +
  'does what was asked, no more and no less. Length and formatting are not merits in themselves.';

/** The pairwise judging instructions (what the rubric probe paraphrases), before the answer format. */
export const PAIRWISE_INSTRUCTIONS =
  'You are an impartial judge. Decide which of two responses follows the instruction better. ' +
  'Do not let the order of the responses, their length or their formatting decide.';

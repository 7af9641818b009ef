// What the authority and distraction probes share: a sentence added at the end of a response (code,
// no call), chosen from a fixed list by a stable hash of the response so a rerun, the estimate and
// the variant browser add the same one, and the side of a judge call whose response carries one
// (the probes' `detect`). Each list comes with a neutral companion of the same token count, added
// at the same place in the base condition, so an effect is the sentence's content, not its length.
import type { JudgePrompt } from '../probe-types';
import type { Mode } from '../types';

/** A perturbing sentence and its neutral companion (the same number of tokens). */
export interface SentencePair {
  added: string;
  neutral: string;
}

/** A stable index into a list of n from the text (FNV-1a, 32 bits): the same text, the same pick. */
export function stableIndex(text: string, n: number): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h % n;
}

/** The response with a sentence after it, as its own paragraph (trailing space of the original dropped). */
export const withSentence = (text: string, sentence: string): string => `${text.trimEnd()}\n\n${sentence}`;

/**
 * The two derivations of a list: the perturbed text and its neutral base. Both pick by the
 * original's hash, so a response's perturbed and neutral texts are one pair of the list.
 */
export function sentenceDerivations(pairs: readonly SentencePair[]): {
  added: (text: string) => string;
  neutral: (text: string) => string;
} {
  const pick = (text: string) => pairs[stableIndex(text.trimEnd(), pairs.length)];
  return {
    added: (text) => withSentence(text, pick(text).added),
    neutral: (text) => withSentence(text, pick(text).neutral),
  };
}

const section = (text: string, tag: string): string | undefined =>
  new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1];

/**
 * The side of a judge call whose response ends with one of the list's added sentences: the
 * letter pairwise, `response` when scored alone pointwise; null otherwise (the neutral base, a
 * score with the pair in view, other probes' calls).
 */
export function sentenceSide(
  prompt: JudgePrompt,
  mode: Mode,
  pairs: readonly SentencePair[],
): 'A' | 'B' | 'response' | null {
  const carries = (text: string | undefined) =>
    text !== undefined && pairs.some((p) => text.trimEnd().endsWith(`\n\n${p.added}`));
  if (mode === 'pointwise')
    return section(prompt.user, 'target') === undefined && carries(section(prompt.user, 'response'))
      ? 'response'
      : null;
  return (
    (['A', 'B'] as const).find((x) => carries(section(prompt.user, `response_${x.toLowerCase()}`))) ?? null
  );
}

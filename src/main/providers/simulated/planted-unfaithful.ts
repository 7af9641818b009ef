// Planted unfaithful translations for the keyless demo of verified translations (issue 37): a
// simulated translator whose name ends in `-unfaithful<NN>` (e.g. `sim-translator-unfaithful20`)
// translates exactly as the same name without the suffix would (every draw is seeded by that
// name), except that on NN % of requests (a draw fixed by the request's texts) it swaps the two
// translated responses: output_1's translation stands under output_2 and the other way round. A
// judge then sees the pair reversed, so its verdict in that language tends to flip against
// English; the back-translation check sees each response's back-translation far from its English
// source. Models without the suffix answer exactly as before.
import { mulberry32 } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { seedOf } from './random';

const UNFAITHFUL_SUFFIX = /-unfaithful(\d{1,2})$/;

/** The planted share of unfaithful translations a model name asks for, or null (no suffix). */
export function plantedUnfaithfulRate(model: string): number | null {
  const m = UNFAITHFUL_SUFFIX.exec(model);
  return m ? Number(m[1]) / 100 : null;
}

/** The request as the translator without the suffix gets it: what every draw is seeded by. */
export function faithfulTwin(spec: ChatRequestSpec): ChatRequestSpec {
  return { ...spec, model: spec.model.replace(UNFAITHFUL_SUFFIX, '') };
}

/** Whether this request is one of the planted ones (fixed by its texts, not by the attempt). */
export function isPlantedUnfaithful(spec: ChatRequestSpec, p: number): boolean {
  const texts = JSON.stringify([spec.system ?? '', spec.messages]);
  return mulberry32(seedOf('unfaithful', texts))() < p;
}

/** A language_variant with its two responses swapped (other answers are left as they are). */
export function unfaithful(spec: ChatRequestSpec, answer: unknown): unknown {
  if (spec.response?.name !== 'language_variant' || typeof answer !== 'object' || answer === null)
    return answer;
  const a = answer as Record<string, unknown>;
  if (!('output_1' in a) || !('output_2' in a)) return answer;
  return { ...a, output_1: a.output_2, output_2: a.output_1 };
}

// The variant browser's rows (served through `experiments.protocolView`, view `variants`).
import { rowReader } from '../../protocol-rows';
import type { RewriteKind } from './types';

/** One judge's answer on a text: a score, or a pairwise choice in words. */
export interface JudgedCell {
  /** "4" (score) or "worse" / "better" / "tie" (pairwise: what the verdict chose). */
  value: string;
  reason: string;
}

export interface BiasVariantView {
  itemId: string;
  category: string | null;
  response: string;
  variant: RewriteKind;
  instruction: string;
  /**
   * The text the variant is compared with: the original (longer, shorter, a tone), the plain text
   * (Markdown), or a derived base (a neutral sentence of the same size, for an added one).
   */
  base: string;
  /** The condition of `base`: the one the rewrite was made from (`RewriteSpec.from`), or the effect's base. */
  baseLabel: string;
  text: string;
  /**
   * `prompt`: a condition that changes the judge's message, not the text (`text: { same: true }`
   * with `prompt`); `base` and `text` are then the judge's prompt in the effect's base condition
   * and in this one (pairwise: as asked in the original order). `derived`: a text made by code
   * (`text: { derive }`, no call, not audited) beside its effect's base. Absent for a rewrite.
   */
  kind?: 'prompt' | 'derived';
  ratio: number | null;
  /** A rewrite whose text a person wrote (a hand edit): who and when. Absent otherwise. */
  edited?: { by: string; at: string };
  reasons: string[];
  judgments: {
    judge: string;
    order: 'orig' | 'swap' | null;
    base: JudgedCell | null;
    variant: JudgedCell | null;
    /**
     * With the noise floor on: the same judge's second answer on the unchanged original (sample 1),
     * so a reader sees whether the change on the variant is more than the judge's own noise.
     * Absent without the noise floor and for a Markdown variant (its base is the plain text).
     */
    repeat?: JudgedCell | null;
  }[];
}

/**
 * The name of the bias probes' hand edit of a rewrite (`experiments.protocolEdit`): fields
 * `{ itemId, response, variant, text, editedBy }` for a response's rewrite, or
 * `{ variant, paraphrase, text, editedBy }` for a paraphrase of the judging instructions.
 */
export const REWRITE_EDIT = 'rewrite';

/** The edit's row for a paraphrase: the paraphrase as the metrics list it, audited again. */
export interface BiasParaphraseEdited {
  variant: string;
  paraphrase: number;
  text: string | null;
  ratio: number | null;
  reasons: string[];
  edited_by?: string;
  edited_at?: string;
}

/** The name of the bias probes' rows view in the generic API (`experiments.protocolView`). */
export const VARIANTS_VIEW = 'variants';

/** Bias probes' rows from the generic API (its variant browser; it has no judgments view), typed. */
export const biasRows = rowReader<BiasVariantView>('bias probes', {
  variants: ['itemId', 'variant', 'base', 'text', 'judgments'],
});

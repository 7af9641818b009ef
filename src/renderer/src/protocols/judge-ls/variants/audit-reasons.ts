// Audit reasons name the variant field they are about: `ZH.output_1: numbers_missing (EN 4, ZH 0)`.
import type { TargetLanguage } from '../../../../../shared/protocols/judge-ls/types';

export type VariantField = 'instruction' | 'output_1' | 'output_2';
export const VARIANT_FIELDS: VariantField[] = ['instruction', 'output_1', 'output_2'];

export interface ParsedReason {
  /** Null when the reason names no field (it is about the whole variant). */
  field: VariantField | null;
  language: TargetLanguage;
  text: string;
}

// ZH, LS, or (issue 37) a language code or LS:<code>: `ar.output_1: …`, `LS:ar.output_2: …`.
const REASON = /^(?:(ZH|LS|(?:LS:)?[a-z]{2,3})\.)?(instruction|output_1|output_2)\s*:\s*(.*)$/s;

/** Splits a reason into the field it flags and what is wrong; the variant's language is the default. */
export function parseReason(reason: string, language: TargetLanguage): ParsedReason {
  const m = REASON.exec(reason.trim());
  if (!m) return { field: null, language, text: reason };
  return {
    field: m[2] as VariantField,
    language: (m[1] as TargetLanguage | undefined) ?? language,
    text: m[3],
  };
}

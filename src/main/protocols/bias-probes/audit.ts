// The audit of a rewritten variant (like the audit of translated texts): not empty, every number
// of the source present, and the length ratio inside the configured band. A flagged variant is
// still judged; the sensitivity view leaves it out.
import type { RewriteKind } from '../../../shared/protocols/bias-probes/types';
import { rewriteOf } from '../../../shared/protocols/bias-probes/probe-registry';
import type { BiasOptions } from './config';
import { memoByText } from '../../../shared/text-memo';

// A run of letters/digits is one token; each Han/kana character is one (no spaces between words).
const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\s\p{P}\p{S}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
const NUMBER = /\d+(?:\.\d+)?/g;

/**
 * Length in tokens (words; CJK characters count one each), the unit of every length measure.
 * Remembered by text: the audit runs again for every results call and every signature of one (the
 * flagged items are part of it), over the same sources and rewrites.
 */
export const tokenCount = memoByText(2_000_000, (text) => text.match(TOKEN)?.length ?? 0);

export function numbersOf(text: string): string[] {
  return text.match(NUMBER) ?? [];
}

export interface VariantAudit {
  ratio: number | null;
  reasons: string[];
}

/** `source` is the text the variant was made from (the plain text for Markdown). */
export function auditVariant(
  kind: RewriteKind,
  source: string,
  variant: string,
  opts: BiasOptions,
): VariantAudit {
  const reasons: string[] = [];
  if (variant.trim() === '') return { ratio: null, reasons: ['empty'] };
  const have = new Set(numbersOf(variant));
  const missing = [...new Set(numbersOf(source))].filter((n) => !have.has(n));
  if (missing.length > 0) reasons.push(`numbers missing: ${missing.slice(0, 8).join(', ')}`);
  const sourceTokens = tokenCount(source);
  const spec = rewriteOf(kind);
  if (!spec) throw new Error(`no probe makes a "${kind}" rewrite`);
  // The words the probe counts (Markdown: markup is not content, the words against the plain text's).
  const variantTokens = tokenCount(spec.content ? spec.content(variant) : variant);
  const ratio = sourceTokens === 0 ? null : variantTokens / sourceTokens;
  const band = spec.band(opts);
  if (ratio !== null && (ratio < band[0] || ratio > band[1]))
    reasons.push(`length ratio ${ratio.toFixed(2)} outside [${band[0]}, ${band[1]}]`);
  return { ratio, reasons };
}

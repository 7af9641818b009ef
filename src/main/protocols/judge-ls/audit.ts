// Automatic checks of each variant against its English source. They flag likely broken
// transforms (dropped text, lost numbers) for a person to review and for the sensitivity
// analysis, which recomputes the headline metrics without flagged items.
import { pairwiseFields } from './pairwise-item';
import type { Item } from '../../../shared/domain';
import type { AuditCheck, FlaggedItem, TargetLanguage } from '../../../shared/protocols/judge-ls/types';
import type { AuditThresholds } from './config';
import { TARGET_LANGUAGES, type Variant, type VariantText } from './model';
import { canonicalTargets, languageInfo } from '../../../shared/protocols/judge-ls/languages';

/**
 * The minimum length ratio of a target: ZH and LS their own thresholds; another target (issue 37)
 * ZH's when its script writes a word in a character or two (Chinese, Japanese), else LS's.
 */
export function minLengthRatioOf(t: AuditThresholds, language: TargetLanguage): number {
  if (language === 'ZH' || language === 'LS') return t.minLengthRatio[language as 'ZH' | 'LS'];
  const script = languageInfo(language)?.script;
  return script === 'Hans' || script === 'Jpan' ? t.minLengthRatio.ZH : t.minLengthRatio.LS;
}

const NUMBER_TOKEN = /\d+(\.\d+)?/g;

const FIELDS = [
  ['instruction', 'instruction'],
  ['output_1', 'output1'],
  ['output_2', 'output2'],
] as const;

/** Number tokens (`\d+(\.\d+)?`, ASCII digits) in a text. */
export function countNumberTokens(text: string): number {
  return text.match(NUMBER_TOKEN)?.length ?? 0;
}

/** Length in characters (Unicode code points, as the reference scripts' Python len()). */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function formatRatio(r: number): string {
  return String(Number(r.toPrecision(3)));
}

/** Reasons for one field, without the "ZH.output_1: " prefix. */
function auditField(en: string, variant: string, language: TargetLanguage, t: AuditThresholds): string[] {
  // A blank field makes every other check redundant.
  if (variant.trim() === '') return en.trim() === '' ? [] : ['empty'];
  const reasons: string[] = [];
  const enNumbers = countNumberTokens(en);
  const varNumbers = countNumberTokens(variant);
  if (enNumbers >= t.minNumbersForMissing && varNumbers === 0) {
    reasons.push(`numbers_missing (EN ${enNumbers}, ${language} 0)`);
  }
  if (Math.abs(enNumbers - varNumbers) >= t.numberCountDiff) {
    reasons.push(`number_count_diff (EN ${enNumbers}, ${language} ${varNumbers})`);
  }
  const enLength = charLength(en);
  if (enLength > 0) {
    const varLength = charLength(variant);
    const ratio = varLength / enLength;
    const min = minLengthRatioOf(t, language);
    if (ratio < min) {
      reasons.push(
        `length_ratio (${formatRatio(ratio)} < ${min}; EN ${enLength}, ${language} ${varLength} chars)`,
      );
    }
  }
  return reasons;
}

/** Every reason a variant is suspicious, e.g. "ZH.output_1: numbers_missing (EN 4, ZH 0)". */
export function auditVariant(
  english: VariantText,
  variant: VariantText,
  language: TargetLanguage,
  thresholds: AuditThresholds,
): string[] {
  return FIELDS.flatMap(([wire, field]) =>
    auditField(english[field], variant[field], language, thresholds).map((r) => `${language}.${wire}: ${r}`),
  );
}

export interface VariantAudit {
  itemId: number;
  sourceId: string;
  language: TargetLanguage;
  /** Stored with the variant (variants.audit_json). */
  reasons: string[];
}

export interface AuditResult {
  /** One entry per variant audited, in item order, ZH before LS. */
  variants: VariantAudit[];
  /** Items with at least one reason (item_id = source id), in item order. */
  flagged: FlaggedItem[];
  checks: AuditCheck[];
}

/** Audits every variant of the given items (variants of other items are ignored). */
export function auditVariants(
  items: readonly Item[],
  variants: readonly Variant[],
  thresholds: AuditThresholds,
): AuditResult {
  const byKey = new Map(variants.map((v) => [`${v.itemId}:${v.language}`, v]));
  // ZH and LS first, as before; then the other targets the variants hold.
  const languages = canonicalTargets([...TARGET_LANGUAGES, ...new Set(variants.map((v) => v.language))]);
  const audited: VariantAudit[] = [];
  const flagged: FlaggedItem[] = [];
  for (const item of items) {
    const { instruction, output1, output2 } = pairwiseFields(item);
    const english: VariantText = { instruction, output1, output2 };
    const itemReasons: string[] = [];
    for (const language of languages) {
      const v = byKey.get(`${item.id}:${language}`);
      if (!v) continue;
      const reasons = auditVariant(english, v, language, thresholds);
      audited.push({ itemId: item.id, sourceId: item.sourceId, language, reasons });
      itemReasons.push(...reasons);
    }
    if (itemReasons.length > 0) flagged.push({ item_id: item.sourceId, reasons: itemReasons });
  }
  return { variants: audited, flagged, checks: auditChecks(thresholds) };
}

/**
 * The rules as they are reported in metrics.audit.checks: a length-ratio rule for ZH and LS
 * always (as before issue 37), and for each other target the study lists.
 */
export function auditChecks(t: AuditThresholds, languages: readonly TargetLanguage[] = []): AuditCheck[] {
  const targets = canonicalTargets([...TARGET_LANGUAGES, ...languages]);
  return [
    { rule: 'empty', description: 'A variant field is blank while the English field is not.' },
    {
      rule: 'numbers_missing',
      description: `The English field has at least ${t.minNumbersForMissing} number tokens (\\d+(\\.\\d+)?) and the variant field none.`,
      threshold: t.minNumbersForMissing,
    },
    {
      rule: 'number_count_diff',
      description: `The number-token counts of the English and the variant field differ by ${t.numberCountDiff} or more.`,
      threshold: t.numberCountDiff,
    },
    ...targets.map((l) => ({
      rule: `length_ratio.${l}`,
      description: `${l} field length / English field length (characters) is below ${minLengthRatioOf(t, l)} (not checked when the English field is empty).`,
      threshold: minLengthRatioOf(t, l),
    })),
  ];
}

/**
 * The target languages Judge-LS can translate into beside its original ZH and LS (issue 37): BCP 47
 * primary codes with their names in English and Chinese, script and direction (the renderer sets
 * `dir` and `lang` from them, as reference sensitivity does for Arabic and Telugu), and a
 * code-switched variant `LS:<code>` for each (the code's language carries the sentences, terms stay
 * in English). `ZH` and `LS` keep their own meaning and prompts: they are not aliases of `zh`
 * and `LS:zh`, so earlier studies render and hash exactly as before.
 */

import { LANGUAGE_CATALOGUE, type LanguageInfo } from '../../languages';

export { LANGUAGE_CATALOGUE, type LanguageInfo, type Script } from '../../languages';

const BY_CODE = new Map(LANGUAGE_CATALOGUE.map((l) => [l.code, l]));

/** The original targets, in their canonical order (metrics rows and plans put them first). */
export const LEGACY_TARGETS = ['ZH', 'LS'] as const;

/** A target: ZH, LS, a catalogue code (`ar`), or a code-switched pair with English (`LS:ar`). */
export function isTargetLanguage(value: string): boolean {
  if (value === 'ZH' || value === 'LS') return true;
  const code = value.startsWith('LS:') ? value.slice(3) : value;
  return BY_CODE.has(code);
}

/** The catalogue entry of a target (ZH and LS: Chinese), or null for EN. */
export function languageInfo(target: string): LanguageInfo | null {
  if (target === 'EN') return null;
  if (target === 'ZH' || target === 'LS') return BY_CODE.get('zh')!;
  return BY_CODE.get(target.startsWith('LS:') ? target.slice(3) : target) ?? null;
}

/** Whether a target is code-switched with English (LS or LS:<code>). */
export function isCodeSwitched(target: string): boolean {
  return target === 'LS' || target.startsWith('LS:');
}

/** The target's name for prompts and reports, in English or Chinese. */
export function targetName(target: string, lang: 'en' | 'zh' = 'en'): string {
  if (target === 'ZH') return lang === 'zh' ? '简体中文 (ZH)' : 'Simplified Chinese (ZH)';
  if (target === 'LS') return lang === 'zh' ? '中英语码转换 (LS)' : 'Chinese-English code-switching (LS)';
  const info = languageInfo(target);
  if (!info) return target;
  if (isCodeSwitched(target))
    return lang === 'zh'
      ? `${info.zh}–英语语码转换 (${target})`
      : `${info.en}-English code-switching (${target})`;
  return `${lang === 'zh' ? info.zh : info.en} (${target})`;
}

/**
 * Targets in canonical order: ZH, LS, then the others as listed (so a study with only ZH and LS
 * orders its rows exactly as before).
 */
export function canonicalTargets(targets: readonly string[]): string[] {
  const legacy = LEGACY_TARGETS.filter((l) => targets.includes(l));
  return [...legacy, ...targets.filter((l) => l !== 'ZH' && l !== 'LS')];
}

/** The comparison name of a target (`EN-ZH`, `EN-ar`, `EN-LS:ar`). */
export function comparisonOf(target: string): `EN-${string}` {
  return `EN-${target}`;
}

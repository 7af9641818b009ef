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

/**
 * A code-switched target at an asked mixing ratio (issue 37, dose–response): `LS:<code>@<0–100>`,
 * the percentage of content words asked in that language (the rest stay in English).
 */
const MIXED = /^LS:([a-z]{2,3})@(\d{1,3})$/;

/** The series and asked ratio (0–1) of a mixed target (`LS:zh@25` → LS:zh, 0.25), else null. */
export function mixingOf(target: string): { series: string; ratio: number; percent: number } | null {
  const m = MIXED.exec(target);
  if (!m || !BY_CODE.has(m[1]) || Number(m[2]) > 100 || String(Number(m[2])) !== m[2]) return null;
  return { series: `LS:${m[1]}`, ratio: Number(m[2]) / 100, percent: Number(m[2]) };
}

/**
 * Why a string is not a target, or null when it is one: the config's error names the field and
 * says what to write instead.
 */
export function targetLanguageProblem(value: string): string | null {
  if (isTargetLanguage(value)) return null;
  const at = value.indexOf('@');
  if (at >= 0) {
    const head = value.slice(0, at);
    const ratio = value.slice(at + 1);
    if (head === 'LS' || head === 'ZH')
      return `"${value}": ${head} keeps its own prompt and takes no mixing ratio; write LS:zh@${ratio || '25'}`;
    if (!head.startsWith('LS:') && BY_CODE.has(head))
      return `"${value}": a mixing ratio needs a code-switched target; write LS:${head}@${ratio || '25'}`;
    if (head.startsWith('LS:') && BY_CODE.has(head.slice(3)))
      return `"${value}": the mixing ratio must be a whole percentage from 0 to 100 (LS:<code>@<0–100>, e.g. ${head}@25)`;
  }
  return `unknown language "${value}": use ZH, LS, a language code such as ar, hi, te, es, LS:<code>, or LS:<code>@<0–100> for a mixing ratio`;
}

/** A target: ZH, LS, a catalogue code (`ar`), a code-switched pair with English (`LS:ar`), or one at a mixing ratio (`LS:ar@25`). */
export function isTargetLanguage(value: string): boolean {
  if (value === 'ZH' || value === 'LS') return true;
  if (value.includes('@')) return mixingOf(value) !== null;
  const code = value.startsWith('LS:') ? value.slice(3) : value;
  return BY_CODE.has(code);
}

/** The language code a target other than ZH, LS and EN names (`LS:ar@25` → ar). */
function codeOf(target: string): string {
  const bare = target.startsWith('LS:') ? target.slice(3) : target;
  const at = bare.indexOf('@');
  return at < 0 ? bare : bare.slice(0, at);
}

/** The catalogue entry of a target (ZH and LS: Chinese), or null for EN. */
export function languageInfo(target: string): LanguageInfo | null {
  if (target === 'EN') return null;
  if (target === 'ZH' || target === 'LS') return BY_CODE.get('zh')!;
  return BY_CODE.get(codeOf(target)) ?? null;
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
  const mixed = mixingOf(target);
  if (mixed)
    return lang === 'zh'
      ? `${info.zh}–英语语码转换，约 ${mixed.percent}% 为${info.zh} (${target})`
      : `${info.en}-English code-switching, about ${mixed.percent}% ${info.en} (${target})`;
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

/**
 * Whether a target gets tie probes (the gold answer in English against its translation): ZH and
 * every plain catalogue code (`zh`, `ar`, `hi`); a code-switched text is not a translation of the
 * answer, so LS, `LS:<code>` and mixed targets get none.
 */
export function isProbeTarget(target: string): boolean {
  return target === 'ZH' || (target !== 'LS' && !isCodeSwitched(target) && BY_CODE.has(target));
}

/** The probed targets of a study, in canonical order (ZH first, as before issue 37). */
export function probeTargets(targets: readonly string[]): string[] {
  return canonicalTargets(targets).filter(isProbeTarget);
}

/** A probed target's two orders: ZH keeps en_zh / zh_en; others en_target / target_en. */
export function probeOrdersOf(
  target: string,
): readonly ['en_zh', 'zh_en'] | readonly ['en_target', 'target_en'] {
  return target === 'ZH' ? (['en_zh', 'zh_en'] as const) : (['en_target', 'target_en'] as const);
}

/** The target a tie probe's language names (`EN-ar` → ar), or null when it names none. */
export function probeTargetOf(language: string): string | null {
  if (!language.startsWith('EN-')) return null;
  const t = language.slice(3);
  return isProbeTarget(t) ? t : null;
}

// The mixing ratio of a code-switched text, measured on the text produced (issue 37, dose–response):
// the share of its content words that are in the second language rather than in English.
//
// Content words: the word-like segments of Intl.Segmenter (word granularity, the target's locale,
// so Chinese and Japanese, written without spaces, are cut into words by ICU's dictionary) that hold
// a letter, outside what every language keeps as written (code, URLs, e-mail addresses; numbers hold
// no letter). A word is in the second language when its letters are in that language's script; for a
// language written in the Latin script, as English is, when it is a Latin word that the English
// source does not have (compared in lower case). Words in a third script count for neither side.
// Sentences were the other unit the issue named; they are too coarse for the texts judged (a short
// answer of two sentences cannot be 25 % mixed), so the ratio is of words.
import type { LanguageInfo, Script } from '../languages';

export interface MixingCount {
  /** Content words in English or in the second language. */
  words: number;
  /** Of those, in the second language. */
  target_words: number;
}

/** What the ratio is, for metrics.json and the Methods text. */
export const MIXING_MEASURE =
  'share of content words in the second language (Intl.Segmenter word segments with a letter, code/URLs/e-mails left out; by script, or for a Latin-script language a Latin word the English source does not have)';

const KEPT = /```[\s\S]*?```|`[^`\n]*`|https?:\/\/\S+|[\w.+-]+@[\w-]+\.[\w.]+/gu;
const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;

const SCRIPT_LETTER: Record<Script, RegExp> = {
  Latn: LATIN,
  Arab: /\p{Script=Arabic}/u,
  Deva: /\p{Script=Devanagari}/u,
  Telu: /\p{Script=Telugu}/u,
  Hans: /\p{Script=Han}/u,
  Jpan: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
  Cyrl: /\p{Script=Cyrillic}/u,
  Beng: /\p{Script=Bengali}/u,
  Taml: /\p{Script=Tamil}/u,
};

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, s);
  }
  return s;
}

/** The content words of a text, in order (`locale`: the second language's code). */
export function contentWords(text: string, locale = 'und'): string[] {
  const out: string[] = [];
  for (const seg of segmenter(locale).segment(text.replace(KEPT, ' ')))
    if (seg.isWordLike && LETTER.test(seg.segment)) out.push(seg.segment);
  return out;
}

/**
 * Content words of the produced texts in English and in the second language. `sources` are the
 * English texts they were made from (read only for a Latin-script language).
 */
export function mixingCount(
  produced: readonly string[],
  sources: readonly string[],
  language: Pick<LanguageInfo, 'code' | 'script'>,
): MixingCount {
  const own = SCRIPT_LETTER[language.script];
  const latinTarget = language.script === 'Latn';
  const english = latinTarget
    ? new Set(sources.flatMap((s) => contentWords(s, 'en')).map((w) => w.toLowerCase()))
    : null;
  let words = 0;
  let target = 0;
  for (const text of produced) {
    for (const w of contentWords(text, language.code)) {
      if (english) {
        if (!LATIN.test(w)) continue;
        words++;
        if (!english.has(w.toLowerCase())) target++;
      } else if (own.test(w)) {
        words++;
        target++;
      } else if (LATIN.test(w)) words++;
    }
  }
  return { words, target_words: target };
}

/** target_words / words, or null for a text without content words. */
export function mixingRatio(c: MixingCount): number | null {
  return c.words === 0 ? null : c.target_words / c.words;
}

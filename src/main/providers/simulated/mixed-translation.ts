// Code-switching at an asked mixing ratio for the keyless demo of a code-switching dose–response (issue
// 37): a transform prompt asking for "about NN% of the content words in <language>" gets the English
// texts with whole English words replaced in place by their pseudo form (the script's pseudo-language,
// pseudo-scripts.ts, or pseudo-Chinese words); everything else (spaces, punctuation, numbers, code)
// stays as written, so 0 % is the English itself. Which words switch is a fixed order of the word
// types (seeded by the word), cut where the ratio the app measures on the answer
// (shared/text/mixing.ts) comes nearest the asked one: the measured ratio lands within about one word
// type of it, and a word is written the same way in all three texts. The judge whose flips grow with
// the ratio is planted-mixing.ts.
import { LANGUAGE_CATALOGUE } from '../../../shared/languages';
import { mulberry32 } from '../../../shared/random';
import { mixingCount, mixingRatio } from '../../../shared/text/mixing';
import { pseudoWord } from './pseudo-language';
import { pseudoTranslateScript, type PseudoScript } from './pseudo-scripts';
import { seedOf } from './random';
import { mapWords } from './words';

const ASKED = /about (\d{1,3})% of the content words in ([A-Z][A-Za-z ]*?)(?:[.,]| and)/;

/** The ratio (0–1) and language a transform prompt asks for, or null (no mixing ratio asked). */
export function askedMixing(system: string): { ratio: number; code: string } | null {
  const m = ASKED.exec(system);
  if (!m || Number(m[1]) > 100) return null;
  const info = LANGUAGE_CATALOGUE.find((l) => l.en === m[2].trim());
  return info ? { ratio: Number(m[1]) / 100, code: info.code } : null;
}

/** The text with the words `switched` says replaced by `render` of them, the rest as written. */
function replaceWords(text: string, switched: (w: string) => boolean, render: (w: string) => string): string {
  return mapWords(
    text,
    (w) => (switched(w) ? render(w) : w),
    (c) => c,
  );
}

function wordTypes(texts: readonly string[]): string[] {
  const types = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/[A-Za-z][A-Za-z'’-]*/g)) types.add(m[0].toLowerCase());
  return [...types];
}

/**
 * The English texts code-switched into `code` (its pseudo script, or pseudo-Chinese for zh/ja) with
 * the measured mixing ratio nearest `ratio`.
 */
export function mixedTexts(sources: readonly string[], ratio: number, code: string): string[] {
  const info = LANGUAGE_CATALOGUE.find((l) => l.code === code)!;
  const script = info.script;
  const render =
    script === 'Hans' || script === 'Jpan'
      ? (w: string) => pseudoWord(w)
      : (w: string) => pseudoTranslateScript(w, script as PseudoScript);
  const order = wordTypes(sources)
    .map((w) => ({ w, u: mulberry32(seedOf('mix-order', w))() }))
    .sort((a, b) => a.u - b.u || (a.w < b.w ? -1 : 1))
    .map((x) => x.w);
  const make = (k: number) => {
    const on = new Set(order.slice(0, k));
    return sources.map((t) => replaceWords(t, (w) => on.has(w.toLowerCase()), render));
  };
  const measured = (k: number) => mixingRatio(mixingCount(make(k), sources, info)) ?? 0;
  // The smallest k reaching the ratio (measured grows with k), then the nearer of it and k − 1.
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (measured(mid) >= ratio) hi = mid;
    else lo = mid + 1;
  }
  const k = lo > 0 && Math.abs(measured(lo - 1) - ratio) <= Math.abs(measured(lo) - ratio) ? lo - 1 : lo;
  return make(k);
}

// The word scanner of the simulated translators (pseudo-scripts, mixed code-switching): one
// definition of what a word is and what stays as written, so every simulated language agrees.
import { mulberry32 } from '../../../shared/random';
import { remembered, seedOf } from './random';

// Kept as written by every simulated translation (code, URLs, e-mail addresses, numbers), and
// the English words it renders.
const KEEP = /```[\s\S]*?```|`[^`\n]*`|https?:\/\/\S+|[\w.+-]+@[\w-]+\.[\w.]+|\d+(?:[.,:/]\d+)*%?/y;
const WORD = /[A-Za-z][A-Za-z'’-]*/y;

/**
 * The text rewritten word by word, as the simulated translators do: what must stay as written
 * stays, each English word becomes `word(w)`, every other character `other(c)`.
 */
export function mapWords(text: string, word: (w: string) => string, other: (c: string) => string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    KEEP.lastIndex = i;
    const keep = KEEP.exec(text);
    if (keep) {
      out += keep[0];
      i += keep[0].length;
      continue;
    }
    WORD.lastIndex = i;
    const w = WORD.exec(text);
    if (w) {
      out += word(w[0]);
      i += w[0].length;
      continue;
    }
    out += other(text[i]);
    i++;
  }
  return out;
}

/**
 * Whether code-switched text keeps this word in English: long (task) terms and names mostly do,
 * acronyms always. One rule for the pseudo-Chinese and the pseudo-scripts.
 */
export const keptInEnglish: (word: string) => boolean = remembered((word) => {
  const r = mulberry32(seedOf('switch', word.toLowerCase()))();
  if (/^[A-Z]{2,}$/.test(word)) return true;
  if (word.length >= 8) return r < 0.75;
  if (/^[A-Z]/.test(word) && word.length >= 4) return r < 0.5;
  return r < 0.12;
}, 50_000);

// The word scanner of the simulated translators (pseudo-scripts, mixed code-switching): one
// definition of what a word is and what stays as written, so every simulated language agrees.

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

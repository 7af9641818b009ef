// The 中文 exports' check (as test/export/figures-zh.test.ts does for figures): English words of
// three or more letters left in a text once the names a user gave (experiments, datasets, judge
// labels, models) are taken out; codes and proper names listed in `allowed` are not words.
import { createRequire } from 'node:module';

const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } };
};

export function englishWords(text: string, names: readonly string[], allowed: readonly string[]): string[] {
  let rest = text;
  // Longest first, so a name holding a shorter one is taken out whole.
  for (const n of [...names].sort((a, b) => b.length - a.length)) rest = rest.split(n).join(' ');
  return (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !allowed.includes(w));
}

/** Every <text> of an SVG, as drawn. */
export function svgTexts(svg: string): string[] {
  const { DOMParser: XmlParser } = new JSDOM('').window;
  return [...new XmlParser().parseFromString(svg, 'image/svg+xml').querySelectorAll('text')].map(
    (t) => t.textContent ?? '',
  );
}

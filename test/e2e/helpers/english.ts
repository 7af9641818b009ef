// The zh walks' check: visible text (and titles, labels, placeholders, chart SVG text) with a
// run of four or more ASCII words, i.e. an English sentence left in the 中文 UI. `allowed`
// lists what stays as it is (model text, model names, ids, file names).
import type { Page } from 'playwright-core';

export async function englishOnScreen(page: Page, allowed: string[]): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('script,style,option:not(:checked),[hidden],[aria-hidden="true"]')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const s = (n.textContent ?? '').trim();
      if (s) out.push(s);
    }
    for (const el of document.querySelectorAll('[title],[aria-label],[placeholder]'))
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    return out;
  });
  // Whitespace is compared collapsed: a page may show a text's line breaks as spaces.
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  const ok = allowed.map(flat).filter(Boolean);
  return [
    ...new Set(
      texts.filter(
        (s) =>
          /(?:[A-Za-z][A-Za-z'’-]*[\s,.:;]+){3,}[A-Za-z]/.test(s) && !ok.some((a) => flat(s).includes(a)),
      ),
    ),
  ];
}

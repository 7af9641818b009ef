// The Methods text's model (issue 24; docs/DESIGN.md "Paper kit"): sections of plain text that
// the renderers (src/main/paper/methods-render.ts) turn into Markdown and LaTeX. Text here is never
// markup: each renderer escapes it for its format, so a model id or a dataset name with `_`, `%`
// or `*` in it reads the same in both.

export type MethodsLang = 'en' | 'zh';

/** A paragraph, or a list of short facts. */
export type MethodsBlock = { kind: 'p'; text: string } | { kind: 'list'; items: string[] };

export interface MethodsSection {
  /** Stable id (`datasets`, `judges`, … ; a protocol's own start with its id). */
  id: string;
  title: string;
  blocks: MethodsBlock[];
}

/** A prompt template as run: its name, SHA-256 and full text (the appendix). */
export interface MethodsPrompt {
  name: string;
  sha256: string;
  text: string;
}

export interface MethodsDocument {
  lang: MethodsLang;
  title: string;
  /** "Simulated" warning and the like, shown above the first section. */
  notes: string[];
  sections: MethodsSection[];
  references: string[];
  prompts: MethodsPrompt[];
}

/** What `experiments.methods` returns: the three files as the export folder holds them. */
export interface MethodsFiles {
  markdown: string;
  latex: string;
  checklist: string;
}

/** Numbers in Methods text: rates and means to 3 decimals, counts as integers (no locale grouping, so tests and readers parse them alike). */
export function methodsNumber(x: number): string {
  if (Number.isInteger(x)) return String(x);
  return x.toFixed(3);
}

/** US dollars to 4 decimals (cent fractions matter at mock and pilot scale). */
export function methodsUsd(x: number): string {
  return `$${x.toFixed(4)}`;
}

/** A rate that may be undefined (no valid answers): the number, or "undefined (why)". */
export function methodsRate(x: number | null | undefined, lang: MethodsLang): string {
  if (x === null || x === undefined || !Number.isFinite(x))
    return lang === 'zh' ? '未定义（无有效回答）' : 'undefined (no valid answers)';
  return methodsNumber(x);
}

/** One line per row in the language asked for (each language words the row its own way). */
export function methodsLines<R>(
  rows: readonly R[],
  lang: MethodsLang,
  line: Record<MethodsLang, (row: R) => string>,
): string[] {
  return rows.map(line[lang]);
}

/** A protocol's design in both languages: the section's title and its paragraph. */
export interface MethodsDesign {
  title: { en: string; zh: string };
  text: { en: string; zh: string };
}

/** A protocol's design section from its declared design (`MethodsDesign`), then its lists of numbers. */
export function designMethods(
  id: string,
  design: MethodsDesign,
  lang: MethodsLang,
  ...lists: string[][]
): MethodsSection {
  return designSection(id, design.title, design.text, lang, ...lists);
}

/** A protocol's design section: a paragraph in the language asked for, then its lists of numbers. */
export function designSection(
  id: string,
  title: { en: string; zh: string },
  text: { en: string; zh: string },
  lang: MethodsLang,
  ...lists: string[][]
): MethodsSection {
  return {
    id,
    title: title[lang],
    blocks: [{ kind: 'p', text: text[lang] }, ...lists.map((items) => ({ kind: 'list' as const, items }))],
  };
}

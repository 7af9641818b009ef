// The plain variant keeps every word and number: checked on each LLMBar output (both outputs of
// all 419 items) and on Markdown written to exercise each construct.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lexer, walkTokens, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { stripMarkdown } from './strip-markdown';

const WORD = /[\p{L}\p{N}]+/gu;

/** Code-fence info strings ("```python"): markup naming the language, not content. */
function fenceLanguages(markdown: string): string[] {
  const langs: string[] = [];
  walkTokens(new Lexer({ gfm: true }).lex(markdown), (t) => {
    if (t.type === 'code' && (t as Tokens.Code).lang)
      langs.push(...((t as Tokens.Code).lang!.match(WORD) ?? []));
  });
  return langs;
}

function missingWords(original: string, stripped: string): string[] {
  const have = new Map<string, number>();
  for (const w of fenceLanguages(original)) have.set(w, (have.get(w) ?? 0) + 1);
  for (const w of stripped.match(WORD) ?? []) have.set(w, (have.get(w) ?? 0) + 1);
  const missing: string[] = [];
  for (const w of original.match(WORD) ?? []) {
    const left = have.get(w) ?? 0;
    if (left === 0) missing.push(w);
    else have.set(w, left - 1);
  }
  return missing;
}

const llmbar = readFileSync(join(import.meta.dirname, '../../../../resources/samples/llmbar.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { output_1: string; output_2: string; instruction?: string; input?: string });

describe('stripMarkdown', () => {
  it('keeps every word and number (with multiplicity) of every LLMBar output', () => {
    let checked = 0;
    for (const [i, r] of llmbar.entries())
      for (const text of [r.output_1, r.output_2, r.instruction ?? r.input ?? '']) {
        const stripped = stripMarkdown(text);
        expect(missingWords(text, stripped), `item ${i + 1}: ${text.slice(0, 80)}`).toEqual([]);
        checked++;
      }
    expect(checked).toBe(llmbar.length * 3);
  });

  it('drops headings, emphasis, bullets, quotes, fences and table rules', () => {
    const md = [
      '# Plan for 2024',
      '',
      'Some **bold** and _emphasis_ and `code()` and ~~gone~~ text.',
      '',
      '- first point',
      '- second point',
      '',
      '3. three',
      '4. four',
      '',
      '> quoted 42',
      '',
      '```js',
      'const x = 1;',
      '```',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      'See [the docs](https://example.com/x) now.',
    ].join('\n');
    const plain = stripMarkdown(md);
    expect(plain).toBe(
      [
        'Plan for 2024',
        'Some bold and emphasis and code() and gone text.',
        'first point\nsecond point',
        '3. three\n4. four',
        'quoted 42',
        'const x = 1;',
        'a, b\n1, 2',
        'See the docs (https://example.com/x) now.',
      ].join('\n\n'),
    );
    expect(plain).not.toMatch(/[#*_>|`]/);
    expect(missingWords(md, plain)).toEqual([]);
  });

  it('leaves plain prose as it is', () => {
    const prose = 'Paris is the capital of France. It has 2.1 million people.\n\nA second paragraph.';
    expect(stripMarkdown(prose)).toBe(prose);
  });
});

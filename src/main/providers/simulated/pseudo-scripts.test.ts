import { describe, expect, it } from 'vitest';
import { chrf } from '../../../shared/text/chrf';
import { pseudoTranslate } from './pseudo-language';
import {
  pseudoBackTranslate,
  pseudoScriptOf,
  pseudoTranslateScript,
  type PseudoScript,
} from './pseudo-scripts';

const TEXT =
  'The Quick brown fox, aged 3.5 years, jumps over `lazy_dog()` twice?\n- See https://example.org/a?b=1 and mail a.b@c.org.\nFinal line; done.';

describe('pseudo-languages in other scripts (simulated provider)', () => {
  it.each([
    ['Arab', /\p{Script=Arabic}/u],
    ['Deva', /\p{Script=Devanagari}/u],
    ['Telu', /\p{Script=Telugu}/u],
    ['Latn', /[áéíóúñ]/],
  ] as [PseudoScript, RegExp][])('%s: written in its script, and back-translated exactly', (script, re) => {
    const t = pseudoTranslateScript(TEXT, script);
    expect(t).toMatch(re);
    // No English word survives a plain (not code-switched) translation, but code, URLs, e-mails and
    // numbers stay as written, and the lines stay lines.
    expect(t.replace(/`[^`]*`|https?:\/\/\S+|\S+@\S+/g, '')).not.toMatch(/\b[A-Za-z]{2,}\b/);
    for (const kept of ['3.5', '`lazy_dog()`', 'https://example.org/a?b=1', 'a.b@c.org'])
      expect(t).toContain(kept);
    expect(t.split('\n')).toHaveLength(3);
    expect(pseudoBackTranslate(t)).toBe(TEXT);
    expect(chrf(pseudoBackTranslate(t), TEXT)).toBe(100);
  });

  it('code-switched: some English words stay, and still come back exactly', () => {
    const long =
      'The evaluation framework compares Transformer architectures with recurrent networks on benchmarks.';
    const t = pseudoTranslateScript(long, 'Deva', true);
    expect(t).toMatch(/\p{Script=Devanagari}/u);
    expect(t).toMatch(/\b[A-Za-z]{8,}\b/);
    expect(pseudoBackTranslate(t)).toBe(long);
  });

  it('pseudo-Chinese cannot be undone: its back-translation scores low', () => {
    const zh = pseudoTranslate(TEXT, 'zh');
    expect(pseudoBackTranslate(zh)).toBe(zh);
    expect(chrf(pseudoBackTranslate(zh), TEXT)).toBeLessThan(40);
  });

  it('reads the target from the first language the prompt names (system prompt first)', () => {
    expect(pseudoScriptOf('Target language: Arabic (ar)', 'Translate to Spanish')).toEqual({
      script: 'Arab',
      codeSwitch: false,
    });
    expect(pseudoScriptOf('Target language: Hindi-English code-switching (LS:hi)', '')).toEqual({
      script: 'Deva',
      codeSwitch: true,
    });
    expect(pseudoScriptOf('Target language: Spanish (es)', '')).toEqual({
      script: 'Latn',
      codeSwitch: false,
    });
    // ZH and LS prompts (and prompts naming no language) stay pseudo-Chinese, whatever the item says.
    expect(pseudoScriptOf('Target language: Simplified Chinese (ZH)', 'Answer in Arabic')).toBeNull();
    expect(pseudoScriptOf('Target language: Chinese-English code-switching (LS)', 'in Hindi')).toBeNull();
    expect(pseudoScriptOf('Rewrite it.', 'Nothing named here')).toBeNull();
  });
});

// Markdown tables of the shared table model: text from datasets and models shows as text (no
// link, emphasis, HTML or broken row), and each column keeps its alignment.
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, tableToMarkdown } from '../../src/main/report/markdown';
import { col } from '../../src/shared/report/table';

describe('Markdown tables', () => {
  it('escapes markup, pipes, HTML and line breaks', () => {
    expect(escapeMarkdown('a|b')).toBe('a\\|b');
    expect(escapeMarkdown('[x](http://e) *y* _z_ `c`')).toBe('\\[x\\](http://e) \\*y\\* \\_z\\_ \\`c\\`');
    expect(escapeMarkdown('<script>alert(1)</script> & co')).toBe('&lt;script>alert(1)&lt;/script> &amp; co');
    expect(escapeMarkdown('two\nlines\r\nhere')).toBe('two lines here');
    expect(escapeMarkdown('\u001b[31mred')).toBe('\\\\x1B\\[31mred');
  });

  it('writes title, header, alignment row, rows and caption', () => {
    const md = tableToMarkdown({
      id: 't',
      title: 'Gates',
      caption: 'Intervals are 95%.',
      columns: [col('gate', 'Gate', 'text'), col('n', 'n', 'int'), col('ci', '95% CI', 'text', 'c')],
      rows: [
        { gate: 'ρ with people', n: 30, ci: '[0.61, 0.88]' },
        { gate: 'x | y', n: null, ci: '–' },
      ],
    });
    expect(md.split('\n')).toEqual([
      '**Gates**',
      '',
      '| Gate | n | 95% CI |',
      '| :-- | --: | :-: |',
      '| ρ with people | 30 | \\[0.61, 0.88\\] |',
      '| x \\| y |  | – |',
      '',
      '_Intervals are 95%._',
      '',
    ]);
  });
});

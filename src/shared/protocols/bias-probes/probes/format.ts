// The format probe: the response's Markdown stripped by a parser (`plain`, no call; its score is
// the debiased score) and the plain text rewritten as Markdown with the words kept (`markdown`).
// Pairwise: both responses plain, then the worse one as Markdown beside the plain better one.
// Effect: Markdown − plain. Placebo: the plain text asked again.
import type { BiasProbe } from '../probe-types';
import { stripMarkdown } from '../strip-markdown';

export const formatProbe: BiasProbe = {
  id: 'format',
  conditions: [
    {
      id: 'plain',
      name: { en: 'Plain', zh: '纯文本' },
      text: { derive: stripMarkdown },
      pointwise: true,
      pairwise: 'both',
      debiases: true,
    },
    {
      id: 'markdown',
      name: { en: 'Markdown', zh: 'Markdown' },
      text: {
        rewrite: {
          instructions:
            'Rewrite the response as Markdown: add headings, bulleted or numbered lists and bold or italic ' +
            'emphasis where they fit. Keep the words: add or remove no content, keep every number, and keep ' +
            'the length within 15% of the original.',
          // Made from the plain text, so the pair differs in formatting only.
          from: 'plain',
          placeholder: '{{plain_response}}',
          band: (o) => [1 - o.formatTolerance, 1 + o.formatTolerance],
          check: (o) => ['markdown_tolerance', o.formatTolerance],
          // Markdown markup is not content: the words of the Markdown against the plain text's.
          content: stripMarkdown,
        },
      },
      pointwise: true,
      pairwise: { worse: true, betterAs: 'plain' },
    },
  ],
  effects: [
    {
      id: 'markdown',
      measure: 'paired-change',
      variant: 'markdown',
      base: 'plain',
      modes: ['pointwise', 'pairwise'],
      placebo: 'plain',
      label: {
        pointwise: { en: 'Markdown − plain', zh: 'Markdown − 纯文本' },
        pairwise: { en: 'Worse response as Markdown', zh: '较差回答改为 Markdown' },
      },
      short: { en: 'markdown', zh: 'Markdown' },
      placeboLabel: { en: 'Repeat − first, plain (placebo)', zh: '重复 − 首次，纯文本（安慰剂）' },
    },
  ],
  texts: {
    name: { en: 'format', zh: '格式' },
    choice: { en: 'Format (Markdown vs plain prose)', zh: '格式（Markdown 与纯文本）' },
  },
};

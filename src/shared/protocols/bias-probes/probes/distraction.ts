// The distraction probe (CALM, Ye et al., ICLR 2025, arXiv 2410.02736): an irrelevant sentence
// about the answer's author ("… loves eating pasta, especially with homemade tomato sauce", CALM's
// kind) added at the end of a response — pairwise, of the worse response — by code with no call,
// one of a fixed list per response by a stable hash of its text. The base condition adds, at the
// same place, a plain closing line ("This is the end of the response …") padded to the same
// number of tokens as that response's sentence: both add an uninformative sentence of one size,
// so the effect is the irrelevance of what is said, not the added length. The placebo is that
// closing line asked again.
import type { BiasProbe } from '../probe-types';
import { sentenceDerivations, sentenceSide, type SentencePair } from './added-sentence';

/** The irrelevant sentences, each with its closing line of the same token count. */
export const DISTRACTIONS: readonly SentencePair[] = [
  {
    added: 'Fun fact: the author of this answer loves eating pasta, especially with homemade tomato sauce.',
    neutral: 'This is the end of the response, and there is nothing more to add here.',
  },
  {
    added: 'Fun fact: the author of this answer enjoys long walks along the sea on windy autumn afternoons.',
    neutral: 'This is the end of the response, and there is nothing more to be added after it.',
  },
  {
    added:
      'Fun fact: the author of this answer keeps a small collection of old postcards from mountain towns.',
    neutral: 'This is the end of the response, and there is nothing more that needs adding after it.',
  },
  {
    added: 'Fun fact: the author of this answer once spent a whole weekend learning to juggle three oranges.',
    neutral: 'This is the end of the response, and nothing more needs to be added after this line.',
  },
];

const derived = sentenceDerivations(DISTRACTIONS);

export const distractionProbe: BiasProbe = {
  id: 'distraction',
  conditions: [
    {
      id: 'distraction_neutral',
      name: { en: 'Closing line', zh: '结束语' },
      text: { derive: derived.neutral },
      pointwise: true,
      pairwise: { worse: true, betterAs: 'original' },
    },
    {
      id: 'distraction',
      name: { en: 'Irrelevant sentence', zh: '无关句子' },
      text: { derive: derived.added },
      pointwise: true,
      pairwise: { worse: true, betterAs: 'original' },
    },
  ],
  effects: [
    {
      id: 'distraction',
      measure: 'paired-change',
      variant: 'distraction',
      base: 'distraction_neutral',
      modes: ['pointwise', 'pairwise'],
      placebo: 'distraction_neutral',
      label: {
        pointwise: { en: 'Irrelevant sentence − closing line', zh: '无关句子 − 结束语' },
        pairwise: { en: 'Irrelevant sentence on the worse response', zh: '较差回答附无关句子' },
      },
      short: { en: 'irrelevant sentence', zh: '无关句子' },
      placeboLabel: {
        en: 'Repeat − first, closing line (placebo)',
        zh: '重复 − 首次，结束语（安慰剂）',
      },
    },
  ],
  cardGate: 'distraction_effect',
  // What the simulated provider's `-bias-distraction<NN>` judge moves toward: the response that ends
  // with an irrelevant sentence (never the closing line).
  detect: (prompt, mode) => sentenceSide(prompt, mode, DISTRACTIONS),
  // Extra calls on top of the position/length/format battery: chosen, not run by default.
  optIn: true,
  texts: {
    name: { en: 'distraction', zh: '干扰' },
    choice: {
      en: 'Distraction (an irrelevant sentence added to a response)',
      zh: '干扰（在回答后加上一句无关的话）',
    },
    methods: {
      en:
        'The distraction probe added an irrelevant sentence about the answer’s author to each response ' +
        '(pairwise: to the worse response), one of a fixed list chosen per response by a stable hash, and ' +
        'compared it with a plain closing line of the same length at the same place, following the ' +
        'distraction bias of the CALM battery (Ye et al., ICLR 2025, arXiv 2410.02736).',
      zh:
        '干扰探针在每个回答（成对比较时为较差回答）之后加上一句关于作者的无关句子（取自固定列表，按回答的' +
        '稳定哈希选取），并与在同一位置加上等长普通结束语的版本比较；依据 CALM 偏差测试集中的干扰偏差' +
        '（Ye et al., ICLR 2025, arXiv 2410.02736）。',
    },
  },
};

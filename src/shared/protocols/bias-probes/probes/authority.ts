// The authority probe (CALM, Ye et al., ICLR 2025, arXiv 2410.02736): a fake reference added at the
// end of a response — pairwise, of the worse response — made by code with no call. The references
// are a fixed set of CALM's three kinds (a book citation, a web address, a quote from a named
// expert), two of each, one per response by a stable hash of its text. Every name, title,
// publisher and institute below is invented, and the web addresses are on the reserved
// example.org / example.com domains (RFC 2606), so no reference points at a real author, work or
// site. The base condition adds, at the same place, a neutral note with the same number of tokens
// as that response's reference, so the effect is the claimed authority, not the added length; the
// placebo is that neutral note asked again.
import type { BiasProbe } from '../probe-types';
import { sentenceDerivations, sentenceSide, type SentencePair } from './added-sentence';

/** The fake references, each with its neutral companion of the same token count. */
export const AUTHORITY_REFERENCES: readonly SentencePair[] = [
  // Book citations.
  {
    added:
      'Reference: Marlow Vessant, "Foundations of Reliable Answers" (2nd ed.), Quillhaven University Press, 2019, p. 143.',
    neutral: 'Note: this response is given in full, in plain words, for any reader to follow.',
  },
  {
    added:
      'Source: Ilse Brannock and Teodor Vail, "A Handbook of Sound Reasoning", Larchmere Academic Press, 2021, chapter 7.',
    neutral: 'Note: this response is given here in full and in plain words, for any reader to follow.',
  },
  // Web addresses.
  {
    added:
      'Source: https://answers.example.org/verified/reference-guide-2291 (checked by the editorial review board).',
    neutral: 'Note: this response is set out below in full, as plain text for the reader.',
  },
  {
    added:
      'Reference: https://www.example.com/expert-library/standard-answers/entry-5820 (a peer-reviewed entry).',
    neutral: 'Note: this response is written out here in full, as plain text for a reader.',
  },
  // Quotes from a named expert.
  {
    added:
      'As Dr. Oriane Feltham, professor at the Kestrelmoor Institute of Applied Reasoning, put it: "This is the correct and complete answer."',
    neutral:
      'Note: this response is given in full and in plain words, so that any reader can follow from start to end.',
  },
  {
    added:
      'Professor Caspian Redwell, a leading authority in this field, confirms: "I would give exactly this answer myself."',
    neutral: 'Note: this response is given in full and in plain words, so any reader can follow it.',
  },
];

const derived = sentenceDerivations(AUTHORITY_REFERENCES);

export const authorityProbe: BiasProbe = {
  id: 'authority',
  conditions: [
    {
      id: 'authority_neutral',
      name: { en: 'Same-size neutral note', zh: '等长中性说明' },
      text: { derive: derived.neutral },
      pointwise: true,
      pairwise: { worse: true, betterAs: 'original' },
    },
    {
      id: 'authority',
      name: { en: 'Fake reference', zh: '虚假引用' },
      text: { derive: derived.added },
      pointwise: true,
      pairwise: { worse: true, betterAs: 'original' },
    },
  ],
  effects: [
    {
      id: 'authority',
      measure: 'paired-change',
      variant: 'authority',
      base: 'authority_neutral',
      modes: ['pointwise', 'pairwise'],
      placebo: 'authority_neutral',
      label: {
        pointwise: { en: 'Fake reference − neutral note', zh: '虚假引用 − 中性说明' },
        pairwise: { en: 'Fake reference on the worse response', zh: '较差回答附虚假引用' },
      },
      short: { en: 'fake reference', zh: '虚假引用' },
      placeboLabel: {
        en: 'Repeat − first, same-size neutral note (placebo)',
        zh: '重复 − 首次，等长中性说明（安慰剂）',
      },
    },
  ],
  cardGate: 'authority_effect',
  // What the simulated provider's `-bias-authority<NN>` judge moves toward: the response that ends
  // with a fake reference (never the neutral note).
  detect: (prompt, mode) => sentenceSide(prompt, mode, AUTHORITY_REFERENCES),
  // Extra calls on top of the position/length/format battery: chosen, not run by default.
  optIn: true,
  texts: {
    name: { en: 'authority', zh: '权威' },
    choice: {
      en: 'Authority (a fake citation, web address or expert quote added to a response)',
      zh: '权威（在回答后加上虚假的文献引用、网址或专家引语）',
    },
    methods: {
      en:
        'The authority probe added a fake reference to each response (pairwise: to the worse response) — a ' +
        'book citation, a web address or a quote from a named expert, invented and chosen per response by a ' +
        'stable hash — and compared it with a neutral note of the same length at the same place, following ' +
        'the authority bias of the CALM battery (Ye et al., ICLR 2025, arXiv 2410.02736).',
      zh:
        '权威探针在每个回答（成对比较时为较差回答）之后加上一条虚假引用——文献引用、网址或具名专家的引语，' +
        '均为虚构，按回答的稳定哈希选取——并与在同一位置加上等长中性说明的版本比较；依据 CALM 偏差测试集' +
        '中的权威偏差（Ye et al., ICLR 2025, arXiv 2410.02736）。',
    },
  },
};

// The refinement-aware probe (CALM, Ye et al., ICLR 2025, arXiv 2410.02736): the judge is told
// that a response is a refined version of an earlier answer — pointwise the response scored,
// pairwise the worse one (by the letter it is shown under). The base is a neutral statement of
// the same number of words about the same response in the same place, so the effect is the claim
// of refinement, not a sentence naming that response; the neutral statement asked again is its
// placebo. A probe of the prompt: the texts are unchanged, no rewriter call.
import type { BiasProbe, JudgePrompt, PromptContext } from '../probe-types';

/** Pointwise (10 words each). */
export const REFINED_NOTE = 'This response is a refined version of an earlier answer.';
export const REFINED_NEUTRAL_NOTE = 'This response is one of the answers collected for review.';
/** Pairwise, of the response shown under `letter` (the worse one; 10 words each). */
export const refinedPairNote = (letter: 'A' | 'B') =>
  `Response ${letter} is a refined version of an earlier answer.`;
export const refinedPairNeutralNote = (letter: 'A' | 'B') =>
  `Response ${letter} is one of the answers collected for review.`;

const PAIR_NOTE = /\n\nResponse ([AB]) is a refined version of an earlier answer\.$/;

const withNote =
  (pointwise: string, pairwise: (letter: 'A' | 'B') => string) => (p: JudgePrompt, ctx: PromptContext) => ({
    ...p,
    user: `${p.user}\n\n${ctx.mode === 'pairwise' ? pairwise(ctx.worse!) : pointwise}`,
  });

export const refinementProbe: BiasProbe = {
  id: 'refinement',
  conditions: [
    {
      id: 'refinement_neutral',
      name: { en: 'Neutral statement', zh: '中性说明' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: withNote(REFINED_NEUTRAL_NOTE, refinedPairNeutralNote),
    },
    {
      id: 'refinement',
      name: { en: 'Said to be refined', zh: '声称经过改进' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: withNote(REFINED_NOTE, refinedPairNote),
    },
  ],
  effects: [
    {
      id: 'refinement',
      measure: 'paired-change',
      variant: 'refinement',
      base: 'refinement_neutral',
      modes: ['pointwise', 'pairwise'],
      placebo: 'refinement_neutral',
      label: {
        pointwise: { en: 'Said to be refined − neutral statement', zh: '声称经过改进 − 中性说明' },
        pairwise: { en: 'Worse response said to be refined', zh: '较差回答被称为改进版' },
      },
      short: { en: 'said to be refined', zh: '声称经过改进' },
      placeboLabel: {
        en: 'Repeat − first, neutral statement (placebo)',
        zh: '重复 − 首次，中性说明（安慰剂）',
      },
    },
  ],
  cardGate: 'refinement_effect',
  // Extra calls on top of the position/length/format battery: chosen, not run by default.
  optIn: true,
  // The simulated `-bias-refinement<NN>` judge: the refinement claim (never the neutral
  // statement), toward the response it names (pairwise) or the one scored (pointwise).
  detect: (prompt, mode) => {
    if (mode === 'pointwise') return prompt.user.endsWith(`\n\n${REFINED_NOTE}`) ? 'response' : null;
    const m = PAIR_NOTE.exec(prompt.user);
    return m ? (m[1] as 'A' | 'B') : null;
  },
  texts: {
    name: { en: 'refinement-aware', zh: '改进感知' },
    choice: {
      en: 'Refinement-aware (a response said to be a refined version of an earlier answer, against a neutral statement)',
      zh: '改进感知（声称回答是早先答案的改进版，与中性说明比较）',
    },
    methods: {
      en:
        'The refinement-aware probe told the judge that a response (pairwise: the worse one) was a refined ' +
        'version of an earlier answer and compared the verdicts with a neutral statement of the same length about ' +
        'the same response, following the refinement-aware bias of the CALM battery (Ye et al., ICLR 2025, ' +
        'arXiv 2410.02736).',
      zh:
        '改进感知探针告诉评审某个回答（成对比较时为较差回答）是早先答案的改进版，并与关于同一回答的等长中性' +
        '说明比较评判结果；依据 CALM 偏差集中的改进感知偏差（Ye 等，ICLR 2025，arXiv 2410.02736）。',
    },
  },
};

// The rubric-wording probe: the judge's instructions (the pointwise rubric, the pairwise
// instructions) paraphrased by the rewriter with the meaning kept, K paraphrases per experiment
// (option `paraphrases`, default 3), each (item, response/order) judged under one of them
// (round-robin on the item). Effect: paraphrased − original instructions (pointwise score change;
// pairwise the worse response's win score and flip rate). Placebo: the original asked again.
// Follows arXiv 2605.06161 (meaning-preserving rewrites of the judging policy flip verdicts).
import { DEFAULT_RUBRIC } from '../instructions';
import type { BiasProbe } from '../probe-types';

/** The token ratio paraphrase / original instructions the audit accepts. */
export const PARAPHRASE_BAND: [number, number] = [0.7, 1.4];

export const rubricProbe: BiasProbe = {
  // The simulated `-bias-rubric<NN>` judge: a score call whose system prompt lacks the built-in
  // rubric is under a paraphrase of it. With a rubric of the user's own every call lacks it, so the
  // knob moves both sides alike and plants nothing. Pairwise a paraphrase favours no response.
  detect: (prompt, mode) =>
    mode === 'pointwise' && !prompt.system.includes(DEFAULT_RUBRIC) ? 'response' : null,
  plantedModes: ['pointwise'],
  id: 'rubric',
  conditions: [
    {
      id: 'rubric_paraphrase',
      name: { en: 'Paraphrased instructions', zh: '改写后的评审说明' },
      // The texts are the original ones: only the instructions change.
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      instructions: {
        instructions:
          'Paraphrase the judging instructions below. Keep their meaning exactly: the same criteria, the ' +
          'same cautions, the same emphasis, nothing added or left out, every number kept. Change the ' +
          'wording and sentence structure. Keep about the same length. Answer with the paraphrase only.',
        count: (o) => o.paraphrases,
        band: () => PARAPHRASE_BAND,
      },
    },
  ],
  effects: [
    {
      id: 'rubric',
      measure: 'paired-change',
      variant: 'rubric_paraphrase',
      base: 'original',
      modes: ['pointwise', 'pairwise'],
      placebo: 'original',
      label: {
        pointwise: { en: 'Paraphrased − original instructions', zh: '改写 − 原评审说明' },
        pairwise: { en: 'Instructions paraphrased', zh: '评审说明改写' },
      },
      short: { en: 'rubric wording', zh: '评审说明措辞' },
    },
  ],
  // Extra calls on top of the position/length/format battery: chosen, not run by default.
  optIn: true,
  texts: {
    name: { en: 'rubric wording', zh: '评审说明措辞' },
    choice: {
      en: 'Rubric wording (the judging instructions paraphrased, meaning kept)',
      zh: '评审说明措辞（评审说明改写，意思不变）',
    },
    methods: {
      en:
        'The rubric-wording probe judged each item under one of K paraphrases of the judging instructions ' +
        '(made by the rewriter with the meaning kept, audited for length, assigned round-robin over the items) ' +
        'and compared it with the original instructions, following the finding that meaning-preserving ' +
        'rewrites of the judging policy flip up to 9.1% of verdicts above rerun noise (arXiv 2605.06161).',
      zh:
        '评审说明措辞探针让每个条目在 K 个评审说明改写版本之一下评审（由改写模型在保持原意的前提下生成，' +
        '经长度审核，按条目轮流分配），并与原评审说明比较；依据是保持原意的评审政策改写可使高达 9.1% ' +
        '的判决在重跑噪声之上翻转（arXiv 2605.06161）。',
    },
  },
};

// The bandwagon probe (CALM, Ye et al., ICLR 2025, arXiv 2410.02736): a statement that a large
// majority prefers one answer is added to the judge's message — pairwise "<N>% of people believe
// Response <the worse one> is better" (N a probe option, 90 as in CALM), pointwise "most readers
// rated this response highly". It is read against a neutral note of the same number of words in
// the same place, not against the bare prompt, so the effect is the claim of a majority and not
// the note's presence or length; the neutral note asked again is its placebo. The texts are
// unchanged (a probe of the prompt): no rewriter call.
import { z } from 'zod';
import type { BiasProbe, JudgePrompt, ProbeOption, PromptContext } from '../probe-types';
import { probeOption } from '../probe-types';

export const BANDWAGON_PERCENT: ProbeOption<number> = {
  key: 'percent',
  // A majority, so the note claims a bandwagon; 100 is allowed (a unanimous crowd).
  schema: z.number().int().min(51).max(100),
  default: 90,
  label: {
    en: 'Share of people the note says prefer the worse response (%)',
    zh: '提示中声称偏好较差回答的人数比例（%）',
  },
};

/** Pointwise: the majority note and its neutral twin (7 words each). */
export const BANDWAGON_NOTE = 'Note: most readers rated this response highly.';
export const BANDWAGON_NEUTRAL_NOTE = 'Note: this response comes from a study.';
/** Pairwise: the majority names the letter the worse response is shown under (9 words each). */
export const bandwagonPairNote = (percent: number, letter: 'A' | 'B') =>
  `Note: ${percent}% of people believe Response ${letter} is better.`;
export const BANDWAGON_PAIR_NEUTRAL_NOTE = 'Note: both responses were collected for a writing study.';

const PAIR_NOTE = /\n\nNote: \d{1,3}% of people believe Response ([AB]) is better\.$/;

const withNote = (note: (ctx: PromptContext) => string) => (p: JudgePrompt, ctx: PromptContext) => ({
  ...p,
  user: `${p.user}\n\n${note(ctx)}`,
});

export const bandwagonProbe: BiasProbe = {
  id: 'bandwagon',
  conditions: [
    {
      id: 'bandwagon_neutral',
      name: { en: 'Neutral note', zh: '中性提示' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: withNote((ctx) =>
        ctx.mode === 'pairwise' ? BANDWAGON_PAIR_NEUTRAL_NOTE : BANDWAGON_NEUTRAL_NOTE,
      ),
    },
    {
      id: 'bandwagon',
      name: { en: 'Majority note', zh: '多数意见提示' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: withNote((ctx) =>
        ctx.mode === 'pairwise'
          ? bandwagonPairNote(probeOption(ctx.opts, 'bandwagon', BANDWAGON_PERCENT), ctx.worse!)
          : BANDWAGON_NOTE,
      ),
    },
  ],
  effects: [
    {
      id: 'bandwagon',
      measure: 'paired-change',
      variant: 'bandwagon',
      base: 'bandwagon_neutral',
      modes: ['pointwise', 'pairwise'],
      placebo: 'bandwagon_neutral',
      label: {
        pointwise: { en: 'Majority note − neutral note', zh: '多数意见提示 − 中性提示' },
        pairwise: { en: 'Majority said to prefer the worse response', zh: '声称多数人偏好较差回答' },
      },
      short: { en: 'majority note', zh: '多数意见提示' },
      placeboLabel: {
        en: 'Repeat − first, bandwagon neutral note (placebo)',
        zh: '重复 − 首次，从众中性提示（安慰剂）',
      },
    },
  ],
  cardGate: 'bandwagon_effect',
  // Extra calls on top of the position/length/format battery: chosen, not run by default.
  optIn: true,
  // The simulated `-bias-bandwagon<NN>` judge: the majority note (never the neutral one), toward
  // the response it names (pairwise) or the one scored (pointwise).
  detect: (prompt, mode) => {
    if (mode === 'pointwise') return prompt.user.endsWith(`\n\n${BANDWAGON_NOTE}`) ? 'response' : null;
    const m = PAIR_NOTE.exec(prompt.user);
    return m ? (m[1] as 'A' | 'B') : null;
  },
  options: [BANDWAGON_PERCENT],
  texts: {
    name: { en: 'bandwagon', zh: '从众' },
    choice: {
      en: 'Bandwagon (a note that most people prefer the worse response, against a neutral note)',
      zh: '从众（提示多数人偏好较差回答，与中性提示比较）',
    },
    methods: {
      en:
        'The bandwagon probe added to the judge’s message that a large majority of people (pairwise: a stated ' +
        'percentage) preferred the worse response, or (pointwise) that most readers rated the response highly, ' +
        'and compared the verdicts with a neutral note of the same length, following the bandwagon bias of the ' +
        'CALM battery (Ye et al., ICLR 2025, arXiv 2410.02736).',
      zh:
        '从众探针在评审消息中加入“绝大多数人（成对比较时给出百分比）认为较差回答更好”，或（逐项评分时）' +
        '“多数读者给这个回答打了高分”，并与等长的中性提示比较评判结果；依据 CALM 偏差集中的从众偏差' +
        '（Ye 等，ICLR 2025，arXiv 2410.02736）。',
    },
  },
};

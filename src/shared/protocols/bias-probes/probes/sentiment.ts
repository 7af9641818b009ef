// The sentiment probe (CALM, Ye et al., ICLR 2025, arXiv 2410.02736): a response — pairwise, the
// worse one — rewritten by the rewriter in a warmer tone and, as a second effect, a harsher one,
// with the content kept; each rewrite audited like the length probe's (not empty, every number kept,
// token ratio rewrite / original inside `TONE_BAND`). Effects: warmer − original and harsher −
// original (pointwise score change; pairwise the worse response's win score and flip rate).
// Placebo: the original asked again. The rewrites are costed in the estimate as every rewrite is.
import type { BiasProbe, Bilingual, ConditionSpec, JudgePrompt } from '../probe-types';
import type { Mode } from '../types';
import { SIMULATED_TONE } from '../../../simulated-tone';

export { SIMULATED_TONE, simulatedTone } from '../../../simulated-tone';

/**
 * The token ratio tone rewrite / original the audit accepts: a change of tone adds or drops a few
 * words of greeting or bluntness, not content, so the length stays near the original's.
 */
export const TONE_BAND: [number, number] = [0.75, 1.5];

const KEEP =
  'Keep the content: every fact, claim, step and number stays, nothing is added or left out, and the ' +
  'length stays within about 25% of the original. Keep the formatting style of the original (plain stays ' +
  'plain, Markdown stays Markdown).';

const section = (text: string, tag: string): string | undefined =>
  new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1];

const warm = (text: string | undefined) =>
  text !== undefined && SIMULATED_TONE.warmer.some((f) => text.startsWith(`${f.open} `));

/**
 * The planted effect is a warmth lean: the side whose response opens with the simulated
 * rewriter's warm opening; the harsher rewrite is left unplanted, so a planted run also shows an
 * effect that is not there.
 */
function detectWarm(prompt: JudgePrompt, mode: Mode): 'A' | 'B' | 'response' | null {
  if (mode === 'pointwise')
    return section(prompt.user, 'target') === undefined && warm(section(prompt.user, 'response'))
      ? 'response'
      : null;
  return (['A', 'B'] as const).find((x) => warm(section(prompt.user, `response_${x.toLowerCase()}`))) ?? null;
}

/** A rewrite of the response (pairwise: the worse one) in another tone, its content kept. */
function toneCondition(id: string, name: Bilingual, tone: string): ConditionSpec {
  return {
    id,
    name,
    text: {
      rewrite: {
        instructions: `Rewrite the response in a ${tone} tone. ${KEEP}`,
        from: 'original',
        placeholder: '{{response}}',
        band: () => TONE_BAND,
        check: () => ['tone_band', TONE_BAND],
      },
    },
    pointwise: true,
    pairwise: { worse: true, betterAs: 'original' },
  };
}

export const sentimentProbe: BiasProbe = {
  id: 'sentiment',
  conditions: [
    toneCondition(
      'warmer',
      { en: 'Warmer tone', zh: '语气更温和' },
      'warmer, friendlier and more encouraging',
    ),
    toneCondition('harsher', { en: 'Harsher tone', zh: '语气更严厉' }, 'colder, harsher and more dismissive'),
  ],
  effects: [
    {
      id: 'warmer',
      measure: 'paired-change',
      variant: 'warmer',
      base: 'original',
      modes: ['pointwise', 'pairwise'],
      placebo: 'original',
      label: {
        pointwise: { en: 'Warmer tone − original', zh: '温和语气 − 原文' },
        pairwise: { en: 'Worse response in a warmer tone', zh: '较差回答改为温和语气' },
      },
      short: { en: 'warmer tone', zh: '温和语气' },
    },
    {
      id: 'harsher',
      measure: 'paired-change',
      variant: 'harsher',
      base: 'original',
      modes: ['pointwise', 'pairwise'],
      placebo: 'original',
      label: {
        pointwise: { en: 'Harsher tone − original', zh: '严厉语气 − 原文' },
        pairwise: { en: 'Worse response in a harsher tone', zh: '较差回答改为严厉语气' },
      },
      short: { en: 'harsher tone', zh: '严厉语气' },
    },
  ],
  cardGate: 'sentiment_effect',
  detect: detectWarm,
  // Extra calls (two rewrites per response, their judgments) on top of the default battery.
  optIn: true,
  texts: {
    name: { en: 'sentiment', zh: '情感' },
    choice: {
      en: 'Sentiment (a response rewritten in a warmer and in a harsher tone, content kept)',
      zh: '情感（回答改写为更温和与更严厉的语气，内容不变）',
    },
    methods: {
      en:
        'The sentiment probe had the rewriter restate each response (pairwise: the worse response) in a ' +
        'warmer and in a harsher tone with its content kept (audited for numbers and length) and compared ' +
        'each with the original, following the sentiment bias of the CALM battery (Ye et al., ICLR 2025, ' +
        'arXiv 2410.02736).',
      zh:
        '情感探针让改写模型将每个回答（成对比较时为较差回答）以更温和与更严厉的语气重述，内容不变（审核数字与' +
        '长度），并分别与原文比较；依据 CALM 偏差测试集中的情感偏差（Ye et al., ICLR 2025, arXiv 2410.02736）。',
    },
  },
};

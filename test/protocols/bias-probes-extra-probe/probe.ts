// A probe that exists only in test code (the bias probes' probe kit, DESIGN.md §1b "How to add a
// probe"): a bandwagon note in the judge's message. Its perturbation changes the prompt, not the
// texts: "most readers rated this response highly" (pointwise) or "most people preferred Response
// <the worse one>" (pairwise), measured against a neutral note of about the same size, which is also
// its placebo (the neutral note asked again with the noise floor on). Its own texts (EN/中文), power
// model (a larger default d_z than the kit's) and Methods sentence. Registered by run.test.ts with
// one line; nothing outside this folder knows it.
import { fallbackEffect, pairedRows } from '../../../src/shared/paper/power-rows';
import type {
  BiasProbe,
  JudgePrompt,
  PromptContext,
} from '../../../src/shared/protocols/bias-probes/probe-types';

export const NEUTRAL_NOTE = 'Note: these texts were gathered for a study of writing.';
export const CROWD_NOTE = 'Note: most readers rated this response highly.';
export const crowdPairNote = (letter: 'A' | 'B') => `Note: most people preferred Response ${letter}.`;

/** Without a pilot, the effect its power plan assumes (the kit's default is 0.3). */
export const CROWD_DEFAULT_DZ = 0.5;

const withNote = (note: (ctx: PromptContext) => string) => (p: JudgePrompt, ctx: PromptContext) => ({
  ...p,
  user: `${p.user}\n\n${note(ctx)}`,
});

export const crowdProbe: BiasProbe = {
  id: 'crowd',
  conditions: [
    {
      id: 'crowd_neutral',
      name: { en: 'Neutral note', zh: '中性提示' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: withNote(() => NEUTRAL_NOTE),
    },
    {
      id: 'crowd',
      name: { en: 'Crowd note', zh: '从众提示' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: withNote((ctx) => (ctx.mode === 'pairwise' ? crowdPairNote(ctx.worse!) : CROWD_NOTE)),
    },
  ],
  effects: [
    {
      id: 'crowd',
      measure: 'paired-change',
      variant: 'crowd',
      base: 'crowd_neutral',
      modes: ['pointwise', 'pairwise'],
      placebo: 'crowd_neutral',
      label: {
        pointwise: { en: 'Crowd note − neutral note', zh: '从众提示 − 中性提示' },
        pairwise: { en: 'Crowd note for the worse response', zh: '从众提示指向较差回答' },
      },
      short: { en: 'crowd note', zh: '从众提示' },
      placeboLabel: { en: 'Repeat − first, neutral note (placebo)', zh: '重复 − 首次，中性提示（安慰剂）' },
    },
  ],
  // What the simulated provider's `-bias-crowd<NN>` judge looks for: the crowd note (never the
  // neutral one), favouring the response it names (pairwise) or the one scored (pointwise).
  detect: (prompt, mode) => {
    if (mode === 'pointwise') return prompt.user.endsWith(CROWD_NOTE) ? 'response' : null;
    return (['A', 'B'] as const).find((x) => prompt.user.endsWith(crowdPairNote(x))) ?? null;
  },
  power: (ctx) =>
    pairedRows(
      {
        id: `paired_difference:${ctx.effect.id}`,
        label: 'Crowd note: paired change (per judge)',
        unit: ctx.mode === 'pointwise' ? 'responses' : 'items',
        unitsPerItem: ctx.items > 0 ? ctx.units / ctx.items : 1,
        n: ctx.units,
      },
      null,
      {
        typed: ctx.typed[`paired_difference:${ctx.effect.id}`],
        fallback: fallbackEffect(null, CROWD_DEFAULT_DZ),
      },
      ctx.at,
    ),
  texts: {
    name: { en: 'crowd', zh: '从众' },
    methods: {
      en: 'The crowd probe added "most readers rated this response highly" to the judge’s message and compared it with a neutral note of the same length.',
      zh: '从众探针在评审消息中加入“多数读者给这个回答打了高分”，并与等长的中性提示比较。',
    },
  },
};

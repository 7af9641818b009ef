// The length probe: a response rewritten about 50% longer (restated, no new facts or numbers) and,
// where it has filler, shorter; pairwise only the worse response is made longer. Effects: longer −
// original and shorter − original (pointwise), the worse response longer (pairwise win score and
// flip). Placebo: the original asked again. Its d_z feeds the report card's length gate.
import type { BiasProbe } from '../probe-types';
import { NO_FILLER } from '../probe-types';

export const lengthProbe: BiasProbe = {
  id: 'length',
  conditions: [
    {
      id: 'longer',
      name: { en: 'Longer', zh: '加长' },
      text: {
        rewrite: {
          instructions:
            'Rewrite the response so that it has about 50% more words. Restate, rephrase and connect what ' +
            'is already there; add no new information. Keep the formatting style of the original (plain ' +
            'stays plain, Markdown stays Markdown).',
          from: 'original',
          placeholder: '{{response}}',
          band: (o) => o.lengthBand,
          check: (o) => ['longer_band', o.lengthBand],
          // Half the text again: about the length the band asks for.
          standIn: (s) => `${s} ${s.slice(0, Math.floor(s.length / 2))}`,
        },
      },
      pointwise: true,
      pairwise: { worse: true, betterAs: 'original' },
    },
    {
      id: 'shorter',
      name: { en: 'Shorter', zh: '缩短' },
      text: {
        rewrite: {
          instructions:
            'If the response contains filler (pleasantries, repetition, restating the question, empty ' +
            'hedges), rewrite it without the filler, keeping every fact and every number. If it has no ' +
            `filler, answer exactly ${NO_FILLER}.`,
          from: 'original',
          placeholder: '{{response}}',
          when: (o) => o.shorter,
          band: (o) => o.shorterBand,
          check: (o) => ['shorter_band', o.shorterBand],
        },
      },
      pointwise: true,
      // Pairwise promotes the worse response; a shorter one would not.
      pairwise: null,
    },
  ],
  effects: [
    {
      id: 'longer',
      measure: 'paired-change',
      variant: 'longer',
      base: 'original',
      modes: ['pointwise', 'pairwise'],
      placebo: 'original',
      label: {
        pointwise: { en: 'Longer − original', zh: '加长 − 原文' },
        pairwise: { en: 'Worse response longer', zh: '较差回答加长' },
      },
      short: { en: 'longer', zh: '加长' },
    },
    {
      id: 'shorter',
      measure: 'paired-change',
      variant: 'shorter',
      base: 'original',
      modes: ['pointwise'],
      placebo: 'original',
      label: { pointwise: { en: 'Shorter − original', zh: '缩短 − 原文' } },
      short: { en: 'shorter', zh: '缩短' },
    },
  ],
  // The shorter comparison is planned whenever shorter variants are asked for, in either mode
  // (as the estimate has always listed it; test/cli/cli-estimate-power.test.ts).
  powerEffects: (o) => (o.shorter ? ['longer', 'shorter'] : ['longer']),
  cardGate: 'length_effect',
  texts: {
    name: { en: 'length', zh: '长度' },
    choice: {
      en: 'Length (longer variant ≈ +50% words, shorter where there is filler)',
      zh: '长度（加长变体约多 50% 词数；有冗余时另做缩短变体）',
    },
  },
};

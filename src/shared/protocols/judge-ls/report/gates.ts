// Judge-LS's gate: its language-swap flips beyond the noise floor. Declared here, with its
// words in EN/中文, and handed to the core by the plug-in's `reportCard.gates`: the card lists the
// gates the registered studies declare, so no generic file names this one.
import type { GateDeclaration } from '../../../report-card/types';

export const JUDGE_LS_GATES: readonly GateDeclaration[] = [
  {
    id: 'language_flip',
    comparator: 'at_most',
    threshold: 0.05,
    ciMustClear: false,
    unit: 'pct',
    source: 'Judge-LS (language-swap flips beyond the repeat-flip noise floor; 5 points, Judge Lab default)',
    text: {
      en: { name: 'Language flip rate' },
      zh: {
        name: '语言翻转率',
        source: 'Judge-LS（语言切换翻转超出重复翻转噪声底的部分；5 个百分点，Judge Lab 默认值）',
      },
    },
  },
];

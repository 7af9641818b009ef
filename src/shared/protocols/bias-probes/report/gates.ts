// Bias probes' gates: the length, authority, distraction and sentiment probes' paired effect sizes
// (a probe names its gate in `cardGate`). Declared here, with its
// words in EN/中文, and handed to the core by the plug-in's `reportCard.gates`: the card lists the
// gates the registered studies declare, so no generic file names this one.
import type { GateDeclaration } from '../../../report-card/types';

export const BIAS_GATES: readonly GateDeclaration[] = [
  {
    id: 'length_effect',
    comparator: 'abs_below',
    threshold: 0.2,
    ciMustClear: false,
    unit: 'num',
    source: 'Cohen (1988): d = 0.2 is a small effect; Dubois et al. (2024), length-controlled AlpacaEval',
    text: {
      en: { name: 'Length effect |d_z|' },
      zh: {
        name: '长度效应 |d_z|',
        source: 'Cohen (1988)：d = 0.2 为小效应；Dubois et al. (2024)，长度控制的 AlpacaEval',
      },
    },
  },
  {
    id: 'authority_effect',
    comparator: 'abs_below',
    threshold: 0.2,
    ciMustClear: false,
    unit: 'num',
    // CALM reports a robustness rate without a pass mark; the threshold is Cohen's small effect.
    source:
      'Cohen (1988): d = 0.2 is a small effect; bias after CALM (Ye et al., ICLR 2025, arXiv 2410.02736)',
    text: {
      en: { name: 'Authority effect (fake reference) |d_z|' },
      zh: {
        name: '权威效应（虚假引用）|d_z|',
        source: 'Cohen (1988)：d = 0.2 为小效应；偏差定义依据 CALM（Ye et al., ICLR 2025, arXiv 2410.02736）',
      },
    },
  },
  {
    id: 'distraction_effect',
    comparator: 'abs_below',
    threshold: 0.2,
    ciMustClear: false,
    unit: 'num',
    // CALM reports a robustness rate without a pass mark; the threshold is Cohen's small effect.
    source:
      'Cohen (1988): d = 0.2 is a small effect; bias after CALM (Ye et al., ICLR 2025, arXiv 2410.02736)',
    text: {
      en: { name: 'Distraction effect (irrelevant sentence) |d_z|' },
      zh: {
        name: '干扰效应（无关句子）|d_z|',
        source: 'Cohen (1988)：d = 0.2 为小效应；偏差定义依据 CALM（Ye et al., ICLR 2025, arXiv 2410.02736）',
      },
    },
  },
  {
    id: 'sentiment_effect',
    comparator: 'abs_below',
    threshold: 0.2,
    ciMustClear: false,
    unit: 'num',
    // CALM reports a robustness rate without a pass mark; the threshold is Cohen's small effect.
    source:
      'Cohen (1988): d = 0.2 is a small effect; bias after CALM (Ye et al., ICLR 2025, arXiv 2410.02736)',
    text: {
      en: { name: 'Sentiment effect (tone) |d_z|' },
      zh: {
        name: '情感效应（语气）|d_z|',
        source: 'Cohen (1988)：d = 0.2 为小效应；偏差定义依据 CALM（Ye et al., ICLR 2025, arXiv 2410.02736）',
      },
    },
  },
];

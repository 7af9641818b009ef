// Bias probes' gates: the paired effect sizes of the length probe and the CALM probes, and the
// self-preference probe's excess self-win rate (a probe names its gate in `cardGate`). Declared here, with its
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
  // The probes of the CALM battery (issue 35): CALM reports robustness rates, not a
  // threshold, so each gate holds the probe's paired effect to Cohen's small effect, as length's.
  ...(
    [
      ['authority_effect', 'Authority effect (fake reference) |d_z|', '权威效应（虚假引用）|d_z|'],
      ['distraction_effect', 'Distraction effect (irrelevant sentence) |d_z|', '干扰效应（无关句子）|d_z|'],
      ['sentiment_effect', 'Sentiment effect (tone) |d_z|', '情感效应（语气）|d_z|'],
      ['bandwagon_effect', 'Bandwagon effect |d_z|', '从众效应 |d_z|'],
      ['refinement_effect', 'Refinement-aware effect |d_z|', '改进感知效应 |d_z|'],
      ['identity_effect', 'Identity effect |d_z|', '身份效应 |d_z|'],
    ] as const
  ).map(([id, en, zh]): GateDeclaration => ({
    id,
    comparator: 'abs_below',
    threshold: 0.2,
    ciMustClear: false,
    unit: 'num',
    source:
      'Cohen (1988): d = 0.2 is a small effect; CALM (Ye et al., ICLR 2025, arXiv 2410.02736) for the bias',
    text: {
      en: { name: en },
      zh: {
        name: zh,
        source: 'Cohen (1988)：d = 0.2 为小效应；偏差依据 CALM（Ye 等，ICLR 2025，arXiv 2410.02736）',
      },
    },
  })),
  {
    // The self-preference probe's: the length-balanced excess self-win rate (judge − human).
    id: 'self_preference',
    comparator: 'abs_below',
    threshold: 0.1,
    ciMustClear: false,
    unit: 'pct',
    source:
      'Zheng et al. (2023, MT-Bench, arXiv 2306.05685): GPT-4 as judge favoured its own answers by about 10 % win rate, Claude-v1 by about 25 %',
    text: {
      en: { name: 'Excess self-win rate (length-balanced)' },
      zh: {
        name: '超额自胜率（长度平衡）',
        source:
          'Zheng et al.（2023，MT-Bench，arXiv 2306.05685）：GPT-4 作为评审时对自己的回答胜率高约 10%，Claude-v1 高约 25%',
      },
    },
  },
];

// Self-consistency's gate: how often two asks of one question disagree. Declared here, with its
// words in EN/中文, and handed to the core by the plug-in's `reportCard.gates`: the card lists the
// gates the registered studies declare, so no generic file names this one.
import type { GateDeclaration } from '../../../report-card/types';

export const SELF_CONSISTENCY_GATES: readonly GateDeclaration[] = [
  {
    id: 'self_disagreement',
    comparator: 'at_most',
    threshold: 0.1,
    ciMustClear: false,
    unit: 'pct',
    source: 'Judge Lab default: two asks of one question disagree at most one time in ten',
    text: {
      en: { name: 'P(two repeats disagree)' },
      zh: {
        name: '两次重复不一致的概率',
        source: 'Judge Lab 默认值：同一问题的两次提问至多十次中有一次不一致',
      },
    },
  },
];

// Bias probes in the renderer: a wizard step (mode, scale, probes, band, rewriter), the results
// sections (a bias profile per judge, histograms, length scatter, tables, variant browser) and
// its strings.
import { extraCalls, studyPlugin, studyStep } from '../../kits/study-plugin';
import { BiasSections } from './BiasSections';
import { BIAS_ID, biasConfig, biasDraft, needsRewriter, validateBias } from './draft';
import { BIAS_NS, biasResources } from './i18n';
import { ProbesStep } from './ProbesStep';
import { SummaryLines } from './SummaryLines';
import { BIAS_CARD_TEXT } from '../../../../shared/protocols/bias-probes/report/card-text';

export const biasProbes = studyPlugin({
  id: BIAS_ID,
  i18n: { namespace: BIAS_NS, resources: biasResources },
  datasetKinds: ['pairwise', 'pointwise'],
  reportCardText: BIAS_CARD_TEXT,
  wizard: {
    steps: [
      studyStep({
        id: 'probes',
        View: ProbesStep,
        validate: validateBias,
        fields: [
          'probes',
          'mode',
          'scale',
          'rewriter',
          'lengthBand',
          'shorterBand',
          'formatTolerance',
          'rubric',
          'paraphrases',
          'probeOptions',
        ],
      }),
    ],
    ...extraCalls((draft) => (needsRewriter(biasDraft(draft)) ? [biasDraft(draft).rewriter] : [])),
    SummaryLines,
    config: biasConfig,
  },
  ResultsSections: BiasSections,
});

// Bias probes in the renderer: a wizard step (mode, scale, probes, band, rewriter), the results
// sections (a bias profile per judge, histograms, length scatter, tables, variant browser) and
// its strings.
import type { RendererProtocol } from '../host';
import { BiasSections } from './BiasSections';
import { BIAS_ID, biasConfig, biasDraft, needsRewriter, validateBias } from './draft';
import { BIAS_NS, biasResources } from './i18n';
import { ProbesStep } from './ProbesStep';
import { SummaryLines } from './SummaryLines';
import { BIAS_CARD_TEXT } from '../../../../shared/protocols/bias-probes/report/card-text';

export const biasProbes: RendererProtocol = {
  id: BIAS_ID,
  title: 'protocol.title',
  description: 'protocol.description',
  datasetKinds: ['pairwise', 'pointwise'],
  i18n: { namespace: BIAS_NS, resources: biasResources },
  reportCardText: BIAS_CARD_TEXT,
  wizard: {
    steps: [
      {
        id: 'probes',
        label: 'wizard.steps.probes',
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
        ],
      },
    ],
    providersInUse: (draft) => (needsRewriter(biasDraft(draft)) ? [biasDraft(draft).rewriter.provider] : []),
    modelsInUse: (draft) => (needsRewriter(biasDraft(draft)) ? [biasDraft(draft).rewriter.model] : []),
    SummaryLines,
    config: biasConfig,
  },
  ResultsSections: BiasSections,
};

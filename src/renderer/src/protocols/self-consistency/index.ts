// Self-consistency in the renderer: a wizard step (repeats, temperatures, orders, scale), the
// results sections (stability, accuracy and position by k, agreement histogram, tables), the
// unstable-items browser and its strings.
import { studyPlugin, studyStep } from '../../kits/study-plugin';
import { SC_ID, scConfig, validateSc } from './draft';
import { SC_NS, scResources } from './i18n';
import { SC_UNSTABLE_PAGE } from './query';
import { RepeatsStep } from './RepeatsStep';
import { SummaryLines } from './SummaryLines';
import { BrowseUnstable, ScSections } from './ScSections';
import { UnstablePage } from './UnstablePage';
import { SELF_CONSISTENCY_CARD_TEXT } from '../../../../shared/protocols/self-consistency/report/card-text';

export const selfConsistency = studyPlugin({
  id: SC_ID,
  i18n: { namespace: SC_NS, resources: scResources },
  datasetKinds: ['pairwise', 'pointwise'],
  reportCardText: SELF_CONSISTENCY_CARD_TEXT,
  wizard: {
    steps: [
      studyStep({
        id: 'repeats',
        View: RepeatsStep,
        validate: validateSc,
        fields: ['repeats', 'temperatures', 'orders', 'scale'],
      }),
    ],
    SummaryLines,
    config: scConfig,
  },
  ResultsSections: ScSections,
  ResultsTools: BrowseUnstable,
  pages: [{ route: SC_UNSTABLE_PAGE, component: UnstablePage, runLink: 'results.browse' }],
});

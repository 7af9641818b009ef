// Reference sensitivity in the renderer: a wizard step (generators, parts, settings, seed), the
// results sections (calibration chart, acceptance heatmap, flip bars, tables) and its strings.
import { extraCalls, studyPlugin, studyStep } from '../../kits/study-plugin';
import { REF_SENS_ID, refSensConfig, refSensDraft, validateRefSens } from './draft';
import { GeneratorsStep } from './GeneratorsStep';
import { SummaryLines } from './SummaryLines';
import { REF_SENS_NS, refSensResources } from './i18n';
import { RefSensFlipsPage } from './flips/RefSensFlipsPage';
import { REFSENS_FLIPS_PAGE } from './flips/query';
import { BrowseRefSensFlips, RefSensSections } from './RefSensSections';
import { REFSENS_CARD_TEXT } from '../../../../shared/protocols/reference-sensitivity/report/card-text';

export const referenceSensitivity = studyPlugin({
  id: REF_SENS_ID,
  i18n: { namespace: REF_SENS_NS, resources: refSensResources },
  datasetKinds: ['qa'],
  reportCardText: REFSENS_CARD_TEXT,
  wizard: {
    steps: [
      studyStep({
        id: 'generators',
        View: GeneratorsStep,
        validate: validateRefSens,
        fields: ['generators', 'parts', 'seed', 'answers', 'templates', 'languages', 'noiseFloor'],
      }),
    ],
    ...extraCalls((draft) => (refSensDraft(draft).sensitivity ? refSensDraft(draft).generators : [])),
    SummaryLines,
    config: refSensConfig,
  },
  ResultsSections: RefSensSections,
  ResultsTools: BrowseRefSensFlips,
  pages: [{ route: REFSENS_FLIPS_PAGE, component: RefSensFlipsPage, runLink: 'browseFlips' }],
});

// Judge-LS in the renderer: its results sections, its pages (the translations review and the
// flip browser), its wizard steps and its strings.
import { studyPlugin } from '../../kits/study-plugin';
import { FlipBrowserPage } from './flips/FlipBrowserPage';
import { JUDGE_LS_NS, judgeLsResources } from './i18n';
import { BrowseFlipsButton, isJudgeLsEmpty, JudgeLsSections } from './results/JudgeLsSections';
import { FLIPS_PAGE, VARIANTS_PAGE } from './routes';
import { VariantsRoutePage } from './variants/VariantsRoutePage';
import { judgeLsWizard } from './wizard/plugin';
import { JUDGE_LS_CARD_TEXT } from '../../../../shared/protocols/judge-ls/report/card-text';

export const judgeLs = studyPlugin({
  id: 'judge-ls',
  i18n: { namespace: JUDGE_LS_NS, resources: judgeLsResources },
  datasetKinds: ['pairwise'],
  reportCardText: JUDGE_LS_CARD_TEXT,
  wizard: judgeLsWizard,
  ResultsSections: JudgeLsSections,
  ResultsTools: BrowseFlipsButton,
  isEmpty: isJudgeLsEmpty,
  pages: [
    { route: VARIANTS_PAGE, component: VariantsRoutePage, runLink: 'run.variants' },
    { route: FLIPS_PAGE, component: FlipBrowserPage, bundleLink: 'browseFlips' },
  ],
});

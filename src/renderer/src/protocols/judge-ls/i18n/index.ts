import { i18next } from '../../../i18n';
import '../../../results/i18n';
import { en } from './en';
import { zh } from './zh';

export const JUDGE_LS_NS = 'judge-ls';
/** Judge-LS's strings first, then the results page's and the app's (generic words: Total, Loading…). */
export const JUDGE_LS_NAMESPACES = [JUDGE_LS_NS, 'results', 'translation'];
export const judgeLsResources = { en, zh };

// Registered on import, so every Judge-LS component (and its tests) finds its strings.
for (const [lng, res] of Object.entries(judgeLsResources)) {
  i18next.addResourceBundle(lng, JUDGE_LS_NS, res, true, true);
}

// The flip browser's state lives in the URL query (filters and the opened row), so back/forward
// and reloads keep the place. Pure helpers.
import { urlRowKey } from '../../../kits/url-query';
import type { Transition } from '../../../../../shared/protocols/reference-sensitivity/types';
import type {
  FlipChange,
  FlipRowView,
  FlipsQuery,
} from '../../../../../shared/protocols/reference-sensitivity/views';

export const REFSENS_FLIPS_PAGE = 'refsens-flips';
export const TRANSITION_IDS: readonly Transition[] = ['NR-RV', 'RV-RC', 'NR-RC'];
export const CHANGES: readonly FlipChange[] = ['correct_to_incorrect', 'incorrect_to_correct'];

/** The API query from the page's URL query ("all=1" lists every answer, not only flips). */
export function apiQuery(q: Record<string, string>): FlipsQuery {
  const out: FlipsQuery = { flipsOnly: q.all !== '1' };
  if (q.judge) out.judge = q.judge;
  if (q.language) out.language = q.language;
  if (q.generator) out.generator = q.generator;
  if (TRANSITION_IDS.includes(q.transition as Transition)) out.transition = q.transition as Transition;
  if (CHANGES.includes(q.change as FlipChange)) out.change = q.change as FlipChange;
  return out;
}

/** A row's key in the URL (`open`). */
export const rowKey = (r: Pick<FlipRowView, 'judge' | 'generator' | 'sourceId'>) =>
  urlRowKey(r.judge, r.generator, r.sourceId);

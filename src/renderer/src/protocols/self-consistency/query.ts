// The unstable-items browser's state lives in the URL query (filters and the opened question), so
// back/forward and reloads keep the place. Pure helpers.
import { urlRowKey } from '../../kits/url-query';
import type { QuestionView, RepeatsQuery } from '../../../../shared/protocols/self-consistency/views';

export const SC_UNSTABLE_PAGE = 'sc-unstable';

/** The API query from the page's URL query ("all=1" lists stable questions too). */
export function apiQuery(q: Record<string, string>): RepeatsQuery {
  const out: RepeatsQuery = { unstableOnly: q.all !== '1' };
  if (q.judge) out.judge = q.judge;
  if (q.condition) out.condition = q.condition;
  if (q.category) out.category = q.category;
  return out;
}

/** A question's key in the URL (`open`). */
export const rowKey = (r: Pick<QuestionView, 'judge' | 'condition' | 'itemId' | 'order'>) =>
  urlRowKey(r.judge, r.condition, r.itemId, r.order);

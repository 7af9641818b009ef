// The unstable-items browser's state lives in the URL query (filters and the opened question), so
// back/forward and reloads keep the place. Pure helpers.
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
  [r.judge, r.condition, r.itemId, r.order].join('\u001f');

/** The query with one filter changed (an empty value removes it) and the opened question closed. */
export function withFilter(q: Record<string, string>, key: string, value: string): Record<string, string> {
  const next = { ...q };
  delete next.open;
  if (value) next[key] = value;
  else delete next[key];
  return next;
}

// The flip browser's state lives in the URL query, so every view is a deep link.
// Keys: judge, comparison (EN-ZH|EN-LS), subset, type, flagged (yes|no), q, and for the opened
// row item (item id), order (orig|swap), plus rowJudge / rowComparison when the filters alone
// do not say which judge and comparison the opened flip belongs to.
import type { Comparison, QualityOrder } from '../../../../../shared/protocols/judge-ls/types';
import { COMPARISONS } from '../../../../../shared/protocols/judge-ls/choice';
import { isTargetLanguage } from '../../../../../shared/protocols/judge-ls/languages';
import { FLIP_TYPES, type Flip, type FlipFilter, type TypeFilter } from './flips';

export type FlipQuery = Record<string, string>;

export interface FlipSelection {
  itemId: number;
  order: QualityOrder;
  judge?: string;
  comparison?: Comparison;
}

const TYPE_FILTERS: readonly string[] = [...FLIP_TYPES, 'correctness'];

/** EN-ZH, EN-LS, or (issue 37) EN-<code> / EN-LS:<code> of a known target. */
const isComparison = (c: string | undefined): c is Comparison =>
  c !== undefined &&
  ((COMPARISONS as readonly string[]).includes(c) || (c.startsWith('EN-') && isTargetLanguage(c.slice(3))));

export function filterFromQuery(q: FlipQuery): FlipFilter {
  const f: FlipFilter = {};
  if (q.judge) f.judge = q.judge;
  if (isComparison(q.comparison)) f.comparison = q.comparison;
  if (q.subset !== undefined) f.subset = q.subset;
  if (TYPE_FILTERS.includes(q.type)) f.type = q.type as TypeFilter;
  if (q.flagged === 'yes' || q.flagged === 'no') f.flagged = q.flagged;
  if (q.q) f.q = q.q;
  return f;
}

export function selectionFromQuery(q: FlipQuery): FlipSelection | null {
  const itemId = Number(q.item);
  if (!q.item || !Number.isSafeInteger(itemId) || itemId <= 0) return null;
  const order: QualityOrder = q.order === 'swap' ? 'swap' : 'orig';
  const sel: FlipSelection = { itemId, order };
  if (q.rowJudge) sel.judge = q.rowJudge;
  if (isComparison(q.rowComparison)) sel.comparison = q.rowComparison;
  return sel;
}

const SELECTION_KEYS = ['item', 'order', 'rowJudge', 'rowComparison'];

/** The query with the filter changed (undefined removes a key) and no row opened. */
export function withFilter(
  q: FlipQuery,
  change: Partial<Record<keyof FlipFilter, string | undefined>>,
): FlipQuery {
  const next: FlipQuery = {};
  for (const [k, v] of Object.entries(q)) if (!SELECTION_KEYS.includes(k)) next[k] = v;
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  return next;
}

/** The query with `flip` opened (filters kept). */
export function withSelection(q: FlipQuery, flip: Flip | null, filter: FlipFilter): FlipQuery {
  const next = withFilter(q, {});
  if (!flip) return next;
  next.item = String(flip.itemId);
  next.order = flip.order;
  if (filter.judge === undefined) next.rowJudge = flip.judge;
  if (filter.comparison === undefined) next.rowComparison = flip.comparison;
  return next;
}

export function matchesSelection(f: Flip, sel: FlipSelection): boolean {
  return (
    f.itemId === sel.itemId &&
    f.order === sel.order &&
    (sel.judge === undefined || f.judge === sel.judge) &&
    (sel.comparison === undefined || f.comparison === sel.comparison)
  );
}

// Which results-table cells open the verdict browser (issue 26 item 4). The results page loads
// the protocol's declarations once and every TableSection below reads them by its table id,
// so each protocol's tables get clickable cells without a line of their own.
import { createContext, useContext, useEffect, useState } from 'react';
import type { TableColumn, TableRow } from '../../../shared/report/table';
import { rowFilter, type VerdictFilter, type VerdictLink } from '../../../shared/verdicts';
import { useApi } from '../api/scope';
import { routeHref } from '../stores/route';

export const VERDICTS_PAGE = 'verdicts';

export const VerdictLinksContext = createContext<readonly VerdictLink[]>([]);

/** The experiment's links; none when the protocol declares none or the call fails (cells stay plain). */
export function useVerdictLinks(experimentId: number): readonly VerdictLink[] {
  const [links, setLinks] = useState<readonly VerdictLink[]>([]);
  const api = useApi();
  useEffect(() => {
    let live = true;
    api.call('experiments.verdictLinks', { experimentId }).then(
      (r) => live && setLinks(r.links),
      () => live && setLinks([]),
    );
    return () => {
      live = false;
    };
  }, [experimentId, api]);
  return links;
}

const FILTER_PREFIX = 'f.';

/** The browser's query: the table it came from, the cell's filter, the sensitivity switch. */
export function verdictsQuery(
  table: string,
  filter: VerdictFilter,
  excludeFlagged: boolean,
): Record<string, string> {
  const query: Record<string, string> = { table };
  for (const [k, v] of Object.entries(filter)) query[FILTER_PREFIX + k] = v;
  if (excludeFlagged) query.excludeFlagged = '1';
  return query;
}

export function filterOfQuery(query: Record<string, string>): VerdictFilter {
  const filter: VerdictFilter = {};
  for (const [k, v] of Object.entries(query))
    if (k.startsWith(FILTER_PREFIX) && v !== '') filter[k.slice(FILTER_PREFIX.length)] = v;
  return filter;
}

/** A table's cell → the browser's address, for the cells its link names; null elsewhere. */
export function useCellHref(
  tableId: string | undefined,
  experimentId: number,
  excludeFlagged: boolean,
): ((column: TableColumn, row: TableRow) => string | null) | undefined {
  // A table may declare several links, each for its own columns (cells of one row can stand on
  // different verdicts, such as all questions and only the complete ones).
  const links = useContext(VerdictLinksContext).filter((l) => l.table === tableId);
  if (links.length === 0) return undefined;
  return (column, row) => {
    const link = links.find((l) => l.columns.includes(column.key));
    if (!link || row[column.key] === null || row[column.key] === undefined) return null;
    const filter = rowFilter(link, row);
    return filter
      ? routeHref({
          name: 'experiment-page',
          experimentId,
          page: VERDICTS_PAGE,
          query: verdictsQuery(link.table, filter, excludeFlagged),
        })
      : null;
  };
}

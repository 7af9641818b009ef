import type { ResultsRoute } from '../host';

/** Judge-LS's own pages: `#/experiments/<id>/flips?…` and `#/experiments/<id>/variants?item=…`. */
export const FLIPS_PAGE = 'flips';
export const VARIANTS_PAGE = 'variants';

export function flipsRoute(experimentId: number, query: Record<string, string>): ResultsRoute {
  return { name: 'experiment-page', experimentId, page: FLIPS_PAGE, query };
}

export function variantsRoute(experimentId: number, itemId?: number): ResultsRoute {
  return {
    name: 'experiment-page',
    experimentId,
    page: VARIANTS_PAGE,
    query: itemId ? { item: String(itemId) } : {},
  };
}

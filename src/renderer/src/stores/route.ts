import { create } from 'zustand';

export type Route =
  | { page: 'datasets' }
  | { page: 'dataset'; datasetId: number }
  | { page: 'item'; datasetId: number; itemId: number }
  | { page: 'not-found'; path: string };

const POSITIVE_INT = /^[1-9]\d{0,14}$/;

/** Parses a location hash (`#/datasets/3/items/17`) into a route. */
export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'datasets')) return { page: 'datasets' };
  if (parts[0] === 'datasets' && POSITIVE_INT.test(parts[1] ?? '')) {
    const datasetId = Number(parts[1]);
    if (parts.length === 2) return { page: 'dataset', datasetId };
    if (parts.length === 4 && parts[2] === 'items' && POSITIVE_INT.test(parts[3])) {
      return { page: 'item', datasetId, itemId: Number(parts[3]) };
    }
  }
  return { page: 'not-found', path };
}

export function routeHref(route: Route): string {
  switch (route.page) {
    case 'datasets':
      return '#/datasets';
    case 'dataset':
      return `#/datasets/${route.datasetId}`;
    case 'item':
      return `#/datasets/${route.datasetId}/items/${route.itemId}`;
    case 'not-found':
      return `#${route.path}`;
  }
}

interface RouteState {
  route: Route;
}

/** The current hash route; the hash is the single source of truth, so deep links work. */
export const useRoute = create<RouteState>(() => ({ route: parseHash(window.location.hash) }));

window.addEventListener('hashchange', () => {
  useRoute.setState({ route: parseHash(window.location.hash) });
});

export function navigate(route: Route, opts: { replace?: boolean } = {}): void {
  const href = routeHref(route);
  if (opts.replace) {
    // replaceState does not fire hashchange, so update the store ourselves.
    window.history.replaceState(window.history.state, '', href);
    useRoute.setState({ route: parseHash(href) });
  } else if (window.location.hash !== href) {
    window.location.hash = href;
  }
}

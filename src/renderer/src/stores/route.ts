import { create } from 'zustand';

export type Route =
  | { name: 'datasets' }
  | { name: 'dataset'; datasetId: number }
  | { name: 'item'; datasetId: number; itemId: number }
  | { name: 'experiments' }
  | { name: 'new-experiment' }
  | { name: 'experiment'; experimentId: number }
  | { name: 'results'; experimentId: number; excludeFlagged?: boolean; verifiedOnly?: boolean }
  /**
   * A protocol's own page (`#/experiments/7/flips?judge=x`): `page` names it in the renderer's
   * protocol registry, `query` holds its state (e.g. an opened item, the flip
   * browser's filters).
   */
  | { name: 'experiment-page'; experimentId: number; page: string; query: Record<string, string> }
  /** Two runs side by side (`#/compare?a=3&b=4&ja=GPT&jb=Haiku`). */
  | { name: 'compare'; query: Record<string, string> }
  /** Human ratings across experiments, and sets opened from annotation packages (`#/annotation?set=3`). */
  | { name: 'annotation'; query: Record<string, string> }
  /** The judge report card (`#/judges?model=openai:gpt-4.1-mini`); no model: choose one. */
  | { name: 'judges'; query: Record<string, string> }
  /** A study bundle opened read-only (`#/bundle`). */
  | { name: 'bundle' }
  | { name: 'not-found'; path: string };

export type RouteName = Route['name'];

const POSITIVE_INT = /^[1-9]\d{0,14}$/;
const PAGE_NAME = /^[a-z][a-z0-9-]{0,63}$/;

function queryOf(hash: string): URLSearchParams {
  const i = hash.indexOf('?');
  return new URLSearchParams(i === -1 ? '' : hash.slice(i + 1));
}

function parseExperiment(parts: string[], query: URLSearchParams, path: string): Route {
  if (parts.length === 2 && parts[1] === 'new') return { name: 'new-experiment' };
  if (!POSITIVE_INT.test(parts[1] ?? '')) return { name: 'not-found', path };
  const experimentId = Number(parts[1]);
  if (parts.length === 2) return { name: 'experiment', experimentId };
  if (parts.length === 3) {
    if (parts[2] === 'results') {
      const on = (k: string) => query.get(k) === '1' || query.get(k) === 'true';
      return {
        name: 'results',
        experimentId,
        ...(on('excludeFlagged') ? { excludeFlagged: true } : {}),
        ...(on('verifiedOnly') ? { verifiedOnly: true } : {}),
      };
    }
    if (PAGE_NAME.test(parts[2])) {
      return {
        name: 'experiment-page',
        experimentId,
        page: parts[2],
        query: Object.fromEntries(query.entries()),
      };
    }
  }
  return { name: 'not-found', path };
}

/** Parses a location hash (`#/datasets/3/items/17`, `#/experiments/2/flips?judge=x`) into a route. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const path = raw.split('?')[0] ?? '';
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'datasets')) return { name: 'datasets' };
  if (parts[0] === 'datasets' && POSITIVE_INT.test(parts[1] ?? '')) {
    const datasetId = Number(parts[1]);
    if (parts.length === 2) return { name: 'dataset', datasetId };
    if (parts.length === 4 && parts[2] === 'items' && POSITIVE_INT.test(parts[3])) {
      return { name: 'item', datasetId, itemId: Number(parts[3]) };
    }
  }
  if (parts.length === 1 && parts[0] === 'compare')
    return { name: 'compare', query: Object.fromEntries(queryOf(raw).entries()) };
  if (parts.length === 1 && parts[0] === 'judges')
    return { name: 'judges', query: Object.fromEntries(queryOf(raw).entries()) };
  if (parts.length === 1 && parts[0] === 'bundle') return { name: 'bundle' };
  if (parts[0] === 'annotation' && parts.length === 1) {
    return { name: 'annotation', query: Object.fromEntries(queryOf(raw).entries()) };
  }
  if (parts[0] === 'experiments') {
    if (parts.length === 1) return { name: 'experiments' };
    return parseExperiment(parts, queryOf(raw), path);
  }
  return { name: 'not-found', path };
}

function withQuery(base: string, query: Record<string, string>): string {
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== '')).toString();
  return q ? `${base}?${q}` : base;
}

export function routeHref(route: Route): string {
  switch (route.name) {
    case 'datasets':
      return '#/datasets';
    case 'dataset':
      return `#/datasets/${route.datasetId}`;
    case 'item':
      return `#/datasets/${route.datasetId}/items/${route.itemId}`;
    case 'experiments':
      return '#/experiments';
    case 'new-experiment':
      return '#/experiments/new';
    case 'experiment':
      return `#/experiments/${route.experimentId}`;
    case 'results':
      return withQuery(`#/experiments/${route.experimentId}/results`, {
        ...(route.excludeFlagged ? { excludeFlagged: '1' } : {}),
        ...(route.verifiedOnly ? { verifiedOnly: '1' } : {}),
      });
    case 'experiment-page':
      return withQuery(`#/experiments/${route.experimentId}/${route.page}`, route.query);
    case 'compare':
      return withQuery('#/compare', route.query);
    case 'annotation':
      return withQuery('#/annotation', route.query);
    case 'judges':
      return withQuery('#/judges', route.query);
    case 'bundle':
      return '#/bundle';
    case 'not-found':
      return `#${route.path}`;
  }
}

interface RouteState {
  route: Route;
}

// Without a window (node tests that read a plug-in's texts, which load the renderer's host and so
// this store) there is no hash to follow: the store starts at the first page.
const hasWindow = typeof window !== 'undefined';

/** The current hash route; the hash is the single source of truth, so deep links work. */
export const useRoute = create<RouteState>(() => ({
  route: parseHash(hasWindow ? window.location.hash : ''),
}));

if (hasWindow) {
  window.addEventListener('hashchange', () => {
    // navigate() has already set this route when it wrote the hash: keep the same object then.
    if (routeHref(useRoute.getState().route) === window.location.hash) return;
    useRoute.setState({ route: parseHash(window.location.hash) });
  });
}

export function navigate(route: Route, opts: { replace?: boolean } = {}): void {
  const href = routeHref(route);
  if (opts.replace) {
    // replaceState does not fire hashchange, so update the store ourselves.
    window.history.replaceState(window.history.state, '', href);
    useRoute.setState({ route: parseHash(href) });
  } else if (window.location.hash !== href) {
    window.location.hash = href;
    // hashchange fires a task later: until then a control that shows the route (a filter's
    // checkbox or select) would be drawn back to its old value, and a second change made in
    // between would be built on the old route and drop the first.
    useRoute.setState({ route: parseHash(href) });
  }
}

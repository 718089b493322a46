import { useSyncExternalStore } from 'react';

export const VIEWS = ['overview', 'models', 'requests', 'usage', 'providers', 'settings'] as const;
export type ViewName = (typeof VIEWS)[number];

/** The view named by a location hash (`#/models`), defaulting to the overview. */
export function viewFromHash(hash: string): ViewName {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (VIEWS as readonly string[]).includes(name) ? (name as ViewName) : 'overview';
}

/** The query part of a location hash (`#/requests?outcome=served` → `outcome=served`). */
export function queryFromHash(hash: string): string {
  const at = hash.indexOf('?');
  return at < 0 ? '' : hash.slice(at + 1);
}

/** Fired when the query is replaced in place (replaceState fires no hashchange). */
const QUERY_EVENT = 'fcm-query';

/** The last query of each view, so leaving a view and coming back keeps its filters. */
const lastQuery = new Map<ViewName, string>();

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  window.addEventListener(QUERY_EVENT, onChange);
  return () => {
    window.removeEventListener('hashchange', onChange);
    window.removeEventListener(QUERY_EVENT, onChange);
  };
}

/** The current view; hash routing needs no server support and keeps the back button working. */
export function useRoute(): ViewName {
  return useSyncExternalStore(subscribe, () => viewFromHash(window.location.hash));
}

/** The current view's query string (without `?`), remembered for the next visit of that view. */
export function useHashQuery(): string {
  const query = useSyncExternalStore(subscribe, () => queryFromHash(window.location.hash));
  lastQuery.set(viewFromHash(window.location.hash), query);
  return query;
}

/**
 * Replaces the current view's query (filters, page) without a new history entry per keystroke or click,
 * so the URL can be shared or reloaded and the back button still leaves the view.
 */
export function replaceHashQuery(query: string): void {
  const view = viewFromHash(window.location.hash);
  lastQuery.set(view, query);
  window.history.replaceState(window.history.state, '', `#/${view}${query ? `?${query}` : ''}`);
  window.dispatchEvent(new Event(QUERY_EVENT));
}

/** The link to a view, with the query it had when last left. */
export function viewHref(view: ViewName): string {
  const query = lastQuery.get(view);
  return `#/${view}${query ? `?${query}` : ''}`;
}

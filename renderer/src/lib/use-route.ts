import { useSyncExternalStore } from 'react';

export const VIEWS = ['overview', 'models', 'requests', 'providers', 'settings'] as const;
export type ViewName = (typeof VIEWS)[number];

/** The view named by a location hash (`#/models`), defaulting to the overview. */
export function viewFromHash(hash: string): ViewName {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (VIEWS as readonly string[]).includes(name) ? (name as ViewName) : 'overview';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The current view; hash routing needs no server support and keeps the back button working. */
export function useRoute(): ViewName {
  return useSyncExternalStore(subscribe, () => viewFromHash(window.location.hash));
}

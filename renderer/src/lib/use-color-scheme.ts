import { useSyncExternalStore } from 'react';

const query = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(query);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** The system colour scheme, for drawings (canvas charts) that cannot follow CSS by themselves. */
export function useColorScheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribe, () => (window.matchMedia(query).matches ? 'dark' : 'light'));
}

/** The value of a CSS custom property on the root element, e.g. `--state-closed`. */
export function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

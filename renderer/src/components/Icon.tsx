import type { ViewName } from '../lib/use-route.js';

const PATHS: Record<ViewName, string> = {
  overview: 'M3 13h4v8H3zM10 8h4v13h-4zM17 3h4v18h-4z',
  models: 'M4 5h16M4 12h16M4 19h16M7 3v4M12 10v4M17 17v4',
  requests: 'M4 6h10M4 12h16M4 18h7M17 4l3 2-3 2M14 16l3 2-3 2',
  usage: 'M3 20h18M6 17v-4M10 17V8M14 17v-6M18 17V5',
  providers: 'M4 7a8 3 0 1 0 16 0a8 3 0 1 0-16 0M4 7v10a8 3 0 0 0 16 0V7M4 12a8 3 0 0 0 16 0',
  settings: 'M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1M15 4v4M9 10v4M17 16v4',
};

/** The line icon of a view, drawn in the current text colour. */
export function Icon({ name }: { name: ViewName }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d={PATHS[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

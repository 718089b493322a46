import { viewHref, VIEWS, type ViewName } from '../lib/use-route.js';
import { Icon } from './Icon.js';

const TITLES: Record<ViewName, string> = {
  overview: 'Overview',
  models: 'Models',
  requests: 'Requests',
  usage: 'Usage',
  providers: 'Providers',
  settings: 'Settings',
};

/** The view switcher: a left rail on a wide window, a tab bar at tray-popover width. */
export function Nav({ current }: { current: ViewName }) {
  return (
    <nav className="nav" aria-label="Views">
      <ul>
        {VIEWS.map((view) => (
          <li key={view}>
            <a href={viewHref(view)} aria-current={view === current ? 'page' : undefined}>
              <Icon name={view} />
              <span>{TITLES[view]}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export { TITLES as VIEW_TITLES };

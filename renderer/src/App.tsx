import { useEffect, type MouseEvent } from 'react';
import { ConfigFileBanner } from './components/ConfigFileBanner.js';
import { ConnectionBanner, ConnectionIndicator } from './components/ConnectionIndicator.js';
import { LazyView } from './components/LazyView.js';
import { Nav, VIEW_TITLES } from './components/Nav.js';
import { PausedBanner } from './components/PausedBanner.js';
import { desktopBridge } from './desktop/bridge.js';
import { guardUnload } from './lib/drafts.js';
import { useRoute } from './lib/use-route.js';
import { viewLoader } from './lib/view-loader.js';
import { ModelsView } from './views/models/ModelsView.js';
import { OverviewView } from './views/overview/OverviewView.js';
import { ProvidersView } from './views/providers/ProvidersView.js';
import { RequestsView } from './views/requests/RequestsView.js';
import { UsageView } from './views/usage/UsageView.js';

/**
 * Settings carries the config editor (CodeMirror and its JSON grammar, about a third of the dashboard's
 * code): it loads when first opened, so the other views start without it.
 */
const settingsView = viewLoader(
  () => import('./views/settings/SettingsView.js'),
  (module) => module.SettingsView,
);

/**
 * Moves focus to the view itself. The hash is left alone: views are routed by the hash, and `#main` would
 * read as an unknown view (the overview).
 */
function skipToContent(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/** The dashboard shell: header, view navigation and the current view. */
export function App() {
  const view = useRoute();
  useEffect(() => {
    document.title = `${VIEW_TITLES[view]} · fcm-router`;
    // Another view starts at its top, not at the scroll position of the one left.
    window.scrollTo(0, 0);
  }, [view]);
  useEffect(() => {
    // The desktop window hides rather than unloads, and Electron would refuse a quit without asking.
    if (desktopBridge()) return undefined;
    window.addEventListener('beforeunload', guardUnload);
    return () => window.removeEventListener('beforeunload', guardUnload);
  }, []);
  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={skipToContent}>
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href="#/overview">
          <img src="/favicon.svg" alt="" width="22" height="22" />
          <span>fcm-router</span>
        </a>
        <ConnectionIndicator />
      </header>
      <Nav current={view} />
      <main className="main" id="main" tabIndex={-1}>
        <ConnectionBanner />
        <PausedBanner />
        <ConfigFileBanner />
        <h1 className="view-title">{VIEW_TITLES[view]}</h1>
        {view === 'overview' && <OverviewView />}
        {view === 'models' && <ModelsView />}
        {view === 'requests' && <RequestsView />}
        {view === 'usage' && <UsageView />}
        {view === 'providers' && <ProvidersView />}
        {view === 'settings' && <LazyView loader={settingsView} what="the settings" />}
      </main>
    </div>
  );
}

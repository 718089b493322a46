/** The placeholder the daemon replaces with its token when it serves `index.html` (with nothing in remote mode). */
const PLACEHOLDER = '__FCM_TOKEN__';
const META = /<meta\s+name="fcm-token"\s+content="([^"]*)"/;
/** Where this tab keeps the token its address brought, so that a reload still has it. */
const SESSION_KEY = 'fcm-router-token';

/** A newer token than the page's own, after the daemon restarted (each start makes a new one). */
let refreshed: string | null = null;
/** The token the address brought, for when sessionStorage is unavailable. */
let adopted: string | null = null;

/**
 * Takes a token handed over in the address (`/#token=<token>`, where the router sends a `?token=` address)
 * into this tab's sessionStorage, and out of the address bar and the history. A fragment is never sent to
 * any server, unlike a query or a cookie.
 */
export function adoptAddressToken(win: Window = window): void {
  const match = /^#token=([^&#]+)$/.exec(win.location.hash);
  if (!match?.[1]) return;
  try {
    adopted = decodeURIComponent(match[1]);
    win.sessionStorage.setItem(SESSION_KEY, adopted);
  } catch {
    // A malformed token is dropped; without storage, the token lasts as long as the page.
  }
  win.history.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}`);
}

function storedToken(storage: Storage | undefined): string | null {
  try {
    // Reading sessionStorage throws where the page may not use storage.
    return (storage ?? sessionStorage).getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/**
 * The router's per-run token, proving to the daemon that a call comes from its own page (another site
 * cannot read it). On loopback the daemon puts it into the page; in remote mode the page holds none and the
 * address brought it (see {@link adoptAddressToken}). Under the Vite dev server the placeholder stays;
 * `VITE_FCM_TOKEN` can stand in.
 */
export function routerToken(doc: Document = document, storage?: Storage): string {
  if (refreshed) return refreshed;
  const token = doc.querySelector<HTMLMetaElement>('meta[name="fcm-token"]')?.content ?? '';
  if (token !== '' && token !== PLACEHOLDER) return token;
  const fromAddress = adopted ?? storedToken(storage);
  if (fromAddress) return fromAddress;
  const devToken: unknown = import.meta.env.VITE_FCM_TOKEN;
  return typeof devToken === 'string' ? devToken : '';
}

/**
 * The event stream's address, with the token as `?token=` when there is one: an EventSource cannot send
 * headers, and the router takes the token in the address for this stream alone.
 */
export function signedEventsUrl(url: string): string {
  const token = routerToken();
  if (token === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/**
 * Re-reads the token from the daemon's page after a reconnect: a restarted daemon on loopback has a new
 * one, and an open dashboard (or the desktop window) must keep working without a reload.
 */
export async function refreshRouterToken(): Promise<void> {
  try {
    const response = await fetch('/', { cache: 'no-store' });
    const token = META.exec(await response.text())?.[1];
    if (token && token !== PLACEHOLDER) refreshed = token;
  } catch {
    // Still unreachable: the next reconnect tries again.
  }
}

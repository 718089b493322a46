/**
 * Where the dashboard window may go. Every decision parses the URL: a prefix test would let
 * `http://127.0.0.1:19280.evil.example` through.
 */

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True when `url` has exactly the router's origin (scheme, host and port). */
export function isRouterUrl(url: string, routerOrigin: string): boolean {
  const target = parse(url);
  const router = parse(routerOrigin);
  if (!target || !router) return false;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  return target.origin === router.origin && target.username === '' && target.password === '';
}

/** In-window navigation (`will-navigate`, `will-redirect`): only within the router's own origin. */
export function decideNavigation(url: string, routerOrigin: string): 'allow' | 'deny' {
  return isRouterUrl(url, routerOrigin) ? 'allow' : 'deny';
}

/** True for a link we hand to the user's browser: https only, and no credentials in the URL. */
export function isSafeExternalUrl(url: string): boolean {
  const target = parse(url);
  return target !== null && target.protocol === 'https:' && target.username === '' && target.password === '';
}

/**
 * A request for a new window (`target=_blank`, `window.open`): never a new Electron window; an https link
 * opens in the user's browser, anything else is dropped.
 */
export function decideWindowOpen(url: string): { action: 'deny'; openExternal: string | null } {
  return { action: 'deny', openExternal: isSafeExternalUrl(url) ? new URL(url).href : null };
}

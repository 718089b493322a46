import { isRouterUrl } from './navigation-policy.js';

/**
 * Which web permissions the dashboard window gets: none, except writing (sanitised) text to the clipboard
 * from the router's own page, which its copy buttons (`navigator.clipboard.writeText`) need. Reading the
 * clipboard, notifications, media, geolocation and everything else are refused.
 *
 * @param requestingUrl the URL or origin of the frame that asks
 */
export function decidePermission(
  permission: string,
  requestingUrl: string,
  routerOrigin: string | null,
): boolean {
  if (routerOrigin === null || permission !== 'clipboard-sanitized-write') return false;
  return isRouterUrl(requestingUrl, routerOrigin);
}

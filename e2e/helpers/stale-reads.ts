import type { Page } from '@playwright/test';
import { getJson } from './chat.js';

/**
 * Until the function returned is called, the page's `GET <apiPath>` gets the router's answer as it was
 * now: a reload that comes back older than a change the page just made, at will.
 */
export async function serveStaleReads(page: Page, origin: string, apiPath: string): Promise<() => void> {
  let stale: string | null = JSON.stringify(await getJson<unknown>(origin, apiPath));
  await page.route(
    (url) => url.pathname === apiPath,
    (route) =>
      stale !== null && route.request().method() === 'GET'
        ? route.fulfill({ status: 200, contentType: 'application/json', body: stale })
        : route.fallback(),
  );
  return () => {
    stale = null;
  };
}

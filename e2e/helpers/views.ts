import { expect, type Page } from '@playwright/test';

/**
 * Opens the dashboard's `view` (a hash route, with any query: `requests?outcome=failed`) on the daemon at
 * `baseUrl`, and waits until the page is live: its event stream connected, so what follows is current.
 */
export async function openView(page: Page, baseUrl: string, view: string): Promise<void> {
  await page.goto(`${baseUrl}/#/${view}`);
  await expect(page.getByRole('status').filter({ hasText: 'live' })).toBeVisible();
}

/**
 * Moving around the dashboard: the skip link, the scroll position when the view changes, and the tab bar
 * at tray-popover width on a view shorter than the window.
 */
import { expect, test } from '@playwright/test';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';

let daemon: Daemon;

test.beforeAll(async () => {
  // No config: the Providers view lists the whole catalogue (long), the Requests view has none (short).
  daemon = await startDaemon({});
});

test.afterAll(async () => {
  await daemon?.stop();
});

test('“Skip to content” moves focus to the view and stays on it', async ({ page }) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/settings`);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/settings');
  expect(errors()).toEqual([]);
});

test('another view starts at its top, not where the last one was scrolled to', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${daemon.url}/#/providers`);
  await expect(page.locator('.provider-row').first()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('at 420 px the tab bar keeps its own height on a view shorter than the window', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await page.goto(`${daemon.url}/#/requests`);
  await expect(page.getByRole('heading', { name: /Request history/ })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Views' });
  const bar = await nav.boundingBox();
  const links = await nav.locator('ul').boundingBox();
  expect(bar).not.toBeNull();
  expect(links).not.toBeNull();
  // Its links and its border, nothing more: the spare height belongs to the view.
  expect(bar?.height ?? 0).toBeLessThanOrEqual((links?.height ?? 0) + 4);
});

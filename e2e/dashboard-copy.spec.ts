/**
 * Copy buttons on a page that is not a secure context (the dashboard over plain http from another machine,
 * `--allow-remote`), where the browser gives no Clipboard API: the text is still copied, through the
 * selection, and no error escapes.
 */
import { expect, test } from '@playwright/test';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { openView } from './helpers/views.js';

let daemon: Daemon;

test.beforeAll(async () => {
  daemon = await startDaemon({ providers: { mine: { baseUrl: 'http://127.0.0.1:9/v1', models: ['m1'] } } });
});

test.afterAll(async () => {
  await daemon?.stop();
});

test('without the Clipboard API a Copy button still copies, through the selection', async ({ page }) => {
  const errors = watchBrowserErrors(page);
  // What a page served over plain http from another address sees: no navigator.clipboard.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
  });
  await openView(page, daemon.url, 'overview');
  expect(await page.evaluate(() => navigator.clipboard === undefined)).toBe(true);

  await page.getByRole('group', { name: 'Agent' }).getByRole('button', { name: 'curl' }).click();
  // Found by its place: its name says what it did once pressed.
  const copy = page.locator('.snippet-head').getByRole('button');
  await expect(copy).toHaveText('Copy curl setup');
  await copy.click();
  await expect(copy).toHaveText('Copied');
  await expect(copy).toBeFocused();

  // Pasted into a field of the page: what the clipboard holds.
  const snippet = (await page.getByLabel('curl setup').textContent()) ?? '';
  await page.evaluate(() => {
    const field = document.createElement('textarea');
    field.id = 'pasted';
    document.body.append(field);
    field.focus();
  });
  await page.keyboard.press('ControlOrMeta+V');
  await expect(page.locator('#pasted')).toHaveValue(snippet);
  expect(errors()).toEqual([]);
});

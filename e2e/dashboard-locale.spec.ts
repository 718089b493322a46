/**
 * The dashboard in a browser whose language tag `Intl` refuses: Chromium reports `en-US@posix` on a Linux
 * system with `LANG=C.UTF-8`, and the chart library builds a number format from that tag as it loads.
 */
import { expect, test } from '@playwright/test';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { chat } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

let upstream: FakeUpstream;
let daemon: Daemon;

test.use({ locale: 'en-US@posix' });

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'k-up', models: ['m1'] } },
    sets: { default: ['up/m1'] },
  });
  expect((await chat(daemon.url, 'fcm')).status).toBe(200);
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

test('under a POSIX-style language tag every view renders, its charts drawn', async ({ page }) => {
  const errors = watchBrowserErrors(page);
  expect(await page.evaluate(() => navigator.language), 'the browser reports the tag').toBe('en-US@posix');
  await openView(page, daemon.url, 'usage');
  await expect(page.getByRole('heading', { name: 'Requests per day' })).toBeVisible();
  await expect(page.locator('.panel canvas').first()).toBeVisible();
  for (const [view, heading] of [
    ['overview', 'Overview'],
    ['models', 'Models'],
    ['requests', 'Requests'],
    ['providers', 'Providers'],
    ['settings', 'Settings'],
  ] as const) {
    await openView(page, daemon.url, view);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }
  expect(errors()).toEqual([]);
});

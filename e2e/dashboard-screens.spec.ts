/**
 * Every view, populated, at desktop and tray-popover width, in the light and the dark scheme: nothing
 * scrolls sideways, nothing complains, and a screenshot of each is left for review (see screenshotDir).
 */
import { expect, test } from '@playwright/test';
import path from 'node:path';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { chat } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { screenshotDir } from './helpers/screenshots.js';
import { send } from './helpers/send.js';

const VIEWS = ['overview', 'models', 'requests', 'usage', 'providers', 'settings'] as const;

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: { name: 'Fake upstream', baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1', 'm2', 'm3', 'm4'] },
      alt: { name: 'Fake second provider', baseUrl: upstream.baseUrl, apiKey: 'k2', models: ['a1'] },
    },
    sets: { default: ['up/m1', 'up/m2', 'up/m3', 'up/m4', 'alt/a1', 'groq/llama-3.3-70b-versatile'] },
    router: { breaker: { failureThreshold: 3, initialCooldownMs: 60_000 } },
  });
  upstream.script('a1', 'unauthorized');
  await chat(daemon.url, 'fcm:@alt/a1', 'continue/1.1.0');
  upstream.script('m4', { rateLimitSeconds: 240 });
  await chat(daemon.url, 'fcm:@up/m4');
  upstream.script('m3', 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) await chat(daemon.url, 'fcm:@up/m3', 'cline/3.2.0');
  for (let i = 0; i < 14; i++) {
    if (i % 3 === 1) upstream.script('m1', 'empty-200');
    await send(daemon.url, { stream: i % 2 === 0, agent: i % 2 ? 'opencode/1.18.33' : 'aider/0.86.1' });
  }
  upstream.script('m1', 'empty-200', 'error-500');
  for (let i = 0; i < 3; i++) await chat(daemon.url, 'fcm', 'opencode/1.18.33');
  await send(daemon.url, { model: 'fcm:@up/m2', headers: { 'x-fcm-source': 'test' } });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 420]) {
    test(`every view at ${width} px, ${scheme}`, async ({ page }) => {
      const errors = watchBrowserErrors(page);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      for (const view of VIEWS) {
        await page.goto(`${daemon.url}/#/${view}`);
        await expect(page.getByRole('status').filter({ hasText: 'live' })).toBeVisible();
        await expect(page.locator('.panel').first()).toBeVisible();
        if (view === 'models') {
          await page.getByRole('button', { name: 'History of up/m3' }).click();
          await expect(page.locator('.model-details canvas').first()).toBeVisible();
        }
        if (view === 'requests') {
          await page
            .locator('.request-row')
            .filter({ hasText: 'served after failover' })
            .first()
            .getByRole('button')
            .click();
        }
        const scroll = await page.locator('html').evaluate((html) => html.scrollWidth);
        expect(scroll, `${view} scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
        await page.screenshot({
          path: path.join(screenshotDir(), `${view}-${width}-${scheme}.png`),
          fullPage: true,
        });
      }
      expect(errors()).toEqual([]);
    });
  }
}

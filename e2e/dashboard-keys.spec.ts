/**
 * Several keys per provider in the dashboard: the Providers view lists each key by its fingerprint with its
 * state (refused, paused with a countdown, usable), and never shows a key; a model's details show its usage
 * today against its free-tier budget.
 */
import { keyFingerprint } from '../router/state/key-fingerprint.js';
import { expect, test } from '@playwright/test';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { chat } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';

const KEYS = ['sk-e2e-first', 'sk-e2e-second', 'sk-e2e-third'];

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: {
        name: 'Fake upstream',
        baseUrl: upstream.baseUrl,
        apiKey: KEYS[0],
        apiKeys: KEYS.slice(1),
        models: ['m1'],
        limits: { rpd: 100 },
      },
    },
    sets: { default: ['up/m1'] },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

test('the Providers view shows each key by fingerprint: refused, paused, usable', async ({ page }) => {
  const errors = watchBrowserErrors(page, []);
  // The first key is refused, the second rate limited, the third serves.
  upstream.script('m1', 'unauthorized', { rateLimitSeconds: 600 }, 'ok');
  expect((await chat(daemon.url)).status).toBe(200);
  expect(upstream.calls.get('m1')).toBe(3);

  await page.goto(`${daemon.url}/#/providers`);
  const keys = page.getByRole('list', { name: 'Fake upstream keys' }).getByRole('listitem');
  await expect(keys).toHaveCount(3);
  await expect(keys.nth(0)).toContainText(keyFingerprint(KEYS[0] ?? ''));
  await expect(keys.nth(0)).toContainText('refused');
  await expect(keys.nth(1)).toContainText(keyFingerprint(KEYS[1] ?? ''));
  await expect(keys.nth(1)).toContainText(/paused\s*back in \d+:\d\d/);
  await expect(keys.nth(2)).toContainText('usable');
  const text = (await page.locator('body').textContent()) ?? '';
  expect(text.includes('sk-e2e')).toBe(false);
  expect(errors()).toEqual([]);
});

test('a model’s details show its tokens today and the share of its daily free budget', async ({ page }) => {
  const errors = watchBrowserErrors(page, []);
  expect((await chat(daemon.url)).status).toBe(200);
  await page.goto(`${daemon.url}/#/models`);
  const m1 = page.getByRole('listitem', { name: 'up/m1', exact: true });
  await m1.getByRole('button', { name: 'History of up/m1' }).click();
  // A daily budget of 100 requests: each served request is at least 1 % of it.
  await expect(m1.locator('.model-usage')).toHaveText(/tokens today.* · \d+% of the daily free budget/);
  expect(errors()).toEqual([]);
});

/**
 * The Overview at a glance: which models fail, why, and when they come back; today's tokens; the time to
 * first byte over the last hour; uptime with its units; a rejected request called so, as in Requests.
 */
import { expect, test } from '@playwright/test';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { chat } from './helpers/chat.js';
import { expectCountingDown } from './helpers/countdown.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1', 'm2', 'm3', 'm4'] } },
    sets: { default: ['up/m1', 'up/m2', 'up/m3', 'up/m4'] },
    router: { breaker: { failureThreshold: 3, initialCooldownMs: 60_000 } },
  });
  for (let i = 0; i < 4; i++) expect((await chat(daemon.url)).status).toBe(200);
  upstream.script('m2', 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) await chat(daemon.url, 'fcm:@up/m2');
  upstream.script('m3', { rateLimitSeconds: 240 });
  await chat(daemon.url, 'fcm:@up/m3');
  upstream.script('m4', 'empty-200', 'empty-200');
  for (let i = 0; i < 2; i++) await chat(daemon.url, 'fcm:@up/m4');
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

test('failing models are named with the reason and a countdown to their return', async ({ page }) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/overview`);
  const failing = page.getByRole('list', { name: 'Failing models' });
  await expect(failing.getByRole('listitem')).toHaveCount(3);
  const m2 = failing.getByRole('listitem', { name: 'up/m2' });
  await expect(m2).toContainText('OPEN');
  await expect(m2).toContainText('tripped on server_error');
  // A 60 s cooldown: the countdown starts at most a minute away, whenever the page shows it.
  await expectCountingDown(m2.getByRole('timer'), 'HALF_OPEN', 60);
  const m3 = failing.getByRole('listitem', { name: 'up/m3' });
  await expect(m3).toContainText('QUOTA-PAUSED');
  await expect(m3).toContainText('quota pause running');
  await expectCountingDown(m3.getByRole('timer'), 'quota resumes', 240);
  const m4 = failing.getByRole('listitem', { name: 'up/m4' });
  await expect(m4).toContainText('DEGRADED');
  await expect(m4).toContainText('2 failures since the last success on empty_choices');
  await expect(failing).not.toContainText('up/m1');
  expect(errors()).toEqual([]);
});

test('today’s tokens, the time to first byte over the last hour, and uptime with units', async ({ page }) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/overview`);
  // Four served requests of 12 prompt and 1 completion token each (the fake upstream's usage).
  await expect(page.locator('.stat').filter({ hasText: 'tokens in' }).locator('.stat-value')).toHaveText(
    '48',
  );
  await expect(page.locator('.stat').filter({ hasText: 'tokens out' }).locator('.stat-value')).toHaveText(
    '4',
  );
  const latency = page.getByRole('list', { name: 'Time to first byte, last hour' });
  await expect(latency).toContainText(/p50 \d+ ms/);
  await expect(latency).toContainText(/p95 \d+ ms/);
  await expect(latency).toContainText('over 4 served requests');
  await expect(
    page.getByRole('img', { name: /^Time to first byte over the last hour: p50 \d+ ms, p95 \d+ ms/ }),
  ).toBeVisible();
  const uptime = page.locator('.facts div').filter({ hasText: 'Uptime' }).locator('dd');
  await expect(uptime).toHaveText(/^\d+ s$|^\d+ min \d\d s$/);
  expect(errors()).toEqual([]);
});

test('a request the router rejected is called "rejected" on the Overview, as in Requests', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/overview`);
  // Paused, the router rejects the request without asking a model.
  await page.getByRole('button', { name: 'Pause routing' }).click();
  await expect(page.getByText(/Routing is paused/)).toBeVisible();
  expect((await chat(daemon.url)).status).toBe(503);
  await page.getByRole('button', { name: 'Resume routing' }).first().click();
  await expect(page.getByText(/Routing is paused/)).toHaveCount(0);
  const tile = page.locator('.stat').filter({ has: page.locator('.stat-label', { hasText: /^rejected$/ }) });
  await expect(tile.locator('.stat-value')).toHaveText('1');
  await expect(page.locator('.legend li').filter({ hasText: 'rejected' })).toHaveText('rejected 1');
  await expect(page.getByRole('img', { name: /^Last hour: .*, 1 rejected$/ })).toBeVisible();
  await expect(page.locator('main')).not.toContainText('refused');

  await page.goto(`${daemon.url}/#/requests`);
  await expect(page.locator('.request-row').first().locator('.badge').first()).toHaveText('rejected');
  await expect(page.getByLabel('Outcome').locator('option', { hasText: 'rejected' })).toHaveCount(1);
  expect(errors()).toEqual([]);
});

test('Pause and Resume by keyboard: the focus goes to the button that takes the pressed one’s place', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/overview`);
  const pause = page.getByRole('button', { name: 'Pause routing' });
  const card = page.getByRole('status', { name: 'Router health' });
  await pause.focus();
  await page.keyboard.press('Enter');
  await expect(card.getByRole('button', { name: 'Resume routing' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pause).toBeFocused();

  // Elsewhere the banner holds Resume; it goes once pressed, and the keyboard goes on from the view.
  await page.keyboard.press('Enter');
  await expect(card.getByRole('button', { name: 'Resume routing' })).toBeFocused();
  await page.getByRole('link', { name: 'Models', exact: true }).click();
  const banner = page.getByRole('status').filter({ hasText: 'Routing is paused' });
  await banner.getByRole('button', { name: 'Resume routing' }).focus();
  await page.keyboard.press('Enter');
  await expect(banner).toHaveCount(0);
  await expect(page.locator('#main')).toBeFocused();
  expect(errors()).toEqual([]);
});

/**
 * The Overview's status is the router's own health verdict: green only when the next request goes to a
 * CLOSED model and none is out, amber when some are out, red when nothing is routable or routing is
 * paused, each with words that say why and what to do.
 */
import { expect, test, type Page } from '@playwright/test';
import type { StateResponse } from '../router/api-types.js';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { expectCountingDown } from './helpers/countdown.js';
import { chat, getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

let upstream: FakeUpstream;
let daemon: Daemon;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1', 'm2'] } },
    sets: { default: ['up/m1', 'up/m2'], keyless: ['groq/llama-3.3-70b-versatile'] },
    activeSet: 'default',
    router: { breaker: { failureThreshold: 3, initialCooldownMs: 60_000 } },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors([PROVOKED_STATUSES]);

async function openOverview(page: Page) {
  await openView(page, daemon.url, 'overview');
  return page.getByRole('status', { name: 'Router health' });
}

test('green while the next request goes to a CLOSED model, naming it', async ({ page }) => {
  const verdict = await openOverview(page);
  await expect(verdict).toHaveClass(/verdict-green/);
  await expect(verdict).toContainText('routing');
  await expect(verdict).toContainText('Next request goes to up/m1.');
  await expect(page.getByText('2 of 2 routable')).toBeVisible();
});

test('amber once a model of the set is out, with when it comes back; the words are the router’s', async ({
  page,
}) => {
  const verdict = await openOverview(page);
  upstream.script('m1', 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) expect((await chat(daemon.url, 'fcm:@up/m1')).status).toBe(502);

  await expect(verdict).toHaveClass(/verdict-amber/);
  await expect(verdict).toContainText('some models out');
  await expect(verdict).toContainText('1 of 2 models out (1 OPEN); next request goes to up/m2.');
  await expectCountingDown(verdict.getByRole('timer'), 'first model back', 60);
  const state = await getJson<StateResponse>(daemon.url, '/api/state');
  expect(state.health.level).toBe('amber');
  expect(state.health.reason).toBe('1 of 2 models out (1 OPEN); next request goes to up/m2');

  await page.goto(`${daemon.url}/#/models`);
  await page.getByRole('button', { name: 'Reset breaker of up/m1' }).click();
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(verdict).toHaveClass(/verdict-green/);
});

test('red while paused, even with healthy models, and the way out is right there', async ({ page }) => {
  const verdict = await openOverview(page);
  await page.getByRole('button', { name: 'Pause routing' }).click();
  await expect(verdict).toHaveClass(/verdict-red/);
  await expect(verdict).toContainText('paused');
  await expect(verdict).toContainText('Routing is paused, agents get 503: resume it.');
  // The Overview no longer claims where the next request goes.
  await expect(verdict).not.toContainText('Next request goes to');
  expect((await chat(daemon.url)).status).toBe(503);
  // One Resume button on the Overview, the card's; another view has the banner's.
  await expect(page.getByRole('button', { name: 'Resume routing' })).toHaveCount(1);
  await page.getByRole('link', { name: 'Models', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Resume routing' })).toHaveCount(1);
  await expect(page.getByText('Routing is paused: agents get 503 router_paused.')).toBeVisible();
  await page.getByRole('link', { name: 'Overview' }).click();

  await verdict.getByRole('button', { name: 'Resume routing' }).click();
  await expect(verdict).toHaveClass(/verdict-green/);
  expect((await chat(daemon.url)).status).toBe(200);
});

test('red when no model of the set has a key, pointing at Providers', async ({ page }) => {
  await openOverview(page);
  await page.goto(`${daemon.url}/#/models`);
  await page.getByLabel('Active set', { exact: true }).selectOption('keyless');
  await page.getByRole('link', { name: 'Overview' }).click();
  const verdict = page.getByRole('status', { name: 'Router health' });
  await expect(verdict).toHaveClass(/verdict-red/);
  await expect(verdict).toContainText('No model has a key: add one in Providers.');
  await expect(page.getByText('0 of 1 routable')).toBeVisible();
  await verdict.getByRole('link', { name: 'Add a key in Providers' }).click();
  await expect(page.getByRole('heading', { name: 'Providers', level: 1 })).toBeVisible();

  await page.goto(`${daemon.url}/#/models`);
  await page.getByLabel('Active set', { exact: true }).selectOption('default');
  await expect
    .poll(async () => (await getJson<StateResponse>(daemon.url, '/api/state')).activeSet)
    .toBe('default');
});

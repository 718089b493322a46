/**
 * A dashboard that knows when it is cut off: while the router does not answer, the status card says since
 * when, the figures are dimmed and Pause is disabled; when a router answers again it recovers by itself.
 */
import { expect, test } from '@playwright/test';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';

let upstream: FakeUpstream;
const daemons: Daemon[] = [];

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
});

test.afterAll(async () => {
  await Promise.all(daemons.map((daemon) => daemon.stop()));
  await upstream?.close();
});

const config = () => ({
  providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1'] } },
  sets: { default: ['up/m1'] },
});

test('a stopped router: the card reads “router not reachable since HH:MM”, Pause is disabled; it comes back by itself', async ({
  page,
}) => {
  const first = await startDaemon(config());
  daemons.push(first);
  await page.goto(`${first.url}/#/overview`);
  const card = page.getByRole('status', { name: 'Router health' });
  await expect(card).toContainText('routing');
  const pause = page.getByRole('button', { name: 'Pause routing' });
  await expect(pause).toBeEnabled();

  await first.stop();
  await expect(card).toContainText(/^router not reachable since \d\d:\d\d/);
  await expect(card).toHaveClass(/verdict-red/);
  await expect(pause).toBeDisabled();
  await expect(page.locator('.grid')).toHaveClass(/grid-stale/);
  await expect(page.locator('.facts div').filter({ hasText: 'Uptime' }).locator('dd')).toHaveText('–');

  // A router comes back at the same address (a new start, a new token): the page follows without a reload.
  const port = Number(new URL(first.url).port);
  const second = await startDaemon(config(), { port });
  daemons.push(second);
  // The stream retries with backoff (1, 2, 4, 8 s …): wait as long as that may take, whatever the machine.
  await expect(card).toContainText('routing', { timeout: 40_000 });
  await expect(pause).toBeEnabled();
  await expect(page.locator('.grid')).not.toHaveClass(/grid-stale/);
});

test('Settings opened while the router is down says so in the page, and shows once the router is back', async ({
  page,
}) => {
  const first = await startDaemon(config());
  daemons.push(first);
  await page.goto(`${first.url}/#/overview`);
  await expect(page.getByRole('status').filter({ hasText: 'live' })).toBeVisible();

  await first.stop();
  await expect(page.getByRole('alert').filter({ hasText: 'The router is not reachable' })).toBeVisible();
  // Settings' code loads when first opened: with the router gone, its fetch fails.
  await page.getByRole('link', { name: 'Settings' }).click();
  const main = page.locator('#main');
  await expect(main).toContainText(
    'Could not load the settings: the router is not reachable (see the banner above).',
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  // The rest of the page still works.
  await page.getByRole('link', { name: 'Models' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();

  const port = Number(new URL(first.url).port);
  const second = await startDaemon(config(), { port });
  daemons.push(second);
  // No reload and no click: the view loads once the live stream opens again (after its backoff).
  await expect(page.getByRole('heading', { level: 2, name: 'Failover and breaker' })).toBeVisible({
    timeout: 40_000,
  });
  await expect(main).not.toContainText('Could not load the settings');
});

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

/**
 * A set that names a model of no provider the router knows (a typo in the config file): the Models view
 * says it is skipped as not in the catalogue, and does not call its provider switched off.
 */
import { expect, test } from '@playwright/test';
import { failOnBrowserErrors } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1'], enabled: true },
      off: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m2'], enabled: false },
    },
    sets: { default: ['up/m1', 'nope/nothing', 'off/m2'] },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors();

test('a model of an unknown provider is skipped as not in the catalogue, not shown as disabled', async ({
  page,
}) => {
  await page.goto(`${daemon.url}/#/models`);
  const unknown = page.getByRole('listitem', { name: 'nope/nothing', exact: true });
  await expect(unknown).toContainText('skipped: not in the catalogue');
  await expect(unknown.locator('.tag', { hasText: 'provider switched off' })).toHaveCount(0);
  // A model whose provider is turned off still says so.
  const off = page.getByRole('listitem', { name: 'off/m2', exact: true });
  await expect(off.locator('.tag', { hasText: 'provider switched off' })).toBeVisible();
});

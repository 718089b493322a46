/**
 * The dashboard of a router started with `--allow-remote` (still on 127.0.0.1, as on a shared machine): the
 * page holds no token, the address the CLI prints brings it in the fragment, and the page keeps it for the
 * tab. No cookie carries it (a cookie would reach every server on the host, whatever its port) and the
 * address bar does not show it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PROVOKED_STATUSES, watchBrowserErrors } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { outOfBounds, sidewaysScroll } from './helpers/layout-checks.js';

let upstream: FakeUpstream;
let daemon: Daemon;
let token: string;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon(
    {
      providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1'] } },
      sets: { default: ['up/m1'] },
    },
    { allowRemote: true },
  );
  const file = JSON.parse(await readFile(path.join(daemon.stateDir, 'daemon.json'), 'utf8')) as {
    token: string;
  };
  token = file.token;
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

/** The page shows the router's data and follows its events. */
async function expectData(page: Page): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: 'live' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Router health' })).toContainText('routing');
}

test('opened with the token, the dashboard shows the router through a reload; the address and the cookies hold no token', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page, [PROVOKED_STATUSES]);
  // Without the token the page is only a shell: every read is refused, and it says how to get in.
  await page.goto(`${daemon.url}/#/overview`);
  await expect(page.getByRole('alert').filter({ hasText: '#token=' }).first()).toBeVisible();

  await page.goto(`${daemon.url}/?token=${encodeURIComponent(token)}`);
  await expectData(page);
  expect(page.url()).not.toContain(token);
  expect(await page.context().cookies()).toEqual([]);

  await page.reload();
  await expectData(page);
  expect(page.url()).not.toContain(token);

  // Changes carry the token in their header as before.
  await page.getByRole('button', { name: 'Pause routing' }).click();
  await expect(page.getByRole('button', { name: 'Resume routing' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Resume routing' }).first().click();
  await expect(page.getByRole('button', { name: 'Pause routing' })).toBeVisible();
  expect(errors()).toEqual([]);
});

test('without the token, or with a stale one, the banner and the Overview say the page lacks the router’s token and how to get it, not that the router is unreachable', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page, [PROVOKED_STATUSES]);
  await page.goto(`${daemon.url}/#/overview`);
  const banner = page.getByRole('alert').filter({ hasText: 'Retrying with backoff' });
  await expect(banner).toContainText('This page has no token for the router');
  await expect(banner).toContainText('/#token=<token>');
  await expect(banner).toContainText('daemon.json');
  const card = page.getByRole('status', { name: 'Router health' });
  await expect(card).toContainText('this page has no token for the router');
  await expect(card).toContainText(`${daemon.url}/#token=<token>`);
  await expect(page.getByRole('status').filter({ hasText: /no token — retrying in/ })).toBeVisible();
  await expect(page.getByText(/not reachable/)).toHaveCount(0);

  // A token of an earlier start (each start makes a new one) is refused the same way. (Changing only the
  // fragment would not load the page again.)
  await page.goto('about:blank');
  await page.goto(`${daemon.url}/#token=stale`);
  await expect(banner).toContainText('The router refused this page’s token');
  await expect(card).toContainText('the router refused this page’s token');
  await expect(page.getByText(/not reachable/)).toHaveCount(0);
  await expect(
    page.getByText('Could not load statistics without the router’s token: see the banner above.'),
  ).toBeVisible();
  await expect(page.getByText(/x-fcm-token/)).toHaveCount(0);

  // Opened with the token, the dashboard shows the router as usual.
  await page.goto('about:blank');
  await page.goto(`${daemon.url}/#token=${encodeURIComponent(token)}`);
  await expectData(page);
  await expect(banner).toHaveCount(0);
  expect(errors()).toEqual([]);
});

/** Each view's reads, as its panels name them when they could not load. */
const VIEW_READS = {
  overview: ['statistics', 'the agents'],
  models: ['models'],
  requests: ['history'],
  usage: ['usage'],
  providers: ['providers'],
  settings: ['the config'],
} as const;

for (const width of [1280, 320]) {
  test(`without the token, at ${width} px, the banner alone says so: each panel that could not load points at it in plain words, none quotes the router’s refusal, and everything fits`, async ({
    page,
  }) => {
    const errors = watchBrowserErrors(page, [PROVOKED_STATUSES]);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${daemon.url}/#/overview`);
    const banner = page.getByRole('alert').filter({ hasText: 'This page has no token for the router' });
    for (const [view, reads] of Object.entries(VIEW_READS)) {
      await page.goto(`${daemon.url}/#/${view}`);
      await expect(banner).toBeVisible();
      for (const what of reads)
        await expect(
          page.getByText(`Could not load ${what} without the router’s token: see the banner above.`),
        ).toBeVisible();
      await expect(page.getByText(/x-fcm-token|fcm-router:/)).toHaveCount(0);
      await expect(page.getByRole('alert')).toHaveCount(1);
      expect.soft(await sidewaysScroll(page), `${view} scrolls sideways at ${width} px`).toBe(0);
      expect
        .soft(await outOfBounds(page, '.banner, .panel, .panel-body > p, button, a[href], input, select'))
        .toEqual([]);
    }
    expect(errors()).toEqual([]);
  });
}

test('the desktop window’s address, with the token in the fragment, works as well', async ({ page }) => {
  await page.goto(`${daemon.url}/#token=${encodeURIComponent(token)}`);
  await expectData(page);
  expect(page.url()).toBe(`${daemon.url}/`);
});

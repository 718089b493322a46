/**
 * config.json edited by hand while the dashboard is open: a valid edit is applied and announced, an
 * invalid one is named with its file and blocks saving, and unsaved form edits (the Settings form, a
 * provider's probes and limits) are carried over to an edit on disk rather than lost or saved over it unseen.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { ConfigResponse } from '../router/api-types.js';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { serveStaleReads } from './helpers/stale-reads.js';
import { openView } from './helpers/views.js';

let daemon: Daemon;

test.beforeAll(async () => {
  daemon = await startDaemon({ providers: { mine: { baseUrl: 'http://127.0.0.1:9/v1', models: ['m1'] } } });
});

test.afterAll(async () => {
  await daemon?.stop();
});

async function editConfig(change: (config: Record<string, unknown>) => Record<string, unknown>) {
  const config = JSON.parse(await readFile(daemon.configPath, 'utf8')) as Record<string, unknown>;
  await writeFile(daemon.configPath, JSON.stringify(change(config), null, 2));
}

function maxAttempts(page: Page) {
  return page.locator('input[name="router.failover.maxAttempts"]');
}

test('a hand edit is applied and announced; an invalid one is named and blocks saving until fixed', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page, [/status of 409/]);
  await page.goto(`${daemon.url}/#/settings`);
  await expect(maxAttempts(page)).toHaveValue('4');

  await editConfig((config) => ({ ...config, router: { failover: { maxAttempts: 7 } } }));
  await expect(
    page.getByRole('status').filter({ hasText: 'config.json was changed on disk: applied' }),
  ).toContainText('router.failover.maxAttempts');
  await expect(maxAttempts(page)).toHaveValue('7');

  const good = await readFile(daemon.configPath, 'utf8');
  await writeFile(daemon.configPath, '{ "router": { "failover": { "maxAttempts": 7 } ');
  const alert = page.getByRole('alert').filter({ hasText: 'config.json has an error' });
  await expect(alert).toContainText(daemon.configPath);
  await expect(alert).toContainText('invalid JSON');
  await maxAttempts(page).fill('5');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(/Not saved: .*is not valid/)).toBeVisible();

  await writeFile(daemon.configPath, good.replace('"maxAttempts": 7', '"maxAttempts": 6'));
  await expect(alert).toHaveCount(0);
  const inUse = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(inUse.effective.router?.failover?.maxAttempts).toBe(6);
  expect(errors()).toEqual([]);
});

test('a form edited before an edit on disk keeps the edit on top of the file, naming the value both changed', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await editConfig((config) => ({ ...config, router: { failover: { maxAttempts: 6 } } }));
  await page.goto(`${daemon.url}/#/settings`);
  await expect(maxAttempts(page)).toHaveValue('6');
  await maxAttempts(page).fill('9');

  await editConfig((config) => ({
    ...config,
    router: { failover: { maxAttempts: 3, requestTimeoutMs: 8000 } },
  }));
  await expect(page.getByRole('status').filter({ hasText: 'changed on disk: applied' })).toBeVisible();
  const notice = page
    .getByRole('status')
    .filter({ hasText: 'changed on disk while you were editing' })
    .first();
  await expect(notice).toContainText(
    'Changed on disk as well, your value kept: Max attempts (the file has 3).',
  );
  await expect(maxAttempts(page)).toHaveValue('9');
  await expect(page.locator('input[name="router.failover.requestTimeoutMs"]')).toHaveValue('8000');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Applied live:')).toBeVisible();
  const onDisk = JSON.parse(await readFile(daemon.configPath, 'utf8')) as { router: unknown };
  expect(onDisk.router).toEqual({ failover: { maxAttempts: 9, requestTimeoutMs: 8000 } });
  expect(errors()).toEqual([]);
});

/** The provider `mine`'s row on the Providers view, its Probes and limits opened. */
async function providerSettings(page: Page) {
  const row = page.getByRole('listitem', { name: 'mine', exact: true });
  await row.getByText('Probes and limits').click();
  return {
    limits: row.getByRole('form', { name: 'Limits of mine' }),
    probes: row.getByRole('form', { name: 'Probes of mine' }),
  };
}

async function onDiskProvider(): Promise<{ limits?: unknown; probe?: unknown }> {
  const config = JSON.parse(await readFile(daemon.configPath, 'utf8')) as {
    providers: Record<string, { limits?: unknown; probe?: unknown }>;
  };
  return config.providers.mine ?? {};
}

function withMine(change: Record<string, unknown>) {
  return (config: Record<string, unknown>) => {
    const providers = config.providers as Record<string, Record<string, unknown>>;
    return { ...config, providers: { ...providers, mine: { ...providers.mine, ...change } } };
  };
}

test('probes and limits follow a hand edit while open, and saving from them keeps what the file has', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await openView(page, daemon.url, 'providers');
  const { limits, probes } = await providerSettings(page);
  await expect(probes.getByLabel('probes a day, at most')).toHaveValue('50');

  await editConfig(withMine({ limits: { rpd: 500 }, probe: { enabled: false, dailyBudget: 20 } }));
  await expect(page.getByRole('status').filter({ hasText: 'changed on disk: applied' })).toBeVisible();
  await expect(limits.getByLabel('requests per day')).toHaveValue('500');
  await expect(probes.getByLabel('probes a day, at most')).toHaveValue('20');
  await expect(probes).toContainText('0 of 20 spent today');

  await limits.getByLabel('requests per minute').fill('10');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(limits.getByRole('status')).toHaveText('saved');
  await probes.getByRole('checkbox', { name: 'Probes' }).check();
  await expect(page.getByText('probes on')).toBeVisible();
  const onDisk = await onDiskProvider();
  expect(onDisk.limits).toEqual({ rpm: 10, rpd: 500 });
  expect(onDisk.probe).toMatchObject({ enabled: true, dailyBudget: 20 });
  expect(errors()).toEqual([]);
});

test('a limits save based on a file changed since is refused with the edit kept, then carried over to the file', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page, [/status of 409/]);
  await editConfig(withMine({ limits: { rpd: 500 }, probe: undefined }));
  await openView(page, daemon.url, 'providers');
  const { limits } = await providerSettings(page);
  await expect(limits.getByLabel('requests per day')).toHaveValue('500');
  // The page keeps reading the providers as they are now: it misses the edit on disk that comes next.
  const fresh = await serveStaleReads(page, daemon.url, '/api/providers');
  await limits.getByLabel('requests per minute').fill('7');
  await editConfig(withMine({ limits: { rpm: 30, rpd: 800 } }));
  const applied = page.getByRole('status').filter({ hasText: 'changed on disk: applied' });
  await expect(applied).toContainText('providers.mine.limits.rpm');
  const written = await readFile(daemon.configPath, 'utf8');

  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(limits).toContainText(
    'Not saved: config.json was changed on disk since this form was filled in',
  );
  await expect(limits.getByLabel('requests per minute')).toHaveValue('7');
  expect(await readFile(daemon.configPath, 'utf8')).toBe(written);

  // The next reading of the file (here after another hand edit) carries the edit over to it.
  fresh();
  await editConfig(withMine({ limits: { rpm: 30, rpd: 800, tpd: 90000 } }));
  await expect(limits.getByLabel('tokens per day')).toHaveValue('90000');
  await expect(limits.getByLabel('requests per day')).toHaveValue('800');
  await expect(limits.getByLabel('requests per minute')).toHaveValue('7');
  await expect(limits).toContainText(
    'Changed on disk as well, your value kept: requests per minute (the file has 30).',
  );
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(limits.getByRole('status')).toHaveText('saved');
  expect((await onDiskProvider()).limits).toEqual({ rpm: 7, rpd: 800, tpd: 90000 });
  expect(errors()).toEqual([]);
});

test("a card's two forms saved in quick succession both save: the second goes after the first, at the revision it made", async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await editConfig(withMine({ limits: undefined, probe: undefined }));
  await openView(page, daemon.url, 'providers');
  const { limits, probes } = await providerSettings(page);
  await expect(probes.getByRole('checkbox', { name: 'Probes' })).not.toBeChecked();
  // The limits save is held on its way until the probes have been switched on.
  let release = (): void => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let saves = 0;
  await page.route('**/api/providers/settings', async (route) => {
    saves += 1;
    if (saves === 1) await held;
    await route.continue();
  });
  await limits.getByLabel('requests per minute').fill('12');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect.poll(() => saves).toBe(1);
  await probes.getByRole('checkbox', { name: 'Probes' }).check();
  release();

  await expect(limits.getByRole('status')).toHaveText('saved');
  await expect(page.getByText('probes on')).toBeVisible();
  await expect(page.getByText(/Not saved/)).toHaveCount(0);
  expect(saves).toBe(2);
  const onDisk = await onDiskProvider();
  expect(onDisk.limits).toEqual({ rpm: 12 });
  expect(onDisk.probe).toMatchObject({ enabled: true });
  expect(errors()).toEqual([]);
});

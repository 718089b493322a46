/**
 * config.json edited by hand while the dashboard is open: a valid edit is applied and announced, an
 * invalid one is named with its file and blocks saving, and unsaved form edits are carried over to an
 * edit on disk rather than lost or saved over it unseen.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { ConfigResponse } from '../router/api-types.js';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';

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

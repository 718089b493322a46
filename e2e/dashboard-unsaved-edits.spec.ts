/**
 * Unsaved edits outlast a switch to another view: the Settings form, the config as JSON, the Add a provider
 * form and a provider's limits come back as they were left, still unsaved (carried over to the file when it
 * changed on disk meanwhile), and the page asks before it unloads while any is unsaved.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { ConfigResponse } from '../router/api-types.js';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { openView } from './helpers/views.js';

let daemon: Daemon;

test.beforeAll(async () => {
  daemon = await startDaemon({ providers: { mine: { baseUrl: 'http://127.0.0.1:9/v1', models: ['m1'] } } });
});

test.afterAll(async () => {
  await daemon?.stop();
});

async function goTo(page: Page, view: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: view }).click();
  await expect(page.getByRole('heading', { level: 1, name: view })).toBeVisible();
}

test('Settings edits outlast a visit to another view, carried over to a file changed on disk meanwhile', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await openView(page, daemon.url, 'settings');
  const maxAttempts = page.locator('input[name="router.failover.maxAttempts"]');
  await expect(maxAttempts).toHaveValue('4');
  await maxAttempts.fill('9');
  const config = (await getJson<ConfigResponse>(daemon.url, '/api/config')).config;
  await page.getByLabel('Config JSON').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(
    JSON.stringify({ ...config, router: { breaker: { failureThreshold: 5 } } }, null, 2),
  );
  await expect(page.getByText('unsaved changes', { exact: true })).toHaveCount(2);

  await goTo(page, 'Requests');
  const onDisk = JSON.parse(await readFile(daemon.configPath, 'utf8')) as Record<string, unknown>;
  await writeFile(
    daemon.configPath,
    JSON.stringify({ ...onDisk, router: { failover: { requestTimeoutMs: 8000 } } }, null, 2),
  );
  await expect(page.getByRole('status').filter({ hasText: 'changed on disk: applied' })).toBeVisible();
  await goTo(page, 'Settings');

  await expect(maxAttempts).toHaveValue('9');
  await expect(page.locator('input[name="router.failover.requestTimeoutMs"]')).toHaveValue('8000');
  await expect(page.getByText('unsaved changes', { exact: true })).toHaveCount(2);
  const json = page.locator('.config-json');
  await expect(json.getByLabel('Config JSON')).toContainText('"failureThreshold": 5');
  await expect(json.getByLabel('Config JSON')).toContainText('"requestTimeoutMs": 8000');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Applied live:')).toBeVisible();
  const saved = JSON.parse(await readFile(daemon.configPath, 'utf8')) as { router: unknown };
  expect(saved.router).toEqual({ failover: { maxAttempts: 9, requestTimeoutMs: 8000 } });
  expect(errors()).toEqual([]);
});

test('a provider being added and unsaved limits outlast a visit to another view; the page asks before it unloads', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await openView(page, daemon.url, 'providers');
  expect(
    await page.evaluate(() => window.dispatchEvent(new Event('beforeunload', { cancelable: true }))),
  ).toBe(true);
  await page.getByText('Add a provider', { exact: true }).click();
  const adding = page.getByRole('form', { name: 'Add a provider' });
  await adding.getByLabel(/^Id/).fill('later');
  const row = page.getByRole('listitem', { name: 'mine', exact: true });
  await row.getByText('Probes and limits').click();
  await row.getByRole('form', { name: 'Limits of mine' }).getByLabel('requests per minute').fill('10');

  await goTo(page, 'Overview');
  await goTo(page, 'Providers');
  await expect(adding.getByLabel(/^Id/)).toHaveValue('later');
  await expect(
    row.getByRole('form', { name: 'Limits of mine' }).getByLabel('requests per minute'),
  ).toHaveValue('10');

  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.accept();
  expect(errors()).toEqual([]);
});

/**
 * Sets in the Models view against a real daemon: `fastest` chosen for a set and in effect for the next
 * request, a set deleted and one renamed, each asked first; the active set cannot be deleted.
 */
import { expect, test, type Page } from '@playwright/test';
import type { ConfigResponse, HistoryResponse, StateResponse } from '../router/api-types.js';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { chat, getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  // m1 comes first in the set but answers 600 ms late; m2 answers at once.
  upstream.setDefault('m1', { delayMs: 600 });
  daemon = await startDaemon({
    providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'sk-e2e', models: ['m1', 'm2'] } },
    sets: { default: ['up/m1', 'up/m2'], spare: ['up/m2'], old: ['up/m1'] },
    router: { ranking: { exploration: 0 } },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors([PROVOKED_STATUSES]);

async function open(page: Page): Promise<void> {
  await openView(page, daemon.url, 'models');
  await expect(page.locator('.model-row').first()).toBeVisible();
}

const state = () => getJson<StateResponse>(daemon.url, '/api/state');
const setItem = (page: Page, name: string) =>
  page.getByRole('listitem', { name: `Set ${name}`, exact: true });
const lastServed = async () =>
  (await getJson<HistoryResponse>(daemon.url, '/api/history?limit=1')).entries[0]?.servedModel;

test('fastest chosen for the set is in effect: the quicker model routes first', async ({ page }) => {
  // Each model measured once; in the set's own order the slow one serves.
  expect((await chat(daemon.url, 'fcm:@up/m1')).status).toBe(200);
  expect((await chat(daemon.url, 'fcm:@up/m2')).status).toBe(200);
  expect((await chat(daemon.url)).status).toBe(200);
  expect(await lastServed()).toBe('up/m1');

  await open(page);
  const order = page.getByRole('group', { name: 'Order of set default' });
  await expect(order.getByRole('button', { name: 'priority' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('listitem', { name: 'up/m1', exact: true }).locator('.route-at')).toHaveText(
    'routes 1st',
  );
  await order.getByRole('button', { name: 'fastest' }).click();
  await expect(order.getByRole('button', { name: 'fastest' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('This set routes its healthy models fastest first')).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'up/m2', exact: true }).locator('.route-at')).toHaveText(
    'routes 1st',
  );
  const config = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(config.config.router?.ranking?.order).toEqual({ default: 'fastest' });
  expect((await chat(daemon.url)).status).toBe(200);
  expect(await lastServed()).toBe('up/m2');
  // The list keeps the set's own order.
  await expect(page.locator('.model-row').first()).toHaveAttribute('aria-label', 'up/m1');

  await order.getByRole('button', { name: 'priority' }).click();
  await expect(page.getByRole('listitem', { name: 'up/m1', exact: true }).locator('.route-at')).toHaveText(
    'routes 1st',
  );
});

test('a set is deleted after the question; the active set cannot be', async ({ page }) => {
  await open(page);
  await expect(setItem(page, 'default').getByRole('button', { name: 'Delete set default' })).toBeDisabled();
  await setItem(page, 'old').getByRole('button', { name: 'Delete set old' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Delete set old' });
  await expect(ask).toContainText(
    'Delete the set “old” (1 model)? Requests that name fcm:old are refused after',
  );
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(Object.keys((await state()).sets)).toContain('old');

  await setItem(page, 'old').getByRole('button', { name: 'Delete set old' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete set old' })
    .getByRole('button', { name: 'Delete “old”' })
    .click();
  await expect(setItem(page, 'old')).toHaveCount(0);
  expect(Object.keys((await state()).sets)).toEqual(['default', 'spare']);
  await expect(page.getByRole('combobox', { name: 'Active set' }).locator('option')).toHaveText([
    'default (2)',
    'spare (1)',
  ]);
});

test('a set is renamed; renaming the active set keeps agents on it under its new name', async ({ page }) => {
  await open(page);
  await setItem(page, 'spare').getByRole('button', { name: 'Rename set spare' }).click();
  const form = page.getByRole('form', { name: 'Rename set spare' });
  await expect(form).toContainText(
    'Rename set “spare”? Requests that name fcm:spare must use the new name after.',
  );
  await form.getByLabel('New name for set spare').fill('default');
  await form.getByRole('button', { name: 'Rename “spare”' }).click();
  await expect(setItem(page, 'spare')).toContainText('a set named "default" exists');
  await form.getByLabel('New name for set spare').fill('backup');
  await form.getByRole('button', { name: 'Rename “spare”' }).click();
  await expect(setItem(page, 'backup')).toBeVisible();
  expect((await state()).sets.backup).toEqual(['up/m2']);

  await setItem(page, 'default').getByRole('button', { name: 'Rename set default' }).click();
  const active = page.getByRole('form', { name: 'Rename set default' });
  await expect(active).toContainText('Agents’ fcm requests stay on this set under its new name');
  await active.getByLabel('New name for set default').fill('main');
  await active.getByRole('button', { name: 'Rename “default”' }).click();
  await expect(page.getByRole('combobox', { name: 'Active set' })).toHaveValue('main');
  expect((await state()).activeSet).toBe('main');
  expect((await chat(daemon.url)).status).toBe(200);
  expect((await getJson<HistoryResponse>(daemon.url, '/api/history?limit=1')).entries[0]?.set).toBe('main');
});

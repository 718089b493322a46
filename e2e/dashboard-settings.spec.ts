/**
 * Settings refuse a last-resort model the router does not know, and every validation message is in plain
 * words, next to its field.
 */
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

function field(page: Page, path: string) {
  return page.locator('.field').filter({ has: page.locator(`input[name="${path}"]`) });
}

async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

test('an unknown last-resort model is refused with words that say what to enter', async ({ page }) => {
  const errors = watchBrowserErrors(page, [/the server responded with a status of 400/]);
  await page.goto(`${daemon.url}/#/settings`);
  const lastResort = field(page, 'router.failover.lastResortModel');
  const input = lastResort.locator('input');

  await input.fill('nope/nothing');
  await save(page);
  await expect(lastResort.getByRole('alert')).toHaveText(
    'no provider "nope": name a model as provider/model, e.g. groq/llama-3.3-70b-versatile',
  );
  await input.fill('groq/not-a-groq-model');
  await save(page);
  await expect(lastResort.getByRole('alert')).toContainText('groq has no model "not-a-groq-model"');
  let config = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(config.effective.router?.failover?.lastResortModel).toBeNull();

  // The field offers the known models while typing, and a known one is applied.
  await expect(lastResort.locator('datalist option[value="mine/m1"]')).toHaveCount(1);
  await input.fill('mine/m1');
  await save(page);
  await expect(page.getByRole('status').filter({ hasText: 'Applied live' })).toContainText('– → mine/m1');
  config = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(config.effective.router?.failover?.lastResortModel).toBe('mine/m1');
  expect(errors()).toEqual([]);
});

test('validation messages are plain words, not the schema library’s', async ({ page }) => {
  const errors = watchBrowserErrors(page, [/the server responded with a status of 400/]);
  await page.goto(`${daemon.url}/#/settings`);
  const timeout = field(page, 'router.failover.requestTimeoutMs');
  await timeout.locator('input').fill('1500.5');
  const ratio = field(page, 'router.breaker.degradedRatio');
  await ratio.locator('input').fill('2');
  await save(page);
  await expect(timeout.getByRole('alert')).toHaveText('a whole number of milliseconds, at least 500');
  await expect(ratio.getByRole('alert')).toHaveText('a share of the failure threshold from 0.1 to 1');
  await expect(page.locator('.settings-form')).not.toContainText(/Expected|received|Invalid/);
  expect(errors()).toEqual([]);
});

/**
 * Settings: the last resort picked from the catalogue (usable models first, a warning for one that cannot
 * serve), one the router does not know refused, and every validation message in plain words by its field.
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

test('the last resort is picked from a wide list, usable models first, with a warning for one that cannot serve', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/settings`);
  const lastResort = page
    .locator('.field')
    .filter({ has: page.locator('select[name="router.failover.lastResortModel"]') });
  const picker = lastResort.locator('select');
  await expect(picker).toHaveValue('');
  // Usable models first (mine needs no key: it is a custom provider without one), then those waiting for a key.
  const groups = await picker
    .locator('optgroup')
    .evaluateAll((list) => list.map((group) => group.getAttribute('label')));
  expect(groups).toEqual(['Usable now', 'Cannot serve yet']);
  await expect(picker.locator('optgroup[label="Usable now"] option[value="mine/m1"]')).toHaveText('mine/m1');
  const groq = picker.locator(
    'optgroup[label="Cannot serve yet"] option[value="groq/llama-3.3-70b-versatile"]',
  );
  await expect(groq).toHaveText(/groq\/llama-3\.3-70b-versatile — Groq: no key/);
  // Wide enough for long catalogue names.
  expect((await picker.boundingBox())?.width ?? 0).toBeGreaterThan(400);

  await picker.selectOption('groq/llama-3.3-70b-versatile');
  await expect(lastResort.locator('.field-warning')).toHaveText(
    'Groq has no key: add one in Providers, or this model cannot serve as the last resort.',
  );
  await picker.selectOption('mine/m1');
  await expect(lastResort.locator('.field-warning')).toHaveCount(0);
  await save(page);
  await expect(page.getByRole('status').filter({ hasText: 'Applied live' })).toContainText('– → mine/m1');
  const config = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(config.effective.router?.failover?.lastResortModel).toBe('mine/m1');
  expect(errors()).toEqual([]);
});

test('an unknown last-resort model written in the JSON is refused with words that say what to enter', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/settings`);
  const config = (await getJson<ConfigResponse>(daemon.url, '/api/config')).config;
  await page.getByLabel('Config JSON').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(
    JSON.stringify({ ...config, router: { failover: { lastResortModel: 'nope/nothing' } } }, null, 2),
  );
  await expect(page.getByRole('list', { name: 'Problems in the config' })).toContainText(
    'router.failover.lastResortModel: no provider "nope": name a model as provider/model, e.g. groq/llama-3.3-70b-versatile',
  );
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

test('Save pressed from the keyboard: a refused save takes the focus to the first field in error, a valid one leaves it on Save', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page, [/the server responded with a status of 400/]);
  await page.goto(`${daemon.url}/#/settings`);
  const timeout = field(page, 'router.failover.requestTimeoutMs');
  const ratio = field(page, 'router.breaker.degradedRatio');
  // The later field in the form is wrong first: the focus goes to the first in error, not the first edited.
  await ratio.locator('input').fill('2');
  await timeout.locator('input').fill('1500.5');
  const saveButton = page.getByRole('button', { name: 'Save', exact: true });
  await saveButton.focus();
  await page.keyboard.press('Enter');
  await expect(timeout.getByRole('alert')).toBeVisible();
  await expect(timeout.locator('input')).toBeFocused();

  await timeout.locator('input').fill('90000');
  await ratio.locator('input').fill('0.5');
  await saveButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Applied live' })).toBeVisible();
  await expect(saveButton).toBeFocused();
  expect(errors()).toEqual([]);
});

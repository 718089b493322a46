/**
 * The config as JSON in Settings (CodeMirror 6, real Chromium, real daemon): an edit the schema refuses is
 * named in plain words on its line and not saved; text that is not JSON says so; a valid edit is applied
 * live, and the form above follows it; unsaved text follows a save of the form, which it names.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { ConfigResponse } from '../router/api-types.js';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';

let daemon: Daemon;

test.beforeAll(async () => {
  daemon = await startDaemon({
    providers: { mine: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-mine-secret-1234', models: ['m1'] } },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
});

/** Replaces the editor's whole text, as a user selecting all and typing would. */
async function replaceText(page: Page, text: string): Promise<void> {
  const editor = page.getByLabel('Config JSON');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

async function shownConfig(): Promise<Record<string, unknown>> {
  return (await getJson<ConfigResponse>(daemon.url, '/api/config')).config as Record<string, unknown>;
}

test('a JSON edit the schema refuses is shown in plain words on its line; a valid one is applied', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page, [/the server responded with a status of 400/]);
  await page.goto(`${daemon.url}/#/settings`);
  const editor = page.getByLabel('Config JSON');
  await expect(editor).toContainText('"baseUrl": "http://127.0.0.1:9/v1"');
  await expect(editor).toContainText('"apiKey": "********"');
  await expect(editor).not.toContainText('sk-mine-secret');
  const before = await readFile(daemon.configPath, 'utf8');
  const problems = page.getByRole('list', { name: 'Problems in the config' });

  const config = await shownConfig();
  const bad = {
    ...config,
    router: { failover: { maxAttempts: 99, lastResortModel: 'mine/m1' } },
    colour: 'blue',
  };
  await replaceText(page, JSON.stringify(bad, null, 2));
  await expect(problems).toContainText('colour: unknown key');
  const attemptsLine =
    JSON.stringify(bad, null, 2)
      .split('\n')
      .findIndex((line) => line.includes('maxAttempts')) + 1;
  const attempts = problems.getByRole('listitem').filter({ hasText: 'router.failover.maxAttempts' });
  await expect(attempts).toContainText(`line ${attemptsLine}`);
  await expect(problems).not.toContainText(/Expected|received|Invalid input/);
  await expect(page.locator('.json-editor').locator('.cm-lintRange-error').first()).toBeVisible();
  await page.getByRole('button', { name: 'Save JSON' }).click();
  await expect(page.getByText('Not saved: fix the problems marked in the editor.')).toBeVisible();
  expect(await readFile(daemon.configPath, 'utf8')).toBe(before);

  await replaceText(page, '{\n  "providers": {}\n  "sets": {}\n}\n');
  await expect(problems).toContainText(/line 3\s*not valid JSON/);

  const good = { ...config, router: { failover: { maxAttempts: 6, lastResortModel: 'mine/m1' } } };
  await replaceText(page, JSON.stringify(good, null, 2));
  await expect(page.getByText('No problems found.')).toBeVisible();
  await page.getByRole('button', { name: 'Save JSON' }).click();
  const applied = page.getByRole('status').filter({ hasText: 'Applied live' });
  await expect(applied).toContainText('Max attempts router.failover.maxAttempts: 4 → 6');
  await expect(applied).toContainText('– → mine/m1');
  const saved = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(saved.effective.router?.failover?.maxAttempts).toBe(6);
  // The key went back masked and stays as it was; the form above follows the new config.
  expect(await readFile(daemon.configPath, 'utf8')).toContain('sk-mine-secret-1234');
  await expect(page.locator('input[name="router.failover.maxAttempts"]')).toHaveValue('6');
  expect(errors()).toEqual([]);
});

test('the form saved while the JSON has unsaved edits: the JSON keeps them on top, saying the form saved', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  await page.goto(`${daemon.url}/#/settings`);
  const editor = page.getByLabel('Config JSON');
  await expect(editor).toContainText('"baseUrl": "http://127.0.0.1:9/v1"');
  const config = await shownConfig();
  const edited = { ...config, router: { failover: { maxAttempts: 6, requestTimeoutMs: 9000 } } };
  await replaceText(page, JSON.stringify(edited, null, 2));

  const form = page.locator('.settings-form');
  await form.locator('input[name="router.failover.maxAttempts"]').fill('5');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(form.getByText('Applied live:')).toBeVisible();
  const json = page.locator('.config-json');
  await expect(json.getByRole('status')).toContainText(
    'The Settings form saved config.json while you were editing here',
  );
  await expect(json).not.toContainText('changed on disk');
  await expect(editor).toContainText('"maxAttempts": 5');
  await expect(editor).toContainText('"requestTimeoutMs": 9000');

  await json.getByRole('button', { name: 'Save JSON' }).click();
  await expect(json.getByRole('status').filter({ hasText: 'Applied live' })).toBeVisible();
  const saved = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(saved.config.router?.failover).toEqual({ maxAttempts: 5, requestTimeoutMs: 9000 });
  expect(errors()).toEqual([]);
});

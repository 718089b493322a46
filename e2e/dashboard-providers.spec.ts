/**
 * The Providers view against a real daemon: a provider added from the form (bad values refused in the
 * router's words), a second key added and used when the first is rate limited, a key removed and put back,
 * and probes switched on, after which the router probes the provider's model by itself.
 */
import { keyFingerprint } from '../router/state/key-fingerprint.js';
import { expect, test, type Page } from '@playwright/test';
import type { ConfigResponse, HistoryResponse } from '../router/api-types.js';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { chat, getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

const FIRST = 'sk-e2e-first';
const SECOND = 'sk-e2e-second';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: {
        name: 'Fake upstream',
        baseUrl: upstream.baseUrl,
        apiKey: FIRST,
        models: ['m1'],
        limits: { rpd: 100 },
      },
      pr: { name: 'Probed', baseUrl: upstream.baseUrl, apiKey: 'sk-e2e-probed', models: ['q1'] },
    },
    sets: { default: ['up/m1', 'pr/q1'] },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors([PROVOKED_STATUSES]);

const open = (page: Page): Promise<void> => openView(page, daemon.url, 'providers');

const configOf = async () => (await getJson<ConfigResponse>(daemon.url, '/api/config')).config;

test('a provider is added from the form; a bad address or model id is refused at its field in plain words', async ({
  page,
}) => {
  await open(page);
  await page.getByText('Add a provider').click();
  const form = page.getByRole('form', { name: 'Add a provider' });
  await form.getByLabel(/^Id/).fill('mine');
  await form.getByLabel(/^Base URL/).fill('ftp://example.com');
  await form.getByLabel(/^API keys/).fill('sk-e2e-mine');
  await form.getByLabel(/^Model ids/).fill('p1, p 2');
  await form.getByLabel(/^Extra headers/).fill('X-Team: blue');
  await form.getByRole('button', { name: 'Add provider' }).click();
  await expect(form.getByLabel(/^Base URL/)).toHaveAccessibleDescription('must be an http(s) URL');
  await expect(form.getByLabel(/^Model ids/)).toHaveAccessibleDescription(
    /^model 2: a model id has no spaces/,
  );
  expect((await configOf()).providers?.mine).toBeUndefined();

  await form.getByLabel(/^Base URL/).fill(upstream.baseUrl);
  await form.getByLabel(/^Model ids/).fill('p1, p2');
  await form.getByRole('button', { name: 'Add provider' }).click();
  await expect(form.getByRole('status')).toContainText('Added “mine”: pin it as fcm:@mine/p1');
  await expect(form.getByLabel(/^API keys/)).toHaveValue('');
  const row = page.getByRole('listitem', { name: 'mine', exact: true });
  await expect(row.getByText('custom')).toBeVisible();
  await expect(row.getByRole('list', { name: 'mine keys' })).toContainText(keyFingerprint('sk-e2e-mine'));
  expect((await configOf()).providers?.mine).toMatchObject({
    baseUrl: upstream.baseUrl,
    models: ['p1', 'p2'],
    headers: { 'X-Team': 'blue' },
    apiKey: '********',
  });
  expect((await chat(daemon.url, 'fcm:@mine/p2')).status).toBe(200);
  expect(upstream.keysUsed.at(-1)).toBe('sk-e2e-mine');
  expect(await page.content()).not.toContain('sk-e2e-mine');
});

test('a second key is added and used when the first answers 429; the first shows paused', async ({
  page,
}) => {
  await open(page);
  const row = page.getByRole('listitem', { name: 'Fake upstream', exact: true });
  await row.getByLabel('API key for Fake upstream').fill(SECOND);
  await row.getByRole('button', { name: 'Add key' }).click();
  await expect(row.getByRole('status')).toContainText(`added as ${keyFingerprint(SECOND)}`);
  const keys = row.getByRole('list', { name: 'Fake upstream keys' }).getByRole('listitem');
  await expect(keys).toHaveCount(2);

  upstream.rateLimitKey(FIRST, 600);
  const before = upstream.keysUsed.length;
  expect((await chat(daemon.url, 'fcm:@up/m1')).status).toBe(200);
  expect(upstream.keysUsed.slice(before)).toEqual([FIRST, SECOND]);
  await expect(keys.nth(0)).toContainText(/paused\s*back in \d+:\d\d/);
  await expect(keys.nth(1)).toContainText('usable');
  // The key that served counts against the day's budget of 100 requests.
  await expect(keys.nth(1).getByRole('meter', { name: 'requests today' })).toHaveAttribute('value', '1');
  await expect(keys.nth(1)).toContainText('1 / 100');
  expect(await page.content()).not.toContain(SECOND);
});

test('a removed key can be put back with Undo, in its place, all by keyboard', async ({ page }) => {
  await open(page);
  const row = page.getByRole('listitem', { name: 'Fake upstream', exact: true });
  const keys = row.getByRole('list', { name: 'Fake upstream keys' }).getByRole('listitem');
  await expect(keys).toHaveCount(2);
  const remove = row.getByRole('button', { name: `Remove key ${keyFingerprint(FIRST)} of Fake upstream` });
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(keys).toHaveCount(1);
  await expect.poll(async () => (await configOf()).providers?.up?.apiKeys).toBeUndefined();
  const notice = row.getByRole('status').filter({ hasText: `Removed key ${keyFingerprint(FIRST)}` });
  // The focus went with the Remove button's key: it is on Undo, not lost to the page.
  await expect(notice.getByRole('button', { name: 'Undo' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(keys).toHaveCount(2);
  await expect(keys.nth(0)).toContainText(keyFingerprint(FIRST));
  await expect(notice).toHaveCount(0);
  await expect(remove).toBeFocused();
  expect((await configOf()).providers?.up?.apiKeys).toHaveLength(1);
});

test('probes switched on: the router probes the idle model by itself, within its daily budget', async ({
  page,
}) => {
  await open(page);
  const row = page.getByRole('listitem', { name: 'Probed', exact: true });
  await row.getByText('Probes and limits').click();
  const probes = row.getByRole('form', { name: 'Probes of Probed' });
  await probes.getByLabel('probes a day, at most').fill('0');
  await probes.getByRole('button', { name: 'Save probes' }).click();
  await expect(probes).toContainText('daily budget: a whole number of probes, at least 1');
  await probes.getByLabel('probes a day, at most').fill('5');
  await probes.getByLabel(/idle for/).fill('1');
  await probes.getByRole('button', { name: 'Save probes' }).click();
  await expect(probes.getByRole('status')).toHaveText('saved');
  await probes.getByRole('checkbox', { name: 'Probes' }).check();
  await expect
    .poll(async () => (await configOf()).providers?.pr?.probe)
    .toEqual({ enabled: true, dailyBudget: 5, idleIntervalMs: 60_000 });
  await expect(row.getByText('probes on')).toBeVisible();

  // The scheduler looks every 15 s; the model was never used, so it is due at once.
  await expect
    .poll(
      async () =>
        (await getJson<HistoryResponse>(daemon.url, '/api/history')).entries.filter(
          (entry) => entry.source === 'probe' && entry.servedModel === 'pr/q1',
        ).length,
      { timeout: 40_000 },
    )
    .toBeGreaterThan(0);
  await page.reload();
  await row.getByText('Probes and limits').click();
  await expect(probes).toContainText(/[1-5] of 5 spent today/);
  await page.goto(`${daemon.url}/#/models`);
  await expect(page.getByRole('listitem', { name: 'pr/q1', exact: true })).toContainText(/probe ok/);
});

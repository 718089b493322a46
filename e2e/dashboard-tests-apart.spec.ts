/**
 * The dashboard's Test buttons send real requests through the router, marked `x-fcm-source: test`: they
 * show in Requests with a mark and a filter, stay out of today's counters and charts, and a test of an
 * OPEN model is its trial, whose result the page spells out (before its cooldown ran out, a failure does
 * not lengthen the outage).
 */
import { expect, test, type Page } from '@playwright/test';
import type { HistoryResponse, StateResponse } from '../router/api-types.js';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { chat, getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: { name: 'Fake upstream', baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1', 'm2', 'm3'] },
    },
    sets: { default: ['up/m1', 'up/m2', 'up/m3'] },
    router: { breaker: { failureThreshold: 3, initialCooldownMs: 60_000 } },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors([PROVOKED_STATUSES]);

const open = (page: Page, view: string): Promise<void> => openView(page, daemon.url, view);

const row = (page: Page, key: string) => page.getByRole('listitem', { name: key, exact: true });
const state = () => getJson<StateResponse>(daemon.url, '/api/state');
const model = async (key: string) => (await state()).models.find((m) => m.key === key);

async function trip(key: string): Promise<void> {
  const id = key.split('/')[1] ?? '';
  upstream.script(id, 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) expect((await chat(daemon.url, `fcm:@${key}`)).status).toBe(502);
  expect((await model(key))?.state).toBe('OPEN');
}

test('a Test and a probe are listed with a mark and a filter, counted nowhere, and named apart', async ({
  page,
}) => {
  expect((await chat(daemon.url)).status).toBe(200);
  await open(page, 'overview');
  const served = page.locator('.stat').filter({ hasText: 'served' }).first().locator('.stat-value');
  await expect(served).toHaveText('1');

  await open(page, 'models');
  const sent = page.waitForRequest((r) => r.url().endsWith('/v1/chat/completions'));
  upstream.script('m2', 'error-500');
  await row(page, 'up/m2').getByRole('button', { name: 'Test up/m2', exact: true }).click();
  expect((await sent).headers()['x-fcm-source']).toBe('test');
  await expect(row(page, 'up/m2').locator('.test-result')).toContainText('server_error');
  await expect(row(page, 'up/m2').locator('.test-result')).toContainText('not counted as agent traffic');

  // The router records who sent it.
  const history = await getJson<HistoryResponse>(daemon.url, '/api/history?limit=1');
  expect(history.entries[0]?.source).toBe('test');
  expect(history.stats.today.failed).toBe(0);
  expect(history.stats.tests).toBe(1);

  // A probe is kept apart too, and named apart.
  await row(page, 'up/m1').getByRole('button', { name: 'Probe up/m1 now' }).click();
  await expect(row(page, 'up/m1').locator('.probe-note')).toBeVisible();

  await page.getByRole('link', { name: 'Requests' }).click();
  const testRow = page.locator('.request-row[data-source="test"]');
  await expect(testRow).toHaveCount(1);
  await expect(testRow.locator('.tag-test')).toHaveText('test');
  await page.getByLabel('Source').selectOption('test');
  await expect(page.locator('.request-row')).toHaveCount(1);
  await page.getByLabel('Source').selectOption('probe');
  await expect(page.locator('.request-row')).toHaveCount(1);
  await page.getByLabel('Source').selectOption('agent');
  await expect(page.locator('.request-row')).toHaveCount(1);
  await expect(page.locator('.request-row[data-source="agent"]')).toHaveCount(1);

  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(served).toHaveText('1');
  await expect(page.locator('.stat').filter({ hasText: 'all failed' }).locator('.stat-value')).toHaveText(
    '0',
  );
  await expect(
    page.getByText('Agent requests only: 1 dashboard test and 1 probe not counted.'),
  ).toBeVisible();
  await expect(page.locator('.legend').first()).toContainText('failed 0');
});

test('a passing test of an OPEN model is its trial: the breaker closes and the page says so', async ({
  page,
}) => {
  await trip('up/m3');
  await open(page, 'models');
  await expect(row(page, 'up/m3').getByText('OPEN', { exact: true })).toBeVisible();
  await row(page, 'up/m3').getByRole('button', { name: 'Test up/m3', exact: true }).click();
  await expect(row(page, 'up/m3').locator('.test-result .badge')).toHaveText('trial passed: CLOSED');
  await expect(row(page, 'up/m3').getByText('CLOSED', { exact: true })).toBeVisible();
  expect((await model('up/m3'))?.state).toBe('CLOSED');
});

test('a failing test of an OPEN model before its cooldown ran out does not lengthen the outage, and the page says for how long', async ({
  page,
}) => {
  await trip('up/m1');
  const before = await model('up/m1');
  await open(page, 'models');
  upstream.script('m1', 'error-500');
  await row(page, 'up/m1').getByRole('button', { name: 'Test up/m1', exact: true }).click();
  await expect(row(page, 'up/m1').locator('.test-result .badge')).toHaveText(
    /^trial failed: OPEN for (\d+ s|\d+:\d\d)$/,
  );
  const after = await model('up/m1');
  expect(after?.state).toBe('OPEN');
  expect(after?.tripCount).toBe(before?.tripCount);
  expect(after?.openUntil).toBe(before?.openUntil);
  await expect(row(page, 'up/m1').locator('.metric-trips dd')).toHaveText(String(before?.tripCount));
});

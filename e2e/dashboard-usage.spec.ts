/**
 * The Usage view against a real daemon over a fake upstream: the chart of requests and tokens per day with
 * labelled axes and its table, split by provider, the budget bars, and the speed per model, every number
 * matching what `/api/usage` and `/api/state` say.
 */
import { expect, test } from '@playwright/test';
import type { StateResponse, UsageResponse } from '../router/api-types.js';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { chat, getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: {
        baseUrl: upstream.baseUrl,
        apiKey: 'k-up',
        models: ['m1', 'm2'],
        limits: { rpd: 10, tpd: 1000 },
      },
      alt: { baseUrl: upstream.baseUrl, apiKey: 'k-alt', models: ['a1'] },
    },
    sets: { default: ['up/m1', 'up/m2', 'alt/a1'] },
  });
  for (const model of ['fcm:@up/m1', 'fcm:@up/m1', 'fcm:@up/m1', 'fcm:@alt/a1'])
    expect((await chat(daemon.url, model)).status).toBe(200);
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

test('the usage chart, its table and the budget bars show what /api/usage says', async ({ page }) => {
  const errors = watchBrowserErrors(page);
  const usage = await getJson<UsageResponse>(daemon.url, '/api/usage');
  const today = usage.days[0];
  expect(today?.requests).toBe(4);
  const tokens = (today?.promptTokens ?? 0) + (today?.completionTokens ?? 0);

  await page.goto(`${daemon.url}/#/usage`);
  await expect(page.getByRole('heading', { name: 'Requests per day' })).toBeVisible();
  // The panel by its controls: its heading follows what it shows.
  const daily = page.locator('.panel').filter({ has: page.getByRole('group', { name: 'Show' }) });
  await expect(daily.getByRole('img')).toHaveAttribute('aria-label', /axes: day; requests/);
  await expect(daily.locator('canvas').first()).toBeVisible();
  const table = daily.getByRole('table');
  const todayRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today?.day }) });
  await expect(todayRow.getByRole('cell').last()).toHaveText('4');

  await daily.getByRole('button', { name: 'By provider' }).click();
  await expect(table.getByRole('columnheader')).toHaveText(['day', 'up', 'alt', 'total']);
  const perProvider = (provider: string) =>
    (today?.entries ?? [])
      .filter((e) => e.model.startsWith(`${provider}/`))
      .reduce((n, e) => n + e.requests, 0);
  await expect(todayRow.getByRole('cell')).toHaveText([
    String(perProvider('up')),
    String(perProvider('alt')),
    '4',
  ]);

  await daily.getByRole('button', { name: 'Tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Tokens per day' })).toBeVisible();
  await expect(todayRow.getByRole('cell').last()).toHaveText(String(tokens));

  const budget = usage.budgets.find((row) => row.model === 'up/m1');
  expect(budget).toMatchObject({ dayRequests: 3, limits: { rpd: 10, tpd: 1000 } });
  const row = page.getByRole('listitem', { name: `up/m1 on key ${budget?.key}` });
  const requests = row.getByRole('meter', { name: /^requests today/ });
  await expect(requests).toHaveAttribute('aria-valuenow', String(budget?.dayRequests));
  await expect(requests).toHaveAttribute('aria-valuemax', '10');
  await expect(row).toContainText(`3 / 10 requests`);
  const tokenBar = row.getByRole('meter', { name: /^tokens today/ });
  await expect(tokenBar).toHaveAttribute('aria-valuenow', String(budget?.dayTokens));
  // Budgets not used today are folded away; alt has no day limit and no bar.
  await expect(page.getByText(/budgets? not used today/)).toBeVisible();
  await expect(page.getByRole('listitem', { name: /^alt\/a1 on key/ })).toHaveCount(0);
  expect(errors()).toEqual([]);
});

test('speed per model: time to first byte p50 and p95 and tokens per second, as /api/state has them', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  const state = await getJson<StateResponse>(daemon.url, '/api/state');
  const m1 = state.models.find((m) => m.key === 'up/m1');
  expect(m1?.latency.samples).toBe(3);
  await page.goto(`${daemon.url}/#/usage`);
  const speed = page.getByRole('region', { name: 'Speed per model' });
  const row = speed.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'up/m1' }) });
  await expect(row.getByRole('cell').nth(0)).toHaveText(`${m1?.latency.ttfbP50Ms} ms`);
  await expect(row.getByRole('cell').nth(1)).toHaveText(`${m1?.latency.ttfbP95Ms} ms`);
  await expect(row.getByRole('cell').nth(3)).toHaveText('3');
  await expect(speed.getByRole('rowheader', { name: 'up/m2' })).toHaveCount(0);
  expect(errors()).toEqual([]);
});

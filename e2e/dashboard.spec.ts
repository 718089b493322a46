import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import type { ConfigResponse, ProvidersResponse, StateResponse } from '../router/api-types.js';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { expectCountingDown } from './helpers/countdown.js';
import { chat, getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { serveStaleReads } from './helpers/stale-reads.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { screenshotDir } from './helpers/screenshots.js';
import { openView } from './helpers/views.js';

const SCREENSHOTS = screenshotDir();
const SECRET = 'gsk_e2e_secret_never_shown_4242';

let upstream: FakeUpstream;
let daemon: Daemon;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: {
        name: 'Fake upstream',
        baseUrl: upstream.baseUrl,
        apiKey: 'k',
        models: ['m1', 'm2', 'm3', 'm4'],
        // Day limits far above what the tests send: the Usage view has budget bars to show.
        limits: { rpd: 200, tpd: 40_000 },
      },
      alt: { name: 'Fake second provider', baseUrl: upstream.baseUrl, apiKey: 'k2', models: ['a1'] },
    },
    sets: { default: ['up/m1', 'up/m2', 'up/m3', 'up/m4', 'alt/a1'], spare: ['up/m2'] },
    activeSet: 'default',
    router: { breaker: { failureThreshold: 3, initialCooldownMs: 60_000 } },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

// Expected noise: error statuses the tests provoke on purpose (an invalid config, a failing model test),
// which the page handles, and the refused reconnects once the last test stops the daemon. Console errors
// include CSP violations, so none may pass.
failOnBrowserErrors([PROVOKED_STATUSES, /ERR_CONNECTION_REFUSED/]);

const open = (page: Page, view: string): Promise<void> => openView(page, daemon.url, view);

function modelRow(page: Page, key: string) {
  return page.getByRole('listitem', { name: key, exact: true });
}

test('the overview shows the router, today’s counts and a copy-ready setup', async ({ page }) => {
  await open(page, 'overview');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Router health' })).toContainText('routing');
  await expect(page.getByText(daemon.url, { exact: true })).toBeVisible();
  await expect(page.getByText(`${daemon.url}/v1`, { exact: true })).toBeVisible();
  for (const agent of ['Codex', 'OpenCode', 'Qwen Code', 'Cline', 'Aider', 'Continue', 'curl']) {
    await page.getByRole('button', { name: agent, exact: true }).click();
    await expect(page.getByLabel(`${agent} setup`)).toContainText(`${daemon.url}/v1`);
  }
  // Claude Code adds /v1/messages itself: its base URL is the router's origin.
  await page.getByRole('button', { name: 'Claude Code', exact: true }).click();
  await expect(page.getByLabel('Claude Code setup')).toContainText(`ANTHROPIC_BASE_URL=${daemon.url}`);
  await expect(page.locator('.chart canvas').first()).toBeVisible();

  // Pausing is live for agents and visible on every view until resumed.
  await page.getByRole('button', { name: 'Pause routing' }).click();
  await expect(page.getByText(/Routing is paused/)).toBeVisible();
  expect((await chat(daemon.url)).status).toBe(503);
  await page.getByRole('button', { name: 'Resume routing' }).first().click();
  await expect(page.getByText(/Routing is paused/)).toHaveCount(0);
  expect((await getJson<StateResponse>(daemon.url, '/api/state')).paused).toBe(false);
});

test('a request whose first model answers an empty 200 appears live with a two-attempt trace', async ({
  page,
}) => {
  await open(page, 'requests');
  await expect(page.getByRole('list', { name: 'Requests, newest first' })).toBeVisible();

  upstream.script('m1', 'empty-200');
  const result = await chat(daemon.url);
  expect(result.status).toBe(200);
  expect(result.attempts).toBe('2');

  // No reload: the row arrives over /api/events.
  const row = page.locator(`[data-request-id="${result.requestId}"]`);
  await expect(row).toBeVisible();
  await expect(page.locator('.request-row').first()).toHaveAttribute(
    'data-request-id',
    result.requestId ?? '',
  );
  await expect(row).toContainText('e2e-agent/1.0');
  await expect(row).toContainText('served after failover');
  await expect(row).toContainText('up/m2');

  await row.getByRole('button').click();
  const steps = row.getByRole('list', { name: /Decision trace/ }).getByRole('listitem');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText('attempt 1');
  await expect(steps.nth(0)).toContainText('up/m1');
  await expect(steps.nth(0)).toContainText('empty_choices');
  await expect(steps.nth(1)).toContainText('attempt 2');
  await expect(steps.nth(1)).toContainText('up/m2');
  await expect(steps.nth(1)).toContainText('served');
  await expect(steps.nth(2)).toContainText('served by');
  // Routing metadata only: neither the prompt nor the completion is anywhere on the page.
  await expect(page.locator('body')).not.toContainText('clamp');
});

test('a tripped breaker shows OPEN with a live countdown, and Reset closes it', async ({ page }) => {
  await open(page, 'models');
  const row = modelRow(page, 'up/m3');
  await expect(row.getByText('CLOSED', { exact: true })).toBeVisible();

  upstream.script('m3', 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) expect((await chat(daemon.url, 'fcm:@up/m3')).status).toBe(502);

  await expect(row.getByText('OPEN', { exact: true })).toBeVisible();
  const countdown = row.getByRole('timer');
  // A 60 s cooldown, counting down whatever the page took to show it.
  await expectCountingDown(countdown, 'HALF_OPEN', 60);
  await expect(row.locator('.metric-failures')).toContainText('3');
  await expect(row).toContainText('server_error');

  await row.getByRole('button', { name: 'Reset breaker of up/m3' }).click();
  await expect(row.getByText('CLOSED', { exact: true })).toBeVisible();
  await expect(row.getByRole('timer')).toHaveCount(0);
  const state = await getJson<StateResponse>(daemon.url, '/api/state');
  expect(state.models.find((m) => m.key === 'up/m3')?.state).toBe('CLOSED');

  // "Test" sends one pinned request through the router and shows its verdict.
  await row.getByRole('button', { name: 'Test up/m3', exact: true }).click();
  await expect(row.locator('.test-result')).toContainText('test passed');
  await expect(row.locator('.test-result')).toContainText('HTTP 200');
  upstream.script('m4', 'empty-200');
  await modelRow(page, 'up/m4').getByRole('button', { name: 'Test up/m4', exact: true }).click();
  await expect(modelRow(page, 'up/m4').locator('.test-result')).toContainText('empty_choices');
});

test('the set editor reorders, adds, removes and switches sets on the router', async ({ page }) => {
  const original = ['up/m1', 'up/m2', 'up/m3', 'up/m4', 'alt/a1'];
  const state = () => getJson<StateResponse>(daemon.url, '/api/state');
  const order = async () => (await state()).sets.default;
  await open(page, 'models');

  await page.getByRole('button', { name: 'Move up/m2 up' }).click();
  await expect.poll(order).toEqual(['up/m2', 'up/m1', 'up/m3', 'up/m4', 'alt/a1']);
  await expect(modelRow(page, 'up/m2').locator('.model-pos')).toHaveText('1');
  await page.getByRole('button', { name: 'Move up/m2 down' }).click();
  await expect.poll(order).toEqual(original);

  const providers = await getJson<ProvidersResponse>(daemon.url, '/api/providers');
  const extra = providers.providers.find((p) => p.id === 'groq')?.models[0]?.key ?? '';
  expect(extra).not.toBe('');
  await page.getByLabel('Add a model').fill(extra);
  await page.getByRole('button', { name: 'Add to set' }).click();
  await expect(modelRow(page, extra).getByText('NO-KEY', { exact: true })).toBeVisible();
  await expect.poll(order).toEqual([...original, extra]);
  await page.getByRole('button', { name: `Remove ${extra} from the set` }).click();
  await expect(modelRow(page, extra)).toHaveCount(0);
  await expect.poll(order).toEqual(original);

  // The page's reloads of the state get the one from before the switch until it is released: the choice
  // must stay shown, not flip back when a reload is older than the change.
  const releaseState = await serveStaleReads(page, daemon.url, '/api/state');
  const activeSet = page.getByLabel('Active set', { exact: true });
  await activeSet.selectOption('spare');
  await expect.poll(async () => (await state()).activeSet).toBe('spare');
  await expect(activeSet).toBeEnabled();
  await expect(activeSet).toHaveValue('spare');
  releaseState();
  await page.reload();
  await expect(page.getByText('set “spare”, 1 model')).toBeVisible();
  await activeSet.selectOption('default');
  await expect.poll(async () => (await state()).activeSet).toBe('default');
});

test('settings show the server’s validation error at the field, then apply a valid value live', async ({
  page,
}) => {
  await open(page, 'settings');
  const field = page
    .locator('.field')
    .filter({ has: page.locator('input[name="router.failover.maxAttempts"]') });
  const input = field.locator('input');
  await expect(input).toHaveValue('4');

  await input.fill('99');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(field.getByRole('alert')).toContainText('20');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  let config = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(config.effective.router?.failover?.maxAttempts).toBe(4);

  await input.fill('6');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Applied live' })).toContainText('Max attempts');
  await expect(page.getByRole('status').filter({ hasText: 'Applied live' })).toContainText('4 → 6');
  await expect(field.getByRole('alert')).toHaveCount(0);
  config = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(config.config.router?.failover?.maxAttempts).toBe(6);
  expect(config.effective.router?.failover?.maxAttempts).toBe(6);
});

test('a provider key is write-only: saved once, then shown only as set and masked', async ({ page }) => {
  await open(page, 'providers');
  const row = page.getByRole('listitem', { name: 'Groq', exact: true });
  await expect(row.getByText('key missing')).toBeVisible();

  // The enabled switch writes the provider's flag into the config, and removes it again.
  // The page's reloads of the provider list get the list from before the switch was used until it is
  // released: the switch must show what was asked for, not flip back when a reload is older than the save.
  const releaseProviders = await serveStaleReads(page, daemon.url, '/api/providers');
  const cerebras = page.getByRole('listitem', { name: 'Cerebras', exact: true });
  const enabled = cerebras.getByLabel('Cerebras enabled');
  await enabled.uncheck();
  await expect
    .poll(async () => (await getJson<ConfigResponse>(daemon.url, '/api/config')).config.providers?.cerebras)
    .toEqual({
      enabled: false,
    });
  await expect(enabled).toBeEnabled();
  await expect(enabled).not.toBeChecked();
  releaseProviders();
  await enabled.check();
  await expect
    .poll(async () => (await getJson<ConfigResponse>(daemon.url, '/api/config')).config.providers?.cerebras)
    .toBeUndefined();

  const keyField = row.getByLabel('API key for Groq');
  await keyField.fill(SECRET);
  await row.getByRole('button', { name: 'Add key' }).click();

  await expect(row.getByText('key set', { exact: true })).toBeVisible();
  await expect(keyField).toHaveValue('');
  await expect(keyField).toHaveAttribute('placeholder', 'paste another key');
  expect(await page.content()).not.toContain(SECRET);

  const providers = await getJson<ProvidersResponse>(daemon.url, '/api/providers');
  expect(providers.providers.find((p) => p.id === 'groq')?.keyStatus).toBe('set');
  const config = await getJson<ConfigResponse>(daemon.url, '/api/config');
  expect(JSON.stringify(config)).not.toContain(SECRET);
  expect(config.config.providers?.groq?.apiKey).toBe('********');

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByText('Effective config (JSON, secrets masked)').click();
  const raw = page.getByLabel('Effective config');
  await expect(raw).toContainText('"groq": {');
  await expect(raw).toContainText('"apiKey": "********"');
  expect(await page.content()).not.toContain(SECRET);
});

test('every view, populated, saved as a screenshot', async ({ page }) => {
  // A realistic mix: a request nothing could serve, a refused key, a quota pause, a tripped breaker,
  // steady traffic with occasional failovers, and a model turning DEGRADED at the end.
  upstream.script('m2', 'error-500');
  await chat(daemon.url, 'fcm:spare', 'continue/1.1.0');
  upstream.script('a1', 'unauthorized');
  await chat(daemon.url, 'fcm:@alt/a1', 'continue/1.1.0');
  upstream.script('m4', { rateLimitSeconds: 240 });
  await chat(daemon.url, 'fcm:@up/m4');
  upstream.script('m3', 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) await chat(daemon.url, 'fcm:@up/m3', 'cline/3.2.0');
  for (let i = 0; i < 14; i++) {
    if (i % 3 === 1) upstream.script('m1', 'empty-200');
    await chat(daemon.url, 'fcm', i % 2 ? 'opencode/1.18.33' : 'aider/0.86.1');
  }
  upstream.script('m1', 'empty-200', 'error-500');
  for (let i = 0; i < 3; i++) await chat(daemon.url, 'fcm', 'opencode/1.18.33');

  await open(page, 'overview');
  await expect(page.locator('.stat-value').first()).not.toHaveText('0');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'overview.png'), fullPage: true });

  await open(page, 'models');
  await expect(modelRow(page, 'up/m3').getByText('OPEN', { exact: true })).toBeVisible();
  await expect(modelRow(page, 'up/m4').getByText('QUOTA-PAUSED', { exact: true })).toBeVisible();
  await expect(modelRow(page, 'up/m1').getByText('DEGRADED', { exact: true })).toBeVisible();
  await expect(modelRow(page, 'alt/a1').getByText('KEY-INVALID', { exact: true })).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'models.png'), fullPage: true });

  await open(page, 'requests');
  await page
    .locator('.request-row')
    .filter({ hasText: 'served after failover' })
    .first()
    .getByRole('button')
    .click();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'requests.png') });

  await open(page, 'usage');
  await expect(page.locator('.budget-row').first()).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'usage.png'), fullPage: true });

  await open(page, 'providers');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'providers.png') });

  await open(page, 'settings');
  await expect(page.getByLabel('Config JSON')).toContainText('"providers"');
  // A full-page picture stretches the page without a resize CodeMirror sees, and its line numbers then sit
  // at heights it guessed: a window as tall as the page is measured like any other.
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'settings.png') });
  await page.setViewportSize(size);
});

test('at tray-popover width the views stay usable, and a stopped daemon shows “disconnected — retrying”', async ({
  page,
}) => {
  await page.setViewportSize({ width: 420, height: 720 });
  await open(page, 'overview');
  const nav = page.getByRole('navigation', { name: 'Views' });
  for (const view of ['Overview', 'Models', 'Requests', 'Usage', 'Providers', 'Settings']) {
    await nav.getByRole('link', { name: view }).click();
    await expect(nav.getByRole('link', { name: view })).toHaveAttribute('aria-current', 'page');
    const width = await page.locator('html').evaluate((html) => html.scrollWidth);
    expect(width, `no horizontal scrolling in ${view} at 420 px`).toBeLessThanOrEqual(420);
  }

  await daemon.stop();
  await expect(page.getByRole('status').filter({ hasText: /disconnected — retrying/ })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'not reachable' })).toBeVisible();
});

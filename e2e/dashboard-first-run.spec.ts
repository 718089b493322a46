/**
 * A first run: no config, no keys. The default set holds the keyless providers' models, so the router
 * routes at once, and the Overview says how many models are usable and how to get more. No request is
 * sent: the keyless providers are real services.
 */
import { expect, test } from '@playwright/test';
import type { ProvidersResponse, StateResponse } from '../router/api-types.js';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';

let daemon: Daemon;

test.beforeAll(async () => {
  daemon = await startDaemon({});
});

test.afterAll(async () => {
  await daemon?.stop();
});

test('with no key at all the default set holds the keyless models and the Overview says so', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  const state = await getJson<StateResponse>(daemon.url, '/api/state');
  const keyless = state.sets.default ?? [];
  expect(keyless.length).toBeGreaterThan(10);
  expect(new Set(keyless.map((key) => key.split('/')[0]))).toEqual(new Set(['kilo', 'llm7']));
  expect(state.health.level).toBe('green');
  expect(state.health.next).toBe(keyless[0]);

  const providers = await getJson<ProvidersResponse>(daemon.url, '/api/providers');
  const usable = providers.providers
    .filter((p) => p.keyStatus === 'not_required')
    .reduce((n, p) => n + p.models.length, 0);
  const waiting = providers.providers.filter((p) => p.keyStatus === 'missing' && !p.unresolvable);

  await page.goto(`${daemon.url}/#/overview`);
  const verdict = page.getByRole('status', { name: 'Router health' });
  await expect(verdict).toHaveClass(/verdict-green/);
  await expect(verdict).toContainText(`Next request goes to ${keyless[0]}.`);
  const catalogue = page.locator('.facts div').filter({ hasText: 'Catalogue' });
  await expect(catalogue).toContainText(`${usable} models usable (Kilo Gateway and LLM7 need no key)`);
  await expect(catalogue).toContainText(`for more: ${waiting.length} providers with`);
  await catalogue.getByRole('link', { name: 'Add a key in Providers' }).click();
  await expect(page.getByRole('heading', { name: 'Providers', level: 1 })).toBeVisible();

  await page.getByRole('link', { name: 'Models' }).click();
  await expect(page.getByText(`set “default”, ${keyless.length} models`)).toBeVisible();
  await expect(page.getByRole('listitem', { name: keyless[0], exact: true })).toContainText('routes 1st');
  expect(errors()).toEqual([]);
});

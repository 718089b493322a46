/**
 * Model discovery from the Models view: the providers' own lists are fetched on demand; a catalogue model
 * a provider no longer lists is skipped, and a model it lists that the catalogue lacks is offered in
 * "Add a model".
 */
import { expect, test } from '@playwright/test';
import type { StateResponse } from '../router/api-types.js';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';

const GONE = 'groq/llama-3.3-70b-versatile';
const KEPT = 'groq/llama-3.1-8b-instant';
let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  upstream.listed = ['llama-3.1-8b-instant', 'brand-new-coder'];
  // The catalogue's Groq, pointed at the fake upstream.
  daemon = await startDaemon({
    providers: { groq: { baseUrl: upstream.baseUrl, apiKey: 'gsk-e2e' } },
    sets: { default: [GONE, KEPT] },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

test('checking the providers’ lists skips a vanished model and offers a new one', async ({ page }) => {
  const errors = watchBrowserErrors(page, []);
  await page.goto(`${daemon.url}/#/models`);
  // Another catalogue model of Groq, not in the set: offered until the list shows it is gone.
  const other = page.locator('datalist option[value="groq/openai/gpt-oss-120b"]');
  await expect(other).toHaveCount(1);
  await expect(
    page.getByText('The router fetches them by itself once a day; not fetched yet.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Check the providers’ model lists' }).click();
  await expect(page.getByRole('list', { name: 'Model lists' })).toContainText(
    /groq: 2 listed, \d+ gone \(skipped\), 1 new \(offered below\)/,
  );
  const state = await getJson<StateResponse>(daemon.url, '/api/state');
  expect(state.models.find((m) => m.key === GONE)?.blockedBy).toBe('model_vanished');
  expect(state.models.find((m) => m.key === KEPT)?.blockedBy).toBeNull();
  await expect(page.locator('datalist option[value="groq/brand-new-coder"]')).toHaveCount(1);
  await expect(other).toHaveCount(0);
  await expect(page.getByText(/once a day; last fetched \d+ s ago\./)).toBeVisible();
  expect(errors()).toEqual([]);
});

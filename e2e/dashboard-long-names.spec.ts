/**
 * Real catalogue names are long (`nvidia/nvidia/nemotron-3-nano-omni-30b-a3b-reasoning`): in Requests at
 * 1280 px a long served-by name stays in its column (ellipsis, the whole name on hover), at 420 px the
 * Models and Providers views do not scroll sideways, and failure codes never break inside.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { failOnBrowserErrors } from './helpers/browser-errors.js';
import { chat } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';

const NEMOTRON = 'nvidia/nemotron-3-nano-omni-30b-a3b-reasoning';
const LONG_KEY = `nvidia/${NEMOTRON}`;

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      nvidia: { baseUrl: upstream.baseUrl, apiKey: 'sk-e2e-nvidia' },
      up: { baseUrl: upstream.baseUrl, apiKey: 'sk-e2e-up', models: ['m1'] },
    },
    sets: { default: [LONG_KEY, 'up/m1'] },
  });
  // The long model fails once with an empty answer (failure code `empty_choices`), then serves.
  upstream.script(NEMOTRON, 'empty-200');
  expect((await chat(daemon.url)).status).toBe(200);
  expect((await chat(daemon.url)).status).toBe(200);
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors();

/** Whether the page scrolls sideways. */
const sideways = (page: Page) => page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);

/** How many lines `locator`'s text takes. */
const lines = (locator: Locator) =>
  locator.evaluate((el) => new Set([...el.getClientRects()].map((rect) => Math.round(rect.top))).size);

test('at 1280 px a long served-by name ends before the Outcome badge, whole on hover', async ({ page }) => {
  await page.goto(`${daemon.url}/#/requests`);
  const row = page.locator('.request-row').first();
  await expect(row.locator('.req-served')).toContainText('nemotron');
  const served = await row.locator('.req-served .model-key').boundingBox();
  const badge = await row.locator('.req-outcome .badge').boundingBox();
  if (!served || !badge) throw new Error('row not laid out');
  expect(served.x + served.width).toBeLessThanOrEqual(badge.x);
  // The long part is cut short with an ellipsis inside its column, not wrapped inside the name.
  const long = row.locator('.req-served .model-key-part').last();
  await expect(long).toHaveText(NEMOTRON.split('/')[1] ?? '');
  expect(await lines(long)).toBe(1);
  expect(await long.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(long).toHaveCSS('text-overflow', 'ellipsis');
  await expect(row.locator('.req-served .model-key')).toHaveAttribute('title', LONG_KEY);
});

test('at 420 px the Models view does not scroll sideways; the failure code stays whole', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await page.goto(`${daemon.url}/#/models`);
  const row = page.getByRole('listitem', { name: LONG_KEY, exact: true });
  await expect(row.locator('.metric-last')).toContainText('empty_choices');
  expect(await sideways(page)).toBe(0);
  expect(await lines(row.locator('.metric-last .mono'))).toBe(1);
  await page
    .getByRole('listitem', { name: 'Set default' })
    .getByRole('button', { name: 'Rename set default' })
    .click();
  expect(await sideways(page)).toBe(0);
});

test('at 420 px the Providers view does not scroll sideways, with a key’s budget shown', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await page.goto(`${daemon.url}/#/providers`);
  const nvidia = page.getByRole('listitem', { name: 'NVIDIA NIM', exact: true });
  await expect(nvidia.getByRole('meter', { name: 'requests this minute' })).toBeVisible();
  await nvidia.getByText('Probes and limits').click();
  await page.getByText('Add a provider').click();
  expect(await sideways(page)).toBe(0);
});

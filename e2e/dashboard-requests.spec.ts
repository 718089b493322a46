/**
 * The Requests view: one time order (newest first by start), full names, one filter per question kept in
 * the URL, pages instead of an endless list, and per row the face, a stream mark and the tokens.
 */
import { expect, test, type Page } from '@playwright/test';
import { failOnBrowserErrors } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { send } from './helpers/send.js';
import { openView } from './helpers/views.js';

const LONG = 'an-unusually-long-model-name-that-must-stay-whole';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream(5).start();
  daemon = await startDaemon({
    providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1', 'm2', LONG] } },
    sets: { default: ['up/m1', 'up/m2', `up/${LONG}`] },
  });
  // 31 requests: more than one page. The newest of them are the ones the tests look at first.
  for (let i = 0; i < 26; i++) await send(daemon.url, { agent: 'aider/0.86.1' });
  await send(daemon.url, { model: `fcm:@up/${LONG}`, agent: 'cline/3.2.0' });
  await send(daemon.url, { model: 'fcm:@up/m2', stream: true, agent: 'opencode/1.18.33' });
  // The widest outcome: the first model answers an empty 200, the second serves.
  upstream.script('m1', 'empty-200');
  await send(daemon.url, { agent: 'failover-agent/1.0' });
  // A slow request that starts first and finishes last, and a quick one started after it: the slow one's
  // answer is held until the quick one is served.
  let release = (): void => {};
  upstream.script('m1', { heldUntil: new Promise<void>((resolve) => (release = resolve)) });
  const before = upstream.calls.get('m1') ?? 0;
  const slow = send(daemon.url, { model: 'fcm:@up/m1', agent: 'slow-agent/1.0' });
  await upstream.seen('m1', before + 1);
  await send(daemon.url, { model: 'fcm:@up/m2', agent: 'quick-agent/1.0' });
  release();
  await slow;
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors();

async function open(page: Page, query = ''): Promise<void> {
  await openView(page, daemon.url, `requests${query}`);
  await expect(page.locator('.request-row').first()).toBeVisible();
}

const rows = (page: Page) => page.locator('.request-row');

test('newest first by start time, the time each row shows', async ({ page }) => {
  await open(page);
  await expect(rows(page).nth(0)).toContainText('quick-agent/1.0');
  await expect(rows(page).nth(1)).toContainText('slow-agent/1.0');
  const times = await page.locator('.req-time').allTextContents();
  const sorted = [...times].sort().reverse();
  expect(times).toEqual(sorted);
});

test('the widest outcome badge stays inside its column', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, '?agent=failover-agent%2F1.0');
  const badge = rows(page).first().getByText('served after failover');
  await expect(badge).toBeVisible();
  const room = await badge.evaluate((el) => {
    const own = el.getBoundingClientRect();
    const column = (el.parentElement as HTMLElement).getBoundingClientRect();
    return column.right - own.right;
  });
  expect(room).toBeGreaterThanOrEqual(0);
});

test('the face, outcome and source filters show their longest choice whole, at desktop and tray widths', async ({
  page,
}) => {
  for (const width of [1280, 900, 420]) {
    await page.setViewportSize({ width, height: 800 });
    await open(page);
    // Their choices are the dashboard's own words; the others list names of any length.
    for (const label of ['Face', 'Outcome', 'Source']) {
      const select = page.getByRole('combobox', { name: label, exact: true });
      const fit = await select.evaluate((el) => {
        const box = el as HTMLSelectElement;
        const style = getComputedStyle(box);
        const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        context.font = style.font;
        const widest = Math.max(...[...box.options].map((o) => context.measureText(o.text).width));
        const longest = [...box.options].reduce((a, b) => (b.text.length > a.text.length ? b : a));
        // Chromium draws the drop-down arrow inside the right padding's edge: 20 px is kept for it.
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        return { text: longest.text, widest: Math.ceil(widest), room: Math.floor(room) };
      });
      expect(fit.widest, `"${fit.text}" at ${width} px`).toBeLessThanOrEqual(fit.room);
    }
  }
});

test('names are shown whole, wrapping only at a slash, at desktop and tray widths', async ({ page }) => {
  for (const width of [1280, 420]) {
    await page.setViewportSize({ width, height: 800 });
    await open(page, '?agent=cline%2F3.2.0');
    const requested = rows(page).first().locator('.req-model .model-key');
    await expect(requested).toHaveText(`fcm:@up/${LONG}`);
    const clipped = await requested.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(clipped, `requested name clipped at ${width} px`).toBe(false);
    // Each part between slashes stays on one line.
    const parts = rows(page).first().locator('.req-model .model-key-part');
    for (const part of await parts.all()) {
      const lines = await part.evaluate(
        (el) => new Set([...el.getClientRects()].map((rect) => Math.round(rect.top))).size,
      );
      expect(lines).toBe(1);
    }
  }
});

test('requested name, served model, face, agent, outcome and source are separate filters kept in the URL', async ({
  page,
}) => {
  await open(page);
  await page.getByLabel('Served by').selectOption('up/m2');
  await expect(page).toHaveURL(/#\/requests\?served=up%2Fm2$/);
  await expect(rows(page)).toHaveCount(3);
  await page.getByLabel('Requested').selectOption('fcm:@up/m2');
  await page.getByLabel('Agent').selectOption('opencode/1.18.33');
  await expect(rows(page)).toHaveCount(1);
  await expect(page).toHaveURL(/requested=fcm%3A%40up%2Fm2/);

  // A name cut by the box is whole on hover.
  await expect(page.getByRole('combobox', { name: 'Requested' })).toHaveAttribute('title', 'fcm:@up/m2');
  // Leaving the view and coming back, or reloading, keeps the filters.
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('link', { name: 'Requests' }).click();
  // The filter's select by its role: the Overview, still on screen for a moment, has an "Agent" group too.
  await expect(page.getByRole('combobox', { name: 'Agent' })).toHaveValue('opencode/1.18.33');
  await expect(rows(page)).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Served by')).toHaveValue('up/m2');
  await expect(rows(page)).toHaveCount(1);

  await page.getByLabel('Face').selectOption('messages');
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByText('No request matches the filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/#\/requests$/);

  // The requested name alone: `fcm` is what the aider runs asked for, whatever served them.
  await page.getByLabel('Requested').selectOption('fcm');
  await page.getByLabel('Outcome').selectOption('served');
  await page.getByLabel('Source').selectOption('agent');
  await expect(page.getByText('27 of 31')).toBeVisible();
});

test('a page holds 25 requests; the rest are on the next pages, and the page stays short', async ({
  page,
}) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await open(page);
  await expect(rows(page)).toHaveCount(25);
  await expect(page.getByText('1–25 of 31 · page 1 of 2')).toBeVisible();
  const height = await page.locator('html').evaluate((html) => html.scrollHeight);
  expect(height).toBeLessThan(5000);
  await page.getByRole('button', { name: 'Older →' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows(page)).toHaveCount(6);
  await page.getByRole('button', { name: '← Newer' }).click();
  await expect(rows(page)).toHaveCount(25);
});

test('each row shows its face, whether it streamed, and the tokens it used', async ({ page }) => {
  await open(page, '?agent=opencode%2F1.18.33');
  const streamed = rows(page).first();
  await expect(streamed.locator('.tag-stream')).toHaveText('stream');
  await expect(streamed.locator('.req-client')).toContainText('chat');
  await open(page, '?agent=quick-agent%2F1.0');
  const plain = rows(page).first();
  await expect(plain.locator('.tag-stream')).toHaveCount(0);
  await expect(plain.locator('.req-tokens')).toHaveText('12 → 1');
  await expect(plain.locator('.req-tokens span')).toHaveAttribute(
    'title',
    '12 prompt tokens in, 1 completion tokens out',
  );
});

/**
 * The Models view lists the set in the order the user edits, with each model's routing place and state
 * beside it; rows move by drag and drop or by the keyboard, a removal can be undone, keys wrap only at a
 * slash, and each model has its chart and failure timeline.
 */
import { expect, test, type Page } from '@playwright/test';
import type { StateResponse } from '../router/api-types.js';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { chat, getJson } from './helpers/chat.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

const LONG = 'minimaxai/minimax-m2.7-extra-long-variant';
const SET = ['up/m1', 'up/m2', 'up/m3', `up/${LONG}`];

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: { up: { baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1', 'm2', 'm3', LONG] } },
    sets: { default: SET },
    router: { breaker: { failureThreshold: 3, initialCooldownMs: 60_000 } },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors([PROVOKED_STATUSES]);

async function open(page: Page): Promise<void> {
  await openView(page, daemon.url, 'models');
  await expect(page.locator('.model-row').first()).toBeVisible();
}

const order = async () => (await getJson<StateResponse>(daemon.url, '/api/state')).sets.default;
const shownOrder = (page: Page) =>
  page.locator('.model-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
const row = (page: Page, key: string) => page.getByRole('listitem', { name: key, exact: true });

async function setOrder(keys: string[]): Promise<void> {
  const token = await tokenOf();
  const response = await fetch(`${daemon.url}/api/sets/default`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-fcm-token': token },
    body: JSON.stringify({ models: keys }),
  });
  expect(response.status).toBe(200);
}

async function tokenOf(): Promise<string> {
  const page = await (await fetch(`${daemon.url}/`)).text();
  return /name="fcm-token" content="([^"]+)"/.exec(page)?.[1] ?? '';
}

test('the set is listed in its own order; health moves the routing place, not the row', async ({ page }) => {
  await setOrder(SET);
  upstream.script('m1', 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) expect((await chat(daemon.url, 'fcm:@up/m1')).status).toBe(502);
  await open(page);
  expect(await shownOrder(page)).toEqual(SET);
  const first = row(page, 'up/m1');
  await expect(first.locator('.model-pos')).toHaveText('1');
  await expect(first.getByText('OPEN', { exact: true })).toBeVisible();
  await expect(first.locator('.route-at')).toHaveText('skipped: breaker OPEN');
  await expect(row(page, 'up/m2').locator('.route-at')).toHaveText('routes 1st');
  await expect(row(page, 'up/m3').locator('.route-at')).toHaveText('routes 2nd');
  // Failures are counted since the last success, not against the threshold.
  await expect(first.locator('.metric-failures')).toHaveText(/failures in a row\s*3/);
  // At 1280 px the label takes one line in every row.
  for (const label of await page.locator('.metric-failures dt').all())
    expect(await label.evaluate((dt) => dt.getBoundingClientRect().height)).toBeLessThan(
      await label.evaluate((dt) => 1.5 * parseFloat(getComputedStyle(dt).lineHeight)),
    );
  await page.getByRole('button', { name: 'Reset breaker of up/m1' }).click();
  await expect(first.locator('.route-at')).toHaveText('routes 1st');
});

test('a model that refused a request another model served routes behind the others and says why; Reset lifts it', async ({
  page,
}) => {
  await setOrder(SET);
  upstream.script('m1', 'refuse-400');
  expect((await chat(daemon.url, 'fcm')).status).toBe(200);
  await open(page);
  const first = row(page, 'up/m1');
  await expect(first.locator('.model-pos')).toHaveText('1');
  await expect(first.locator('.route-at')).toHaveText('routes 4th');
  await expect(row(page, 'up/m2').locator('.route-at')).toHaveText('routes 1st');
  await expect(first.locator('.model-refused-why')).toContainText('refused a request another model served');
  // At 1280 px the health cell spans the row, and the explanation its width, not a narrow column.
  const why = await first.locator('.model-refused-why').boundingBox();
  const cell = await first.locator('.model-health-cell').boundingBox();
  expect(why?.width).toBeCloseTo(cell?.width ?? 0, 0);
  await expect(first.getByText('CLOSED', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Reset breaker of up/m1' }).click();
  await expect(first.locator('.route-at')).toHaveText('routes 1st');
  await expect(first.locator('.model-refused-why')).toHaveCount(0);
});

test('a model that ignored a forced tool call another model made says so and keeps its place; Reset lifts it', async ({
  page,
}) => {
  await setOrder(SET);
  upstream.script('m2', 'tool-call', 'tool-call');
  const forcing = { tools: [{ type: 'function', function: { name: 'Read' } }], tool_choice: 'required' };
  const answer = await chat(daemon.url, 'fcm', 'e2e-agent/1.0', forcing);
  expect(answer.status).toBe(200);
  expect(answer.decision).toBe('up/m2!served|up/m1:tool_choice_ignored->up/m2:200|skips=0');
  await open(page);
  const first = row(page, 'up/m1');
  // Asked last only for requests that force a call: for any other it still routes first.
  await expect(first.locator('.route-at')).toHaveText('routes 1st');
  await expect(first.locator('.model-ignored-why')).toContainText(
    'ignored a forced tool call another model made',
  );
  await expect(first.getByText('CLOSED', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Reset breaker of up/m1' }).click();
  await expect(first.locator('.model-ignored-why')).toHaveCount(0);
  const again = await chat(daemon.url, 'fcm', 'e2e-agent/1.0', forcing);
  expect(again.decision, 'the reset forgot the lesson: it is asked first again').toBe(answer.decision);
});

test('a row dragged by its handle lands where it is dropped, on the router too', async ({ page }) => {
  await setOrder(SET);
  await open(page);
  const handle = row(page, 'up/m1').getByRole('button', { name: /^Reorder up\/m1/ });
  const target = row(page, 'up/m3');
  const from = await handle.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('rows not laid out');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, to.y + to.height * 0.75, { steps: 8 });
  // While dragging, the list already shows where the row would land.
  await expect(row(page, 'up/m1')).toHaveClass(/is-dragging/);
  await expect.poll(() => shownOrder(page)).toEqual(['up/m2', 'up/m3', 'up/m1', `up/${LONG}`]);
  await page.mouse.up();
  await expect.poll(order).toEqual(['up/m2', 'up/m3', 'up/m1', `up/${LONG}`]);
  await expect(row(page, 'up/m1').locator('.model-pos')).toHaveText('3');
});

test('the keyboard does the same from the handle: arrows move one place, focus stays on the row', async ({
  page,
}) => {
  await setOrder(SET);
  await open(page);
  const handle = row(page, 'up/m3').getByRole('button', { name: /^Reorder up\/m3/ });
  await expect(handle).toHaveAccessibleDescription(/press ↑ or ↓/);
  await handle.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(order).toEqual(['up/m1', 'up/m3', 'up/m2', `up/${LONG}`]);
  await expect(row(page, 'up/m3').getByRole('button', { name: /^Reorder up\/m3/ })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect.poll(order).toEqual(['up/m3', 'up/m1', 'up/m2', `up/${LONG}`]);
  await page.keyboard.press('End');
  await expect.poll(order).toEqual(['up/m1', 'up/m2', `up/${LONG}`, 'up/m3']);
  await expect(page.getByText(`up/m3 moved to place 4 of 4`)).toBeAttached();
});

test('a removal can be undone, back at its place', async ({ page }) => {
  await setOrder(SET);
  await open(page);
  await page.getByRole('button', { name: 'Remove up/m2 from the set' }).click();
  await expect(row(page, 'up/m2')).toHaveCount(0);
  await expect.poll(order).toEqual(['up/m1', 'up/m3', `up/${LONG}`]);
  const notice = page.getByRole('status').filter({ hasText: 'Removed up/m2 from the set.' });
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(order).toEqual(SET);
  await expect(row(page, 'up/m2').locator('.model-pos')).toHaveText('2');
  await expect(notice).toHaveCount(0);
});

test('removed from the keyboard: the focus goes to Undo, and after Undo back to the row', async ({
  page,
}) => {
  await setOrder(SET);
  await open(page);
  await page.getByRole('button', { name: 'Remove up/m2 from the set' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(order).toEqual(['up/m1', 'up/m3', `up/${LONG}`]);
  const notice = page.getByRole('status').filter({ hasText: 'Removed up/m2 from the set.' });
  await expect(notice.getByRole('button', { name: 'Undo' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(order).toEqual(SET);
  await expect(page.getByRole('button', { name: 'Remove up/m2 from the set' })).toBeFocused();
});

test('after an Undo whose save is slow, the focus still goes back to the row once it is in', async ({
  page,
}) => {
  await page.clock.install();
  await setOrder(SET);
  await open(page);
  await page.getByRole('button', { name: 'Remove up/m2 from the set' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(order).toEqual(['up/m1', 'up/m3', `up/${LONG}`]);
  // The undo's save is held on its way while the page's clock runs past the few seconds the focus waits.
  let release = (): void => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/sets/default', async (route) => {
    await held;
    await route.continue();
  });
  const notice = page.getByRole('status').filter({ hasText: 'Removed up/m2 from the set.' });
  await notice.getByRole('button', { name: 'Undo' }).press('Enter');
  await page.clock.fastForward(10_000);
  release();
  await expect.poll(order).toEqual(SET);
  await expect(page.getByRole('button', { name: 'Remove up/m2 from the set' })).toBeFocused();
});

test('a long key wraps only at a slash, even at tray width', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await open(page);
  const parts = row(page, `up/${LONG}`).locator('.model-name .model-key-part');
  await expect(parts).toHaveText(['up/', 'minimaxai/', 'minimax-m2.7-extra-long-variant']);
  for (const part of await parts.all()) {
    const lines = await part.evaluate(
      (el) => new Set([...el.getClientRects()].map((rect) => Math.round(rect.top))).size,
    );
    expect(lines).toBe(1);
  }
  const width = await page.locator('html').evaluate((html) => html.scrollWidth);
  expect(width).toBeLessThanOrEqual(420);
});

test('a model’s history: success and latency over time with labelled axes, and its trips and trials', async ({
  page,
}) => {
  await setOrder(SET);
  for (let i = 0; i < 3; i++) await chat(daemon.url, 'fcm:@up/m2');
  upstream.script('m2', 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) await chat(daemon.url, 'fcm:@up/m2');
  await open(page);
  const m2 = row(page, 'up/m2');
  await m2.getByRole('button', { name: 'History of up/m2' }).click();
  const details = m2.locator('.model-details');
  await expect(
    details.getByRole('img', { name: /up\/m2 over the last hour: \d+ agent attempts/ }),
  ).toBeVisible();
  await expect(details.locator('.chart canvas').first()).toBeVisible();
  // uPlot draws the axis labels on the canvas; the chart names them for screen readers too.
  await expect(details.getByRole('img', { name: /\(axes: time; success %; latency\)$/ })).toBeVisible();
  await expect(details.getByRole('img', { name: /attempts in the last hour: 3 failed/ })).toBeVisible();
  await expect(details.getByRole('img', { name: /cooling down now/ })).toBeVisible();
  const events = details.getByRole('list', { name: 'Latest events of up/m2' }).getByRole('listitem');
  await expect(events.first()).toContainText('failed server_error');
  await expect(events.last()).toContainText('served');
  await page.getByRole('button', { name: 'Reset breaker of up/m2' }).click();
});

test('"Save as new set" over a set that exists asks first; replacing saves the order and switches agents to it', async ({
  page,
}) => {
  await setOrder(SET);
  const token = await tokenOf();
  const put = await fetch(`${daemon.url}/api/sets/fast`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-fcm-token': token },
    body: JSON.stringify({ models: ['up/m3'] }),
  });
  expect(put.status).toBe(200);
  await open(page);
  await page.getByLabel('New set name').fill('fast');
  await page.getByRole('button', { name: 'Save as new set' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Replace set fast' });
  await expect(ask).toContainText('A set named “fast” exists (1 model)');
  await expect(ask).toContainText('Agents’ fcm requests then go to “fast”');
  expect((await getJson<StateResponse>(daemon.url, '/api/state')).sets.fast).toEqual(['up/m3']);

  await ask.getByRole('button', { name: 'Replace “fast” and switch to it' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Active set' })).toHaveValue('fast');
  const state = await getJson<StateResponse>(daemon.url, '/api/state');
  expect(state.sets.fast).toEqual(SET);
  expect(state.activeSet).toBe('fast');

  await page.getByRole('combobox', { name: 'Active set' }).selectOption('default');
  await expect
    .poll(async () => (await getJson<StateResponse>(daemon.url, '/api/state')).activeSet)
    .toBe('default');
});

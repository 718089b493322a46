/**
 * Every button of a view has a name of its own, so a screen reader's list of buttons tells them apart: a
 * row's Test, Set up, Copy, Add key, Save probes or Save limits names the row's item. The options of a
 * segmented control are told apart by their group's name, and are left out.
 */
import { expect, test, type Page } from '@playwright/test';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { openView } from './helpers/views.js';

let daemon: Daemon;

test.beforeAll(async () => {
  daemon = await startDaemon({
    providers: {
      one: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k-one', models: ['m1', 'm2'] },
      two: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k-two', models: ['m3'] },
    },
    sets: { default: ['one/m1', 'one/m2', 'two/m3'] },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
});

/** The names that more than one button of the view has (every disclosure opened first). */
async function repeatedButtonNames(page: Page): Promise<string[]> {
  await page.evaluate(() => {
    for (const details of document.querySelectorAll('details')) details.open = true;
  });
  const snapshot = await page.locator('main').ariaSnapshot();
  const seen = new Map<string, number>();
  let groupIndent: number | null = null;
  for (const line of snapshot.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (groupIndent !== null && indent <= groupIndent) groupIndent = null;
    if (/^\s*- group\b/.test(line)) groupIndent ??= indent;
    const button = /^\s*- button "([^"]+)"/.exec(line);
    if (button?.[1] && groupIndent === null) seen.set(button[1], (seen.get(button[1]) ?? 0) + 1);
  }
  return [...seen].filter(([, count]) => count > 1).map(([name, count]) => `${name} ×${count}`);
}

for (const view of ['overview', 'models', 'providers', 'settings']) {
  test(`no two buttons of ${view} share a name`, async ({ page }) => {
    const errors = watchBrowserErrors(page);
    await openView(page, daemon.url, view);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Filled in from the router: the rows are there.
    if (view === 'models')
      await expect(page.getByRole('button', { name: /^Reset breaker of/ })).toHaveCount(3);
    if (view === 'overview') await expect(page.locator('.setup-agents li').first()).toBeVisible();
    if (view === 'providers')
      await expect(page.getByRole('listitem', { name: 'one', exact: true })).toBeVisible();
    expect(await repeatedButtonNames(page)).toEqual([]);
    expect(errors()).toEqual([]);
  });
}

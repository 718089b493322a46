/**
 * Every view, populated under the catalogue's longest names (`nvidia/nvidia/nemotron-3-nano-omni-30b-a3b-reasoning`),
 * at desktop, tray-popover and phone widths (360 px, and the narrowest phones' 320), in the light and the
 * dark scheme: nothing scrolls sideways, no control is out of reach, no long name runs over its neighbour,
 * nothing complains, and a screenshot of each is left for review in test-results/views/ (ignored; see
 * viewsDir).
 */
import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import type { Daemon } from './helpers/daemon.js';
import type { FakeUpstream } from './helpers/fake-upstream.js';
import { namesBrokenInside, namesOverlapping, outOfBounds, sidewaysScroll } from './helpers/layout-checks.js';
import { LONG_KEYS, startLongNamesDemo } from './helpers/long-names-demo.js';
import { viewsDir } from './helpers/screenshots.js';
import { openView } from './helpers/views.js';

const VIEWS = ['overview', 'models', 'requests', 'usage', 'providers', 'settings'] as const;
/** Something each view shows once its data is in. */
const FILLED: Record<(typeof VIEWS)[number], string> = {
  overview: '.failing-list li',
  models: '.model-key',
  requests: '.request-row',
  usage: '.speed-table .model-name',
  providers: '.key-budget',
  settings: '.cm-content',
};
/** What a user must be able to reach at every width. */
const CONTROLS = 'button, a[href], input, select, textarea, summary';
/** Names that may break only after a `/`: models everywhere, agents in Requests. */
const NAMES = '.model-key, .req-client > span:not(.tag), .budget-model, .speed-table .model-name';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  ({ upstream, daemon } = await startLongNamesDemo());
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

/**
 * The speed table shows every column without scrolling inside its box, each model's name above (or
 * beside) its own figures.
 */
function speedTableFits(page: Page): Promise<boolean> {
  return page.locator('.speed-table').evaluate((table) => {
    const wrap = table.parentElement;
    if (wrap === null || wrap.scrollWidth > wrap.clientWidth) return false;
    return [...table.querySelectorAll('tbody tr')].every((row) => {
      const name = row.querySelector('th')?.getBoundingClientRect();
      const figure = row.querySelector('td')?.getBoundingClientRect();
      return name !== undefined && figure !== undefined && name.top <= figure.top + 1;
    });
  });
}

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 420, 360, 320]) {
    test(`every view at ${width} px, ${scheme}`, async ({ page }) => {
      const errors = watchBrowserErrors(page);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      for (const view of VIEWS) {
        await openView(page, daemon.url, view);
        await expect(page.locator('.panel').first()).toBeVisible();
        await expect(page.locator(FILLED[view]).first()).toBeVisible();
        if (view === 'models') {
          await page.getByRole('button', { name: `History of ${LONG_KEYS.cloudflare}` }).click();
          await expect(page.locator('.model-details canvas').first()).toBeVisible();
        }
        if (view === 'requests') {
          await page
            .locator('.request-row')
            .filter({ hasText: 'served after failover' })
            .first()
            .getByRole('button')
            .click();
        }
        expect.soft(await sidewaysScroll(page), `${view} scrolls sideways at ${width} px`).toBe(0);
        expect.soft(await outOfBounds(page, CONTROLS), `${view}'s controls at ${width} px`).toEqual([]);
        expect
          .soft(await outOfBounds(page, '.failure-code'), `${view}'s failure codes at ${width} px`)
          .toEqual([]);
        if (view === 'usage')
          expect.soft(await speedTableFits(page), `speed table at ${width} px`).toBe(true);
        expect.soft(await namesOverlapping(page), `${view} at ${width} px`).toEqual([]);
        expect.soft(await namesBrokenInside(page, NAMES), `${view} at ${width} px`).toEqual([]);
        await page.screenshot({
          path: path.join(viewsDir(), `${view}-${width}-${scheme}.png`),
          fullPage: true,
        });
      }
      expect(errors()).toEqual([]);
    });
  }
}

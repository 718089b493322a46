import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/helpers/chromium.js';

// Playwright evaluates this file in the runner and again in each worker; the runner says which Chromium.
const browser = await findChromium(process.env, { quiet: process.env.TEST_WORKER_INDEX !== undefined });

/**
 * Browser tests of the dashboard against a real daemon over fake upstreams, in whichever Chromium
 * `findChromium` picks: `CHROMIUM_PATH`, the system's, Playwright's own download, or the one inside the
 * `@sparticuz/chromium` package, so that `npm install` is all the suite needs.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/helpers/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: browser.path,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});

/**
 * What a dashboard test says against a real daemon: the provider's own status when it answered (not the
 * router's 502), the failure in words when it never answered, and nothing of a key once it is removed.
 */
import { keyFingerprint } from '../router/state/key-fingerprint.js';
import { expect, test, type Page } from '@playwright/test';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

const KEY = 'sk-e2e-added';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  daemon = await startDaemon({
    providers: {
      up: { name: 'Fake upstream', baseUrl: upstream.baseUrl, apiKey: 'k', models: ['m1'] },
      // Nothing listens on port 9: every request to it is a network error.
      gone: { name: 'Gone', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', models: ['g1'] },
      // A catalogue provider, here without a key: the test adds one.
      groq: { baseUrl: upstream.baseUrl, models: ['k1'] },
    },
    sets: { default: ['up/m1', 'gone/g1', 'groq/k1'] },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

failOnBrowserErrors([PROVOKED_STATUSES]);

const open = (page: Page, view: string): Promise<void> => openView(page, daemon.url, view);

const row = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true });

test('a model whose provider answered 500 shows that status, not the router’s 502', async ({ page }) => {
  await open(page, 'models');
  upstream.script('m1', 'error-500');
  await row(page, 'up/m1').getByRole('button', { name: 'Test', exact: true }).click();
  const result = row(page, 'up/m1').locator('.test-result');
  await expect(result).toContainText('server_error');
  await expect(result).toContainText('HTTP 500 from the provider');
  await expect(result).not.toContainText('502');
});

test('a model whose provider never answered shows the failure in words and no HTTP status', async ({
  page,
}) => {
  await open(page, 'models');
  await row(page, 'gone/g1').getByRole('button', { name: 'Test', exact: true }).click();
  const result = row(page, 'gone/g1').locator('.test-result');
  await expect(result).toContainText('network_error');
  await expect(result).toContainText('connection refused, reset or DNS failure');
  await expect(result).not.toContainText('HTTP');
});

test('a key added, tested and removed leaves neither its "added as" nor its test result', async ({
  page,
}) => {
  await open(page, 'providers');
  const provider = row(page, 'Groq');
  await expect(provider).toContainText('key missing');
  await provider.getByLabel('API key for Groq').fill(KEY);
  await provider.getByRole('button', { name: 'Add key' }).click();
  await expect(provider.getByRole('status').filter({ hasText: 'added as' })).toContainText(
    keyFingerprint(KEY),
  );

  upstream.script('k1', 'error-500');
  await provider.getByRole('button', { name: 'Test Groq key' }).click();
  await expect(provider.locator('.test-result')).toContainText('HTTP 500 from the provider');

  await provider.getByRole('button', { name: `Remove key ${keyFingerprint(KEY)} of Groq` }).click();
  await expect(provider).toContainText(`Removed key ${keyFingerprint(KEY)}`);
  await expect(provider).toContainText('key missing');
  await expect(provider).not.toContainText('added as');
  await expect(provider.locator('.test-result')).toHaveCount(0);
});

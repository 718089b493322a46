/**
 * What a dashboard test says against a real daemon: the provider's own status when it answered (not the
 * router's 502), the failure in words when it never answered, nothing of a key once it is removed, and a
 * test of each key on its own.
 */
import { keyFingerprint } from '../router/state/key-fingerprint.js';
import { expect, test, type Page } from '@playwright/test';
import { failOnBrowserErrors, PROVOKED_STATUSES } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { openView } from './helpers/views.js';

const KEY = 'sk-e2e-added';
const WRONG = 'sk-e2e-wrong';

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
  await row(page, 'up/m1').getByRole('button', { name: 'Test up/m1', exact: true }).click();
  const result = row(page, 'up/m1').locator('.test-result');
  await expect(result).toContainText('server_error');
  await expect(result).toContainText('HTTP 500 from the provider');
  await expect(result).not.toContainText('502');
});

test('a model whose provider never answered shows the failure in words and no HTTP status', async ({
  page,
}) => {
  await open(page, 'models');
  await row(page, 'gone/g1').getByRole('button', { name: 'Test gone/g1', exact: true }).click();
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
  await provider.getByRole('button', { name: `Test key ${keyFingerprint(KEY)} of Groq` }).click();
  await expect(provider.locator('.test-result')).toContainText('HTTP 500 from the provider');

  await provider.getByRole('button', { name: `Remove key ${keyFingerprint(KEY)} of Groq` }).click();
  await expect(provider).toContainText(`Removed key ${keyFingerprint(KEY)}`);
  await expect(provider).toContainText('key missing');
  await expect(provider).not.toContainText('added as');
  await expect(provider.locator('.test-result')).toHaveCount(0);
});

test('each key is tested alone: a wrong key added after a good one fails, and each result names its key', async ({
  page,
}) => {
  await open(page, 'providers');
  const provider = row(page, 'Fake upstream');
  upstream.refuseKey(WRONG);
  await provider.getByLabel('API key for Fake upstream').fill(WRONG);
  await provider.getByRole('button', { name: 'Add key' }).click();
  const wrong = keyFingerprint(WRONG);
  const keys = provider.getByRole('list', { name: 'Fake upstream keys' });
  await expect(keys).toContainText(wrong);

  const sent = upstream.keysUsed.length;
  await provider.getByRole('button', { name: `Test key ${wrong} of Fake upstream` }).click();
  const wrongResult = keys.getByRole('listitem').filter({ hasText: wrong }).locator('.test-result');
  await expect(wrongResult).toContainText('HTTP 401 from the provider');
  await expect(wrongResult).toContainText(`with key ${wrong}`);
  expect(upstream.keysUsed.slice(sent)).toEqual([WRONG]);

  const good = keyFingerprint('k');
  await provider.getByRole('button', { name: `Test key ${good} of Fake upstream` }).click();
  const goodResult = keys.getByRole('listitem').filter({ hasText: good }).locator('.test-result');
  await expect(goodResult).toContainText('test passed');
  await expect(goodResult).toContainText(`with key ${good}`);
  expect(upstream.keysUsed.slice(sent)).toEqual([WRONG, 'k']);

  await provider.getByRole('button', { name: `Remove key ${wrong} of Fake upstream` }).click();
  await expect(keys).not.toContainText(wrong);
});

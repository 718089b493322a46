/**
 * A provider's base URL that holds a query, a fragment or a user name and password is refused wherever a
 * config is saved (the Providers view's Add provider, a whole config, the editor's check), at its path,
 * in words that say where a key belongs and never quote the URL; nothing is saved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { ConfigCheckResponse, ConfigIssue, ConfigResponse, ErrorResponse } from '../api-types.js';
import type { ConfigInput } from '../config/schema.js';
import { parseReply, type HttpReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

const ONE = { providers: { alpha: ['m1'] } };
const SECRET = 's3cret-canary-71c2';
const BAD_URLS = [
  `https://user:${SECRET}@api.example/v1`,
  `https://api.example/v1?key=${SECRET}`,
  `https://api.example/v1#${SECRET}`,
];

function issuesOf(reply: HttpReply): ConfigIssue[] {
  return parseReply<ErrorResponse>(reply).error.issues ?? [];
}

/** The one issue at `providers.<id>.baseUrl`, checked to name nothing of the URL. */
function baseUrlIssue(issues: readonly ConfigIssue[], id: string, reply: HttpReply): string {
  const found = issues.filter((issue) => issue.path === `providers.${id}.baseUrl`);
  assert.equal(found.length, 1, reply.text);
  assert.ok(!reply.text.includes(SECRET) && !reply.text.includes('api.example'), reply.text);
  return found[0]?.message ?? '';
}

test('Add provider with such a base URL is refused at its field, saying where a key belongs', async () => {
  await withScenario(ONE, async ({ router }) => {
    const before = await readFile(router.router.configPath, 'utf8');
    for (const baseUrl of BAD_URLS) {
      const added = await router.api('POST', '/api/providers/add', {
        id: 'mine',
        baseUrl,
        apiKeys: ['sk-a'],
        models: ['m1'],
      });
      assert.equal(added.status, 400, added.text);
      const message = baseUrlIssue(issuesOf(added), 'mine', added);
      assert.match(message, /^must not hold (a user name or password|a query|a fragment)/);
      if (!baseUrl.includes('#')) assert.match(message, /a key belongs in apiKey.*or in headers/);
    }
    assert.equal(await readFile(router.router.configPath, 'utf8'), before, 'nothing saved');
  });
});

test('a whole config with such a base URL is refused by the check and the save, and nothing is saved', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a'));
    const file = router.router.configPath;
    const before = await readFile(file, 'utf8');
    const shown = parseReply<ConfigResponse>(await router.get('/api/config')).config;
    for (const baseUrl of BAD_URLS) {
      const alpha = { ...shown.providers?.alpha, baseUrl };
      const next: ConfigInput = { ...shown, providers: { ...shown.providers, alpha } };
      const checked = await router.api('POST', '/api/config/check', next);
      const verdict = parseReply<ConfigCheckResponse>(checked);
      assert.equal(verdict.valid, false, checked.text);
      assert.match(baseUrlIssue(verdict.issues, 'alpha', checked), /^must not hold/);
      const saved = await router.api('PUT', '/api/config', next);
      assert.equal(saved.status, 400, saved.text);
      assert.match(baseUrlIssue(issuesOf(saved), 'alpha', saved), /^must not hold/);
    }
    assert.equal(await readFile(file, 'utf8'), before, 'nothing saved');
    assert.equal((await router.chat()).status, 200, 'routing as before');
  });
});

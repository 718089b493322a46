/**
 * `POST /api/config/check`: the editor's validation as a save would judge the config, masked keys counted
 * as stored, in plain words by JSON path; the file is never written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { ConfigCheckResponse, ConfigResponse } from '../api-types.js';
import type { ConfigInput } from '../config/schema.js';
import { parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';

test('a config is checked as a save would judge it, saving nothing', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router }) => {
    const file = router.router.configPath;
    const before = await readFile(file, 'utf8');
    const shown = parseReply<ConfigResponse>(await router.get('/api/config'));
    const check = async (config: unknown) =>
      parseReply<ConfigCheckResponse>(await router.api('POST', '/api/config/check', config));

    // As shown (the key masked), the config is valid: the masked key counts as the stored one.
    assert.deepEqual(await check(shown.config), { valid: true, issues: [], keysDropped: [] });

    // Sent to another address with its key masked: valid, but the save would drop the key, and says so.
    const alpha = shown.config.providers?.['alpha'];
    const moved = { ...shown.config, providers: { alpha: { ...alpha, baseUrl: 'http://127.0.0.1:9/v1' } } };
    assert.deepEqual(await check(moved), { valid: true, issues: [], keysDropped: ['alpha'] });

    const bad: ConfigInput = {
      ...shown.config,
      router: { ...shown.config.router, failover: { maxAttempts: 99, lastResortModel: 'nope/x' } },
    };
    const withUnknown = { ...bad, colour: 'blue' };
    const answer = await check(withUnknown);
    assert.equal(answer.valid, false);
    const byPath = Object.fromEntries(answer.issues.map((issue) => [issue.path, issue.message]));
    assert.equal(byPath.colour, 'unknown key');
    assert.match(byPath['router.failover.maxAttempts'] ?? '', /20/);
    for (const issue of answer.issues) assert.doesNotMatch(issue.message, /^(Expected|Invalid|Required)/);

    assert.deepEqual(await check([1, 2]), {
      valid: false,
      issues: [{ path: '(root)', message: 'must be a JSON object' }],
      keysDropped: [],
    });
    assert.equal(await readFile(file, 'utf8'), before, 'a check writes nothing');
    const after = parseReply<ConfigResponse>(await router.get('/api/config'));
    assert.equal(after.revision, shown.revision);
  });
});

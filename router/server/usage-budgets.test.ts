/**
 * `GET /api/usage` budgets: each key's use of its day budgets, from the counts ranking checks, one row per
 * budget (per key for a provider that counts per key), by fingerprint only, most used first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UsageResponse } from '../api-types.js';
import { NO_LIMITS } from '../catalogue/free-tier-limits.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

test('each key’s day budgets against their limits, per key where the provider counts per key', async () => {
  const scenario = {
    providers: { alpha: ['m1', 'm2'], mistral: ['x', 'y'], beta: ['m3'] },
    providerSettings: {
      alpha: { limits: { rpd: 4, tpd: 100 }, apiKeys: ['sk-alpha-second'] },
      mistral: { limits: { rpd: 10, tpd: null, rpm: null, tpm: null } },
    },
  };
  await withScenario(scenario, async ({ router, upstream }) => {
    for (const model of ['alpha/m1', 'mistral/x', 'mistral/y', 'beta/m3']) upstream.always(model, json('ok'));
    for (const model of ['alpha/m1', 'alpha/m1', 'mistral/x', 'mistral/y', 'beta/m3'])
      assert.equal((await router.chat({ model: `fcm:@${model}` })).status, 200);

    const usage = parseReply<UsageResponse>(await router.get('/api/usage'));
    const first = keyFingerprint('sk-test-alpha');
    const second = keyFingerprint('sk-alpha-second');
    const mistral = keyFingerprint('sk-test-mistral');
    const day = { dayRequests: 2, dayTokens: 16, minuteRequests: 2, minuteTokens: 16 };
    assert.deepEqual(usage.budgets.slice(0, 2), [
      {
        provider: 'alpha',
        key: first,
        model: 'alpha/m1',
        ...day,
        limits: { ...NO_LIMITS, rpd: 4, tpd: 100 },
      },
      { provider: 'mistral', key: mistral, model: null, ...day, limits: { ...NO_LIMITS, rpd: 10 } },
    ]);
    const rest = usage.budgets.slice(2).map((row) => `${row.model} ${row.key} ${row.dayRequests}`);
    assert.deepEqual(
      rest.sort(),
      [`alpha/m1 ${second} 0`, `alpha/m2 ${first} 0`, `alpha/m2 ${second} 0`].sort(),
    );
    assert.ok(!usage.budgets.some((row) => row.provider === 'beta'), 'no day limit, no bar');
    assert.ok(!JSON.stringify(usage).includes('sk-'), 'keys by fingerprint only');
  });
});

/**
 * "Today" is the user's day on every view: the day counters and the token usage both count the local
 * calendar day. This file runs in a time zone 14 hours ahead of UTC, where noon UTC is already tomorrow.
 */
process.env.TZ = 'Pacific/Kiritimati';

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryResponse, UsageResponse } from '../../api-types.js';
import { startFakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness } from '../../test-support/router-harness.js';
import { scenarioConfig } from '../../test-support/scenario.js';
import { TestClock } from '../../test-support/test-clock.js';
import { json } from '../../test-support/upstream-behaviours.js';

test('token usage counts the local day, as the day counters do', async () => {
  const upstream = await startFakeUpstream();
  // 2030-01-15 12:00 UTC is 2030-01-16 02:00 in Kiritimati.
  const router = await startHarness({
    config: scenarioConfig(upstream, { providers: { alpha: ['m1'] } }),
    clock: new TestClock(),
  });
  try {
    upstream.always('alpha/m1', json('alpha'));
    await router.chat();
    const usage = JSON.parse((await router.api('GET', '/api/usage')).text) as UsageResponse;
    assert.deepEqual(
      usage.days.map((day) => day.day),
      ['2030-01-16'],
    );
    assert.equal(usage.today[0]?.tokens, 8);
    const history = JSON.parse((await router.api('GET', '/api/history')).text) as HistoryResponse;
    assert.equal(history.stats.today.promptTokens + history.stats.today.completionTokens, 8);
  } finally {
    await router.close();
    await upstream.close();
  }
});

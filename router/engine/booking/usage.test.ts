import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UsageResponse } from '../../api-types.js';
import { localDayKey } from '../../state/daily-counters.js';
import { keyFingerprint } from '../../state/key-fingerprint.js';
import { startFakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig } from '../../test-support/scenario.js';
import { TestClock } from '../../test-support/test-clock.js';
import { json, jsonBody } from '../../test-support/upstream-behaviours.js';
import { completion } from '../../test-support/upstream-frames.js';

async function usage(router: RouterHarness): Promise<UsageResponse> {
  const reply = await router.api('GET', '/api/usage');
  assert.equal(reply.status, 200);
  return JSON.parse(reply.text) as UsageResponse;
}

test('usage per model, key and day: reported tokens, or an estimate marked as one; kept across a restart', async () => {
  const upstream = await startFakeUpstream();
  const clock = new TestClock();
  const config = scenarioConfig(upstream, { providers: { alpha: ['m1'], beta: ['m2'] } });
  const alpha = config.providers?.['alpha'];
  assert.ok(alpha);
  config.providers = { ...config.providers, alpha: { ...alpha, limits: { rpd: 4 } } };
  const first = await startHarness({ config, clock });
  let second: RouterHarness | null = null;
  try {
    // alpha reports its usage (5 + 3); beta reports none.
    upstream.always('alpha/m1', json('alpha'));
    upstream.always('beta/m2', jsonBody(completion('beta', { usage: undefined })));
    await first.chat();
    assert.deepEqual(first.lastEntry().usage, { promptTokens: 5, completionTokens: 3 });
    await first.chat({ model: 'fcm:@beta/m2' });
    const estimated = first.lastEntry().usage;
    assert.equal(estimated?.estimated, true);
    assert.ok((estimated?.promptTokens ?? 0) > 0, 'the prompt is estimated from its length');

    const report = await usage(first);
    assert.equal(report.days.length, 1);
    // The user's own day: the test clock's moment in the machine's time zone.
    assert.equal(report.days[0]?.day, localDayKey(clock.now()));
    const alphaEntry = report.days[0]?.entries.find((entry) => entry.model === 'alpha/m1');
    assert.deepEqual(alphaEntry, {
      model: 'alpha/m1',
      key: keyFingerprint('sk-test-alpha'),
      requests: 1,
      promptTokens: 5,
      completionTokens: 3,
      estimatedTokens: 0,
    });
    const today = Object.fromEntries(report.today.map((row) => [row.model, row]));
    assert.deepEqual(today['alpha/m1'], {
      model: 'alpha/m1',
      requests: 1,
      tokens: 8,
      estimatedTokens: 0,
      budgetShare: 0.25,
    });
    assert.equal(today['beta/m2']?.budgetShare, null);
    assert.equal(today['beta/m2']?.estimatedTokens, today['beta/m2']?.tokens);

    await first.stop();
    second = await startHarness({ config, clock, dir: first.dir });
    const again = await usage(second);
    assert.deepEqual(again.days, report.days);
    assert.ok(!JSON.stringify(again).includes('sk-test'), 'keys only by fingerprint');
  } finally {
    await (second ?? first).close();
    await upstream.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HistoryResponse } from '../api-types.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { parseReply } from '../test-support/http-client.js';
import { startHarness } from '../test-support/router-harness.js';
import { scenarioConfig } from '../test-support/scenario.js';
import { TestClock } from '../test-support/test-clock.js';
import { jsonBody, status } from '../test-support/upstream-behaviours.js';
import { completion } from '../test-support/upstream-frames.js';

const REQUESTS = 540;

test('today’s counters count every request past the 500 the history keeps, refusals apart, and survive a restart', async () => {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-it-'));
  let stopFirst = async (): Promise<void> => undefined;
  try {
    const config = scenarioConfig(upstream, { providers: { alpha: ['m1'], beta: ['m2'] } });
    const clock = new TestClock();
    upstream
      .always('alpha/m1', jsonBody(completion('a', { usage: { prompt_tokens: 7, completion_tokens: 3 } })))
      .always('beta/m2', jsonBody(completion('b', { usage: { prompt_tokens: 100, completion_tokens: 1 } })));
    const first = await startHarness({ config, dir, clock });
    stopFirst = () => first.stop();
    for (let i = 0; i < REQUESTS; i++) assert.equal((await first.chat()).status, 200);
    upstream.script('alpha/m1', status(500), status(500));
    await first.chat();
    await first.chat({ model: 'fcm:@alpha/m1' });
    // Refusals: three while paused, one for a set that does not exist.
    assert.equal((await first.api('POST', '/api/pause', { paused: true })).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await first.chat()).status, 503);
    assert.equal((await first.api('POST', '/api/pause', { paused: false })).status, 200);
    assert.equal((await first.chat({ model: 'fcm:no-such-set' })).status, 404);

    const history = parseReply<HistoryResponse>(await first.get('/api/history?limit=1'));
    assert.equal(history.stats.retained, 500);
    const counted = {
      servedFirstTry: REQUESTS,
      servedAfterFailover: 1,
      failed: 1,
      refused: 4,
      promptTokens: 7 * REQUESTS + 100,
      completionTokens: 3 * REQUESTS + 1,
    };
    assert.deepEqual(history.stats.today, counted);
    await first.stop();

    const second = await startHarness({ config, dir, clock });
    try {
      const again = second.router.history(1).stats;
      assert.deepEqual(again.today, counted);
      clock.advance(24 * 3600_000);
      assert.deepEqual(second.router.history(1).stats.today, {
        servedFirstTry: 0,
        servedAfterFailover: 0,
        failed: 0,
        refused: 0,
        promptTokens: 0,
        completionTokens: 0,
      });
    } finally {
      await second.stop();
    }
  } finally {
    await stopFirst();
    await rm(dir, { recursive: true, force: true });
    await upstream.close();
  }
});

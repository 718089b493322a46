/**
 * A process held up past an attempt's deadline (a long synchronous step, a loaded or sleeping machine) while
 * the answer sat unread in its socket: the answer counts, and the model is not blamed for the router's own
 * stall. Real time and Node's real event loop here, since what is tested is the order in which Node runs
 * due timers and reads sockets; the stall ends only once the deadline is well past, so nothing rests on a
 * margin of wall-clock time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRouter } from '../daemon/start-router.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest } from '../test-support/http-client.js';
import { scenarioConfig } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';
import { LATE_FIRING_MS } from './deadline-watch.js';

/** The shortest attempt timeout a config may set. */
const TIMEOUT_MS = 500;

/** Holds the whole process (router included) until the clock is past `until`. */
function stallUntil(until: number): void {
  while (Date.now() <= until) {
    // busy: no timer, no socket is served meanwhile
  }
}

test('an answer that arrived during a stall past its deadline is served by its model, not timed out', async () => {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-stall-'));
  const configPath = path.join(dir, 'config.json');
  const config = scenarioConfig(upstream, {
    providers: { p: ['a', 'b'] },
    failover: { requestTimeoutMs: TIMEOUT_MS },
  });
  await writeFile(configPath, JSON.stringify(config));
  const router = await startRouter({ port: 0, stateDir: path.join(dir, 'state'), configPath, env: {} }).catch(
    async (error: unknown) => {
      await upstream.close();
      throw error;
    },
  );
  try {
    upstream.script('p/a', (res, call) => {
      // The attempt's deadline started before this call arrived: by the end of the stall it is past by more
      // than a late timer's ordinary slack.
      const arrived = Date.now();
      json('in time')(res, call);
      stallUntil(arrived + TIMEOUT_MS + LATE_FIRING_MS + 1);
    });
    upstream.always('p/b', json('the next model'));
    const reply = await httpRequest(`${router.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(reply.status, 200);
    assert.match(reply.text, /in time/);
    const entry = router.history(1).entries[0];
    assert.equal(entry?.servedModel, 'p/a');
    assert.deepEqual(
      entry?.attempts.map((attempt) => [attempt.model, attempt.kind]),
      [['p/a', null]],
    );
  } finally {
    await router.stop();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  }
});

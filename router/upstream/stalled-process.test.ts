/**
 * The router's process held up past an attempt's deadline (a laptop's sleep, a long stall) while the answer
 * sat unread in its socket: the answer counts, and the model is not blamed for the router's pause. Node's
 * real event loop here, since what is tested is the order in which it runs due timers and reads sockets; the
 * pause is the clock jumping forward, as it does when a machine wakes, so nothing waits on the wall clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRouter } from '../daemon/start-router.js';
import type { Time, TimerHandle } from '../state/clock.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest } from '../test-support/http-client.js';
import { scenarioConfig } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

interface PendingTimer {
  due: number;
  callback: () => void;
  node: NodeJS.Timeout;
}

/**
 * Node's timers on a clock that can jump forward (a machine waking): after `jump`, every timer due by then
 * fires at the loop's next timers phase, late, as Node's own would after the process was held up.
 */
class JumpingTime implements Time {
  #skew = 0;
  #nextId = 1;
  readonly #timers = new Map<number, PendingTimer>();

  readonly now = (): number => Date.now() + this.#skew;

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.#nextId++;
    this.#schedule(id, this.now() + Math.max(0, ms), callback);
    return id as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle | null): void {
    const timer = this.#timers.get(handle as unknown as number);
    if (timer) clearTimeout(timer.node);
    this.#timers.delete(handle as unknown as number);
  }

  setInterval(): TimerHandle {
    throw new Error('no interval in this test');
  }

  clearInterval(handle: TimerHandle | null): void {
    this.clearTimeout(handle);
  }

  /** Moves the clock `ms` forward at once; the timers now due fire at the next timers phase. */
  jump(ms: number): void {
    this.#skew += ms;
    for (const [id, timer] of this.#timers) {
      clearTimeout(timer.node);
      this.#schedule(id, timer.due, timer.callback);
    }
    // Waking takes a moment: long enough for Node's millisecond timers just set to be due at its next pass.
    const awake = performance.now() + 3;
    while (performance.now() < awake);
  }

  #schedule(id: number, due: number, callback: () => void): void {
    const node = setTimeout(
      () => {
        this.#timers.delete(id);
        callback();
      },
      Math.max(0, due - this.now()),
    ).unref();
    this.#timers.set(id, { due, callback, node });
  }
}

test('an answer that arrived before a pause past its deadline is served by its model, not timed out', async () => {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-stall-'));
  const configPath = path.join(dir, 'config.json');
  const config = scenarioConfig(upstream, {
    providers: { p: ['a', 'b'] },
    failover: { requestTimeoutMs: 500, totalBudgetMs: 120_000 },
  });
  await writeFile(configPath, JSON.stringify(config));
  const time = new JumpingTime();
  const router = await startRouter({
    port: 0,
    stateDir: path.join(dir, 'state'),
    configPath,
    env: {},
    time,
    probeTickMs: 0,
    discoveryTickMs: 0,
  }).catch(async (error: unknown) => {
    await upstream.close();
    throw error;
  });
  try {
    upstream.script('p/a', (res, call) => {
      json('in time')(res, call);
      // The machine sleeps right after the answer is sent: on waking, the attempt's deadline is long past.
      time.jump(60_000);
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

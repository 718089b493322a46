/**
 * A chat-completions stream that ends cleanly ends with one `data: [DONE]`: an upstream that sent its finish
 * reason and then closed, or fell quiet until the idle limit ended the stream, has the router write the
 * `[DONE]` it left out. (The upstream's own goes out once, `done-ends-stream.test.ts`; a stream cut on the
 * way ends with the router's error frame and no `[DONE]`, `stream-hold.test.ts`.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ioTurns } from '../../test-support/deferred.js';
import type { HttpReply } from '../../test-support/http-client.js';
import { withScenario } from '../../test-support/scenario.js';
import { sse } from '../../test-support/upstream-behaviours.js';
import { contentFrame, finishFrame, roleFrame, usageFrame } from '../../test-support/upstream-frames.js';

const IDLE_MS = 500;
const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, failover: { streamIdleTimeoutMs: IDLE_MS } };
const ANSWER = [roleFrame(), contentFrame('Hello'), finishFrame('stop'), usageFrame(1, 2)];

/** The `data:` lines of a reply, in order. */
const dataLines = (reply: HttpReply): string[] =>
  reply.text.split('\n').filter((line) => line.startsWith('data: '));

/** How many `data: [DONE]` lines the reply holds, and whether the last data line is one. */
function doneLines(reply: HttpReply): { count: number; last: boolean } {
  const lines = dataLines(reply);
  return {
    count: lines.filter((line) => line === 'data: [DONE]').length,
    last: lines.at(-1) === 'data: [DONE]',
  };
}

test('the finish reason, then the upstream closes without [DONE]: the client gets one [DONE] at the end', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sse(ANSWER, { done: false }));
    const reply = await router.chat({ stream: true });
    assert.deepEqual(doneLines(reply), { count: 1, last: true });
    assert.equal(router.lastEntry().outcome, 'served');
  });
});

test('the finish reason, then silence until the idle limit: the client gets one [DONE] at the end', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sse([...ANSWER, ': ping\n\n'], { then: 'stall' }));
    const reading = router.readChat({ stream: true });
    // The whole answer reached the client: only then does the idle limit pass.
    await reading.received('"usage"');
    await ioTurns();
    router.clock.advance(IDLE_MS);
    const reply = await reading.done;
    assert.deepEqual(doneLines(reply), { count: 1, last: true });
    assert.equal(router.lastEntry().outcome, 'served');
  });
});

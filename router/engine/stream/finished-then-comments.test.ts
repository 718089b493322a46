/**
 * An upstream that sent its finish reason and then only SSE comments, never `[DONE]` and never closing: the
 * comments are no progress, so the answer ends once the idle limit passes with nothing else, as at a clean
 * close (served, no model blamed), on every face. Before the finish reason, comments keep the stream alive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, ioTurns, type Deferred } from '../../test-support/deferred.js';
import { askFace, FACES } from '../../test-support/face-answers.js';
import type { HttpReply } from '../../test-support/http-client.js';
import type { TestClock } from '../../test-support/test-clock.js';
import { withScenario } from '../../test-support/scenario.js';
import { sse } from '../../test-support/upstream-behaviours.js';
import { contentFrame, finishFrame, roleFrame, usageFrame } from '../../test-support/upstream-frames.js';

const IDLE_MS = 500;
const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, failover: { streamIdleTimeoutMs: IDLE_MS } };
const PINGS = 8;

/** `count` gates, each letting one `: ping` go when opened. */
function pings(count: number): { gates: Deferred<void>[]; frames: (Promise<void> | string)[] } {
  const gates = Array.from({ length: count }, () => deferred());
  return { gates, frames: gates.flatMap((gate) => [gate.promise, ': ping\n\n']) };
}

/**
 * Moves the router's clock on by `stepMs`, then lets one ping go, for as long as gates remain and the reply
 * is still open: the pings come well within the idle limit of each other. Resolves with the reply, or null
 * if it was still open after the last ping.
 */
async function pingingWhile(
  clock: TestClock,
  gates: readonly Deferred<void>[],
  reply: Promise<HttpReply>,
): Promise<HttpReply | null> {
  let got: HttpReply | null = null;
  // A reply still open when the test ends is cut by the router's close: that is no error of its own.
  reply.then(
    (value) => (got = value),
    () => undefined,
  );
  for (const gate of gates) {
    await ioTurns();
    if (got !== null) break;
    clock.advance(IDLE_MS * 0.6);
    gate.resolve();
  }
  await ioTurns();
  return got;
}

for (const face of FACES) {
  test(`${face.face}: the finish reason, then comments for ever: the answer ends at the idle limit, served`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      const { gates, frames } = pings(PINGS);
      const answer = [roleFrame(), contentFrame('Hello'), finishFrame('stop'), usageFrame(1, 2)];
      upstream.script('alpha/m1', sse([...answer, ...frames], { then: 'stall' }));
      const asked = askFace(router.url, face, face.body(true, 'Say hello.'));
      await upstream.nextCall('alpha/m1');
      const reply = await pingingWhile(router.clock, gates, asked);
      assert.ok(reply !== null, 'the answer ended while the pings went on');
      const read = face.read(reply.text);
      assert.deepEqual([read.text, read.ending, read.afterEnding], ['Hello', 'clean', 0]);
      const entry = router.lastEntry();
      assert.deepEqual(
        [entry.outcome, entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`)],
        ['served', ['alpha/m1:ok']],
      );
      assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
      assert.equal(upstream.callsTo('beta/m2').length, 0);
    });
  });
}

test('before the finish reason, comments keep a stream alive past the idle limit', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const { gates, frames } = pings(4);
    const rest = deferred();
    upstream.script(
      'alpha/m1',
      sse([
        roleFrame(),
        contentFrame('Hel'),
        ...frames,
        rest.promise,
        contentFrame('lo'),
        finishFrame('stop'),
      ]),
    );
    const asked = router.chat({ stream: true });
    await upstream.nextCall('alpha/m1');
    assert.equal(await pingingWhile(router.clock, gates, asked), null, 'the stream is still open');
    rest.resolve();
    const read = FACES[0]?.read((await asked).text);
    assert.deepEqual([read?.text, read?.ending], ['Hello', 'clean']);
    assert.deepEqual(
      router.lastEntry().attempts.map((a) => a.kind ?? 'ok'),
      ['ok'],
    );
  });
});

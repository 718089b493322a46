/**
 * An answer that opens with a tool call is held until the call is whole, and nothing reaches the client
 * meanwhile; yet its stream passed the gate with the call's first piece, so the request's budget stops
 * there and only the idle limit applies: a model writing a long file through a tool call steadily is not
 * cut at `totalBudgetMs`, on any face, and an unusable call is still judged as such when it ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, ioTurns, within } from '../../test-support/deferred.js';
import { askFace, FACES } from '../../test-support/face-answers.js';
import { withScenario } from '../../test-support/scenario.js';
import { sse, sseContent, type Behaviour, type Frame } from '../../test-support/upstream-behaviours.js';
import { finishFrame, roleFrame, toolCallFrame } from '../../test-support/upstream-frames.js';

/** Pieces every 4 s for 16 s: well inside the idle limit, past the budget. */
const FAILOVER = { streamIdleTimeoutMs: 5000, totalBudgetMs: 10_000, requestTimeoutMs: 5000 };
const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, failover: FAILOVER };
const LINE = 'a line of the file\\n';
const PIECES = 4;
const GOOD_ARGS = `{"path":"a.txt","content":"${LINE.repeat(PIECES)}"}`;

/**
 * A model that calls `Write`: its first piece at once, then one piece of `LINE` each time the test calls
 * `next` (which resolves once the router has read it), then `last` and its finish reason.
 */
function slowWrite(last: string): { behaviour: Behaviour; next: () => Promise<void> } {
  const steps = Array.from({ length: PIECES }, () => ({ gate: deferred(), sent: deferred() }));
  const frames: Frame[] = [
    roleFrame(),
    toolCallFrame(0, '{"path":"a.txt","content":"', { id: 'call_w', name: 'Write' }),
  ];
  for (const { gate, sent } of steps) frames.push(gate.promise, toolCallFrame(0, LINE), () => sent.resolve());
  frames.push(toolCallFrame(0, last), finishFrame('tool_calls'));
  let taken = 0;
  return {
    behaviour: sse(frames),
    next: async () => {
      const step = steps[taken++];
      if (step === undefined) throw new Error('no piece left');
      step.gate.resolve();
      await within(step.sent.promise, 'the piece to leave (the router cut the call?)');
      await ioTurns();
    },
  };
}

for (const face of FACES) {
  test(`${face.face}: a tool call that streams steadily for longer than totalBudgetMs is served`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      const model = slowWrite('"}');
      upstream.script('alpha/m1', model.behaviour);
      const reply = askFace(router.url, face, face.body(true, 'Write it.', ['Write']));
      await upstream.nextCall('alpha/m1');
      await ioTurns(); // the router has the call's first piece
      for (let i = 0; i < PIECES; i += 1) {
        router.clock.advance(4000);
        await model.next();
      }
      const { status, text } = await within(reply, 'the answer');
      assert.equal(status, 200);
      assert.deepEqual(face.read(text).tools, [{ name: 'Write', args: GOOD_ARGS }]);
      const entry = router.lastEntry();
      assert.equal(entry.wallMs, 16_000, 'served past the budget');
      assert.deepEqual(
        entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`),
        ['alpha/m1:ok'],
      );
    });
  });
}

test('a tool call that proves unusable when it ends, past the budget, is invalid_tool_call', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const model = slowWrite('", <|tool_call_end|>');
    upstream.script('alpha/m1', model.behaviour);
    upstream.script('beta/m2', sseContent(['never asked']));
    const reply = router.chat({ stream: true, tools: [{ type: 'function', function: { name: 'Write' } }] });
    await upstream.nextCall('alpha/m1');
    await ioTurns();
    for (let i = 0; i < PIECES; i += 1) {
      router.clock.advance(4000);
      await model.next();
    }
    await within(reply, 'the answer');
    const [first] = router.lastEntry().attempts;
    assert.equal(first?.model, 'alpha/m1');
    assert.equal(first?.kind, 'invalid_tool_call');
    assert.equal(router.model('alpha/m1').lastFailureKind, 'invalid_tool_call');
  });
});

/**
 * A stream that dies after content is finished by the next model, on each face: one answer that ends
 * cleanly, the restated overlap trimmed, the partial answer handed on, both attempts in the history.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTINUE_TEXT } from './continuation-request.js';
import { askFace, FACES } from '../../test-support/face-answers.js';
import { DEATH_KINDS, diesAfter, finishes, type Death } from '../../test-support/continuing-model.js';
import { ioTurns } from '../../test-support/deferred.js';
import { readText } from '../../test-support/http-client.js';
import type { TestClock } from '../../test-support/test-clock.js';
import { withScenario } from '../../test-support/scenario.js';
import { emptyStream, jsonBody, sse, status } from '../../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
} from '../../test-support/upstream-frames.js';

const FULL = 'The quick brown fox jumps over the lazy dog.';
const CUT = 'The quick brown fo';
/** Three models in order; a model that dies now and then stays first (its breaker never degrades it here). */
const THREE = {
  providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] },
  failover: { streamIdleTimeoutMs: 500 },
  breaker: { failureThreshold: 20, degradedRatio: 1 },
};
const chatFace = FACES[0] as (typeof FACES)[number];

/**
 * Moves the router's clock on, in steps well under the idle limit, until `pending` settles: a stalled
 * stream's idle limit passes on the router's time whenever its last bytes arrived.
 */
async function passingTime<T>(clock: TestClock, pending: Promise<T>): Promise<T> {
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await ioTurns();
    clock.advance(100);
  }
  return pending;
}

for (const face of FACES) {
  for (const death of ['cut', 'error', 'stall', 'ends'] as const satisfies readonly Death[]) {
    test(`${face.face}: ${death} after content is finished by the next model, its restated start trimmed`, async () => {
      await withScenario(THREE, async ({ router, upstream }) => {
        upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], death));
        upstream.script('beta/m2', finishes(FULL, { restate: 8 }));
        const reply = await passingTime(
          router.clock,
          askFace(router.url, face, face.body(true, 'Say hello.')),
        );
        const read = face.read(reply.text);
        assert.equal(read.text, FULL);
        assert.equal(read.ending, 'clean');
        assert.equal(read.afterEnding, 0);
        const asked = upstream.callsTo('beta/m2')[0]?.body?.messages as { role: string; content: unknown }[];
        assert.deepEqual(asked.slice(-2), [
          { role: 'assistant', content: CUT },
          { role: 'user', content: CONTINUE_TEXT },
        ]);
        const entry = router.lastEntry();
        assert.equal(entry.outcome, 'served');
        assert.equal(entry.servedModel, 'beta/m2');
        assert.deepEqual(
          entry.attempts.map((a) => [a.model, a.kind, a.role]),
          [
            ['alpha/m1', DEATH_KINDS[death], 'normal'],
            ['beta/m2', null, 'continuation'],
          ],
        );
        assert.equal(router.model('alpha/m1').consecutiveFailures, 1, 'the model that died is blamed');
        assert.equal(upstream.callsTo('gamma/m3').length, 0);
      });
    });
  }

  test(`${face.face}: continueStreams false keeps the partial answer with the face's error ending`, async () => {
    await withScenario({ ...THREE, failover: { continueStreams: false } }, async ({ router, upstream }) => {
      upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], 'error'));
      upstream.always('beta/m2', finishes(FULL));
      const read = face.read((await askFace(router.url, face, face.body(true, 'Say hello.'))).text);
      assert.equal(read.text, CUT);
      assert.equal(read.ending, 'error');
      assert.equal(upstream.callsTo('beta/m2').length, 0);
      assert.equal(router.lastEntry().outcome, 'partial');
    });
  });
}

test('a continuation that fails before content is passed over unseen; the next model finishes', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], 'cut'));
    upstream.script('beta/m2', emptyStream()).script('gamma/m3', finishes(FULL));
    const reply = await router.chat({ stream: true });
    assert.equal(chatFace.read(reply.text).text, FULL);
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'served');
    assert.deepEqual(
      entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}:${a.role}`),
      ['alpha/m1:network_error:normal', 'beta/m2:empty_stream:continuation', 'gamma/m3:ok:continuation'],
    );
    const asked = upstream.callsTo('gamma/m3')[0]?.body?.messages as { content: unknown }[];
    assert.equal(asked.at(-2)?.content, CUT);
  });
});

test('a continuation cut while it restates the answer so far sends none of it; the next model finishes', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], 'ends'));
    // It restates 'brown fo' and its stream closes after 'brow', with nothing new said.
    upstream.script('beta/m2', finishes(FULL, { restate: 8, dies: { after: 4, death: 'ends' } }));
    upstream.script('gamma/m3', finishes(FULL, { restate: 3 }));
    const read = chatFace.read((await router.chat({ stream: true })).text);
    assert.equal(read.text, FULL);
    assert.equal(read.ending, 'clean');
    assert.deepEqual(
      router.lastEntry().attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`),
      ['alpha/m1:unfinished_stream', 'beta/m2:unfinished_stream', 'gamma/m3:ok'],
    );
  });
});

test('a continuation that dies too is continued from everything the client has by then', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', diesAfter([contentFrame('The quick ')], 'error'));
    upstream.script('beta/m2', diesAfter([contentFrame('brown fox ')], 'cut'));
    upstream.script('gamma/m3', finishes(FULL, { restate: 4 }));
    const read = chatFace.read((await router.chat({ stream: true })).text);
    assert.equal(read.text, FULL);
    assert.equal(read.ending, 'clean');
    const asked = upstream.callsTo('gamma/m3')[0]?.body?.messages as { content: unknown }[];
    assert.equal(asked.at(-2)?.content, 'The quick brown fox ');
    assert.equal(router.lastEntry().servedModel, 'gamma/m3');
  });
});

test('when no model can finish it, the client keeps the answer with the first break named', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], 'error'));
    upstream.script('beta/m2', emptyStream()).script('gamma/m3', emptyStream());
    const reply = await router.chat({ stream: true });
    const read = chatFace.read(reply.text);
    assert.equal(read.text, CUT);
    assert.equal(read.ending, 'error');
    assert.match(reply.text, /"code":"mid_stream_error"/);
    assert.match(reply.text, /alpha\/m1/);
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'partial');
    assert.equal(entry.attempts.length, 3);
  });
});

test('a reasoning-only answer that dies is continued from its thoughts', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    for (const face of FACES) {
      upstream.script('alpha/m1', diesAfter([reasoningFrame('Let me think about')], 'cut'));
      upstream.script(
        'beta/m2',
        sse([roleFrame(), reasoningFrame('think about it.'), contentFrame('Hello!'), finishFrame('stop')]),
      );
      const read = face.read((await askFace(router.url, face, face.body(true, 'Say hello.'))).text);
      assert.equal(read.reasoning, 'Let me think about it.', face.face);
      assert.equal(read.text, 'Hello!');
      assert.equal(read.ending, 'clean');
      const asked = upstream.callsTo('beta/m2').at(-1)?.body?.messages as { role: string; content: string }[];
      assert.equal(asked.at(-1)?.role, 'user');
      assert.match(asked.at(-1)?.content ?? '', /still thinking[\s\S]*Let me think about/);
    }
  });
});

test('an answer that ends on its thoughts alone is continued from them; unstreamed, the next model answers', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    const thoughtsAlone = sse([roleFrame(), reasoningFrame('Let me think about it.'), finishFrame('stop')]);
    for (const face of FACES) {
      upstream.script('alpha/m1', thoughtsAlone);
      upstream.script('beta/m2', sse([roleFrame(), contentFrame('Hello!'), finishFrame('stop')]));
      const read = face.read((await askFace(router.url, face, face.body(true, 'Say hello.'))).text);
      assert.deepEqual(
        [read.reasoning, read.text, read.ending],
        ['Let me think about it.', 'Hello!', 'clean'],
        face.face,
      );
      const asked = upstream.callsTo('beta/m2').at(-1)?.body?.messages as { role: string; content: string }[];
      assert.match(asked.at(-1)?.content ?? '', /still thinking[\s\S]*Let me think about it\./);
      const entry = router.lastEntry();
      assert.equal(entry.outcome, 'served');
      assert.deepEqual(
        entry.attempts.map((attempt) => [attempt.model, attempt.kind ?? null]),
        [
          ['alpha/m1', 'empty_content'],
          ['beta/m2', null],
        ],
      );
    }
    const thoughts = { role: 'assistant', content: null, reasoning_content: 'Let me think.' };
    upstream.script(
      'alpha/m1',
      jsonBody(completion('', { choices: [{ index: 0, message: thoughts, finish_reason: 'stop' }] })),
    );
    upstream.script('beta/m2', jsonBody(completion('Hello!')));
    const reply = await router.chat({});
    assert.equal(
      (JSON.parse(reply.text) as { choices: { message: { content: string } }[] }).choices[0]?.message.content,
      'Hello!',
    );
    assert.equal(
      (upstream.callsTo('beta/m2').at(-1)?.body?.messages as unknown[] | undefined)?.length,
      1,
      'asked anew: nothing was sent',
    );
  });
});

test('a think block alone is thoughts alone on every face: the next model continues after it', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    const texts = (...pieces: string[]): Record<string, unknown>[] =>
      pieces.map((piece) => contentFrame(piece));
    const thoughts = '<think>Only thoughts.</think>';
    for (const face of FACES) {
      upstream.script(
        'alpha/m1',
        sse([roleFrame(), ...texts('<thi', 'nk>Only thoughts.</th', 'ink>'), finishFrame('stop')]),
      );
      upstream.script('beta/m2', sse([roleFrame(), contentFrame('\n\nHello!'), finishFrame('stop')]));
      const read = face.read((await askFace(router.url, face, face.body(true, 'Say hello.'))).text);
      // The text goes on as the model wrote it: the think block, then the next model's answer.
      assert.deepEqual([read.text, read.ending], [`${thoughts}\n\nHello!`, 'clean'], face.face);
      const entry = router.lastEntry();
      assert.deepEqual(
        entry.attempts.map((attempt) => [attempt.model, attempt.kind ?? null]),
        [
          ['alpha/m1', 'empty_content'],
          ['beta/m2', null],
        ],
      );
      const asked = upstream.callsTo('beta/m2').at(-1)?.body?.messages as { role: string; content: string }[];
      assert.deepEqual(asked.slice(-2), [
        { role: 'assistant', content: thoughts },
        { role: 'user', content: CONTINUE_TEXT },
      ]);
    }
    // A think block with words after it is an answer, unstreamed too.
    upstream.script('alpha/m1', jsonBody(completion('<think>Plan.</think>\n\nHello!')));
    const whole = JSON.parse((await router.chat({})).text) as { choices: { message: { content: string } }[] };
    assert.equal(whole.choices[0]?.message.content, '<think>Plan.</think>\n\nHello!');
    assert.equal(router.lastEntry().servedModel, 'alpha/m1');
  });
});

test('after text, the continuing model’s own reasoning stays out of the answer', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', diesAfter([reasoningFrame('Plan.'), contentFrame(CUT)], 'cut'));
    upstream.script(
      'beta/m2',
      sse([roleFrame(), reasoningFrame('I must continue.'), contentFrame('x jumps over the lazy dog.')]),
    );
    const read = chatFace.read((await router.chat({ stream: true })).text);
    assert.equal(read.reasoning, 'Plan.');
    assert.equal(read.text, FULL);
  });
});

test('a stream that sent its finish reason and then went silent is closed as it is: no second model, nobody blamed', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    upstream.always('beta/m2', finishes(FULL));
    for (const face of FACES) {
      upstream.script('alpha/m1', diesAfter([contentFrame(FULL), finishFrame('stop')], 'stall'));
      const asked = askFace(router.url, face, face.body(true, 'Say hello.'));
      const read = face.read((await passingTime(router.clock, asked)).text);
      // As at a close: every face's own ending (chat completions the `[DONE]` the upstream left out).
      assert.deepEqual([read.text, read.ending], [FULL, 'clean'], face.face);
      assert.equal(router.lastEntry().outcome, 'served');
      assert.equal(router.lastEntry().attempts[0]?.kind, null);
    }
    assert.equal(upstream.callsTo('beta/m2').length, 0);
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
  });
});

test('a client that left is never continued for', async () => {
  await withScenario(
    { ...THREE, failover: { streamIdleTimeoutMs: 60_000 } },
    async ({ router, upstream }) => {
      upstream.always('beta/m2', finishes(FULL));
      // The same answer, its client still there, is continued.
      upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], 'cut'));
      assert.equal(chatFace.read((await router.chat({ stream: true })).text).text, FULL);
      assert.equal(upstream.callsTo('beta/m2').length, 1);
      upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], 'stall'));
      const entry = router.nextEntry();
      const open = router.openChat({ stream: true });
      const res = await open.response;
      await new Promise<void>((resolve) => res.once('data', () => resolve()));
      open.request.destroy();
      const done = await entry;
      assert.equal(done.outcome, 'client_aborted');
      assert.equal(upstream.callsTo('beta/m2').length, 1, 'no second call for the client that left');
      assert.deepEqual(
        done.attempts.map((a) => a.kind),
        ['client_aborted'],
      );
      await readText(res).catch(() => '');
    },
  );
});

test('a continuing model that refuses the output length asked for gets one more try without it', async () => {
  await withScenario(THREE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', diesAfter([contentFrame(CUT)], 'cut'));
    upstream.script('beta/m2', status(400), finishes(FULL));
    const read = chatFace.read((await router.chat({ stream: true, max_tokens: 32_000 })).text);
    assert.equal(read.text, FULL);
    assert.deepEqual(
      router.lastEntry().attempts.map((a) => `${a.model}:${a.status}:${a.role}`),
      ['alpha/m1:200:normal', 'beta/m2:400:continuation', 'beta/m2:200:continuation'],
    );
    assert.equal(upstream.callsTo('gamma/m3').length, 0);
  });
});

/**
 * A stream cut after content while its last line (or event) was unfinished: whatever the router writes next
 * (the continuing model's lines, its own error frame) starts a line and an event of its own, and a line whose
 * JSON was cut never reaches the client: its SSE parser reads every event it gets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askFace, FACES } from '../../test-support/face-answers.js';
import { withScenario } from '../../test-support/scenario.js';
import { sse, type Frame } from '../../test-support/upstream-behaviours.js';
import { contentFrame, finishFrame, roleFrame } from '../../test-support/upstream-frames.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, failover: { streamIdleTimeoutMs: 500 } };
const ONE = { providers: { alpha: ['m1'] }, failover: { streamIdleTimeoutMs: 500 } };
const HELLO = `data: ${JSON.stringify(contentFrame('Hello '))}`;
const REST = sse([roleFrame(), contentFrame('world.'), finishFrame('stop')]);

/** What a client's SSE parser makes of a chat-completions stream, event by event (as the spec reads it). */
interface Parsed {
  text: string;
  /** Events whose data is no JSON (the client cannot read them). */
  lost: number;
  errors: number;
  /** The last event's data. */
  last: string;
}

function parseEvents(body: string): Parsed {
  const parsed: Parsed = { text: '', lost: 0, errors: 0, last: '' };
  let data: string[] = [];
  const dispatch = (): void => {
    if (data.length === 0) return;
    parsed.last = data.join('\n');
    data = [];
    if (parsed.last === '[DONE]') return;
    try {
      const frame = JSON.parse(parsed.last) as {
        error?: unknown;
        choices?: { delta?: { content?: string } }[];
      };
      if (frame.error !== undefined) parsed.errors += 1;
      parsed.text += frame.choices?.[0]?.delta?.content ?? '';
    } catch {
      parsed.lost += 1;
    }
  };
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') dispatch();
    else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  dispatch();
  return parsed;
}

/** A role frame, then `frames` written as they are, then the upstream closes with neither finish nor `[DONE]`. */
const cutAfter = (...frames: Frame[]): ReturnType<typeof sse> =>
  sse([roleFrame(), ...frames], { done: false });

const CUTS = [
  { name: 'a whole data line with no line end, then the upstream closes', dies: cutAfter(HELLO) },
  {
    name: 'a data line with one line end and no blank line, then the upstream closes',
    dies: cutAfter(`${HELLO}\n`),
  },
  {
    name: 'a data line with one line end, then a reset',
    dies: sse([roleFrame(), `${HELLO}\n`], { then: 'reset' }),
  },
];

for (const { name, dies } of CUTS) {
  test(`chat: ${name}: the continuation's first chunk reaches the client`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', dies);
      upstream.script('beta/m2', REST);
      const reply = await router.chat({ stream: true });
      assert.deepEqual(parseEvents(reply.text), { text: 'Hello world.', lost: 0, errors: 0, last: '[DONE]' });
      assert.equal(router.lastEntry().outcome, 'served');
    });
  });
}

test('chat: a data line cut inside its JSON, then the stream ends: the client never gets the cut line', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', cutAfter(`${HELLO}\n\n`, HELLO.slice(0, -20)));
    upstream.script('beta/m2', REST);
    const reply = await router.chat({ stream: true });
    assert.deepEqual(parseEvents(reply.text), { text: 'Hello world.', lost: 0, errors: 0, last: '[DONE]' });
    assert.ok(!reply.text.includes(HELLO.slice(0, -20) + '\n'), 'the cut line is not relayed');
  });
});

test('chat: a data line cut inside its JSON, then the stream ends with nobody to continue: the error frame is read', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', cutAfter(`${HELLO}\n\n`, HELLO.slice(0, -20)));
    const parsed = parseEvents((await router.chat({ stream: true })).text);
    assert.deepEqual({ ...parsed, last: '' }, { text: 'Hello ', lost: 0, errors: 1, last: '' });
  });
});

test('chat: a data line with no line end, then the stream ends with nobody to continue: the error frame is read', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.script('alpha/m1', cutAfter(HELLO));
    const reply = await router.chat({ stream: true });
    const parsed = parseEvents(reply.text);
    assert.deepEqual({ ...parsed, last: '' }, { text: 'Hello ', lost: 0, errors: 1, last: '' });
    assert.match(parsed.last, /unfinished_stream/);
    assert.equal(router.lastEntry().outcome, 'partial');
  });
});

for (const face of FACES.slice(1)) {
  test(`${face.face}: a data line with no line end, then the stream ends: the answer is continued whole`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', cutAfter(HELLO));
      upstream.script('beta/m2', REST);
      const reply = await askFace(router.url, face, face.body(true, 'Say hello.'));
      const read = face.read(reply.text);
      assert.equal(read.text, 'Hello world.');
      assert.equal(read.ending, 'clean');
    });
  });
}

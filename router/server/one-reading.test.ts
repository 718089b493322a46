/**
 * One reading of every upstream byte: through the real router, each upstream frame (and a whole JSON answer)
 * is parsed at most once per request: once on the translating faces; on chat completions, which relays the
 * upstream's bytes, once while held and judged and after the commit only where a line must be looked into.
 * That holds for a JSON answer replayed as the stream a request asked for, and for a stream continued after
 * it broke. Every frame carries a mark of its own; a spy on `JSON.parse` counts the parses of text that holds
 * each mark (the client reads the raw reply, and parses it only after).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withScenario, type Scenario } from '../test-support/scenario.js';
import { httpRequest, type HttpReply } from '../test-support/http-client.js';
import { jsonBody, sse } from '../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  errorFrame,
  finishFrame,
  roleFrame,
  usageFrame,
} from '../test-support/upstream-frames.js';

const MODEL = 'good/coder';

/** A 5-frame stream (then `[DONE]`), each frame marked `mark-<n>`. */
const FRAMES = [
  roleFrame(),
  contentFrame('Hel'),
  contentFrame('lo'),
  finishFrame('stop'),
  usageFrame(7, 2),
].map((frame, n) => ({ ...frame, x_mark: `mark-${n}` }));
const MARKS = FRAMES.map((_, n) => `"x_mark":"mark-${n}"`);

/** The three faces' routes and a streamed or whole request on each. */
const FACES = {
  chat: {
    path: '/v1/chat/completions',
    body: (stream: boolean) => ({ model: 'fcm', stream, messages: [{ role: 'user', content: 'Hi' }] }),
    end: 'data: [DONE]',
  },
  messages: {
    path: '/v1/messages',
    body: (stream: boolean) => ({
      model: 'fcm',
      stream,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hi' }],
    }),
    end: 'event: message_stop',
  },
  responses: {
    path: '/v1/responses',
    body: (stream: boolean) => ({ model: 'fcm', stream, input: 'Hi' }),
    end: 'event: response.completed',
  },
} as const;
type FaceName = keyof typeof FACES;

/** Runs `run` while counting `JSON.parse` calls per mark (text holding none is not counted). */
async function countingParses(marks: readonly string[], run: () => Promise<void>): Promise<number[]> {
  const counts = marks.map(() => 0);
  const parse = JSON.parse;
  JSON.parse = function countedParse(text: string, reviver?: Parameters<typeof parse>[1]): unknown {
    if (typeof text === 'string')
      marks.forEach((mark, n) => {
        if (text.includes(mark)) counts[n] = (counts[n] ?? 0) + 1;
      });
    return parse(text, reviver);
  };
  try {
    await run();
  } finally {
    JSON.parse = parse;
  }
  return counts;
}

function ask(scenario: Scenario, face: FaceName, stream: boolean): Promise<HttpReply> {
  return httpRequest(`${scenario.router.url}${FACES[face].path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'any', authorization: 'Bearer any' },
    body: JSON.stringify(FACES[face].body(stream)),
  });
}

/** One streamed request on `face` over the marked 5-frame stream: the parses of each frame. */
async function streamParses(face: FaceName): Promise<number[]> {
  let reply: HttpReply | null = null;
  let counts: number[] = [];
  await withScenario({ providers: { good: ['coder'] } }, async (scenario) => {
    scenario.upstream.script(MODEL, sse(FRAMES));
    counts = await countingParses(MARKS, async () => {
      reply = await ask(scenario, face, true);
    });
  });
  const { status, text } = reply ?? { status: 0, text: '' };
  assert.equal(status, 200, text);
  assert.ok(text.includes(FACES[face].end), text);
  assert.ok(text.includes('Hel') && text.includes('lo'), text);
  return counts;
}

for (const face of ['messages', 'responses'] as const) {
  test(`a ${face} stream of 5 frames: each frame parsed exactly once`, async () => {
    assert.deepEqual(await streamParses(face), [1, 1, 1, 1, 1]);
  });

  test(`a whole JSON answer on ${face}: parsed exactly once`, async () => {
    const marks = ['"x_mark":"whole"'];
    let reply: HttpReply | null = null;
    let counts: number[] = [];
    await withScenario({ providers: { good: ['coder'] } }, async (scenario) => {
      scenario.upstream.script(MODEL, jsonBody({ ...completion('Hello'), x_mark: 'whole' }));
      counts = await countingParses(marks, async () => {
        reply = await ask(scenario, face, false);
      });
    });
    const { status, text } = reply ?? { status: 0, text: '' };
    assert.equal(status, 200, text);
    assert.ok(text.includes('Hello'), text);
    assert.deepEqual(counts, [1]);
  });
}

for (const face of ['chat', 'messages', 'responses'] as const) {
  test(`a JSON answer to a ${face} request for a stream, replayed as that stream: parsed once`, async () => {
    // The mark sits in the completion's id, which every frame of the stream it stands for carries.
    const marks = ['replay-mark'];
    let reply: HttpReply | null = null;
    let counts: number[] = [];
    await withScenario({ providers: { good: ['coder'] } }, async (scenario) => {
      scenario.upstream.script(MODEL, jsonBody(completion('Hello', { id: 'chatcmpl-replay-mark' })));
      counts = await countingParses(marks, async () => {
        reply = await ask(scenario, face, true);
      });
    });
    const { status, text } = reply ?? { status: 0, text: '' };
    assert.equal(status, 200, text);
    assert.ok(text.includes(FACES[face].end) && text.includes('Hello'), text);
    assert.deepEqual(counts, [1]);
  });
}

for (const face of ['chat', 'messages', 'responses'] as const) {
  test(`a ${face} stream cut after content and continued by the next model: each frame of both parsed once`, async () => {
    const mark = (frame: Record<string, unknown>, name: string) => ({ ...frame, x_mark: name });
    const cut = [mark(roleFrame(), 'cut-0'), mark(contentFrame('The quick '), 'cut-1')];
    const rest = [
      mark(roleFrame(), 'rest-0'),
      mark(contentFrame('brown fox.'), 'rest-1'),
      mark(finishFrame('stop'), 'rest-2'),
      mark(usageFrame(9, 4), 'rest-3'),
    ];
    const marks = [...cut, ...rest].map((frame) => `"x_mark":"${String(frame.x_mark)}"`);
    const providers = { providers: { alpha: ['m1'], beta: ['m2'] } };
    let reply: HttpReply | null = null;
    let counts: number[] = [];
    await withScenario(providers, async (scenario) => {
      scenario.upstream.script('alpha/m1', sse(cut, { then: 'reset' }));
      scenario.upstream.script('beta/m2', sse(rest));
      counts = await countingParses(marks, async () => {
        reply = await ask(scenario, face, true);
      });
      assert.equal(scenario.router.lastEntry().servedModel, 'beta/m2');
    });
    const { status, text } = reply ?? { status: 0, text: '' };
    assert.equal(status, 200, text);
    assert.ok(text.includes(FACES[face].end) && text.includes('brown fox.'), text);
    assert.deepEqual(counts, [1, 1, 1, 1, 1, 1]);
  });
}

test('a chat stream that breaks on an error frame in the chunk after content, then continued: each frame parsed once', async () => {
  const mark = (frame: Record<string, unknown>, name: string) => ({ ...frame, x_mark: name });
  const line = (frame: Record<string, unknown>): string => `data: ${JSON.stringify(frame)}\n\n`;
  // The last text and the error frame arrive in one chunk: the byte search's slow path finds the error.
  const broken = line(mark(contentFrame('brown '), 'cut-2')) + line(mark(errorFrame(), 'cut-3'));
  const cut = [mark(roleFrame(), 'cut-0'), mark(contentFrame('The quick '), 'cut-1'), broken];
  const rest = [mark(contentFrame('fox.'), 'rest-0'), mark(finishFrame('stop'), 'rest-1')];
  const marks = ['cut-0', 'cut-1', 'cut-2', 'cut-3', 'rest-0', 'rest-1'].map((n) => `"x_mark":"${n}"`);
  let reply: HttpReply | null = null;
  let counts: number[] = [];
  await withScenario({ providers: { alpha: ['m1'], beta: ['m2'] } }, async (scenario) => {
    scenario.upstream.script('alpha/m1', sse(cut, { done: false }));
    scenario.upstream.script('beta/m2', sse(rest));
    counts = await countingParses(marks, async () => {
      reply = await ask(scenario, 'chat', true);
    });
    assert.equal(scenario.router.lastEntry().servedModel, 'beta/m2');
  });
  const { status, text } = reply ?? { status: 0, text: '' };
  assert.equal(status, 200, text);
  assert.ok(text.includes('brown ') && text.includes('fox.') && !text.includes('cut-3'), text);
  assert.deepEqual(counts, [1, 1, 1, 1, 1, 1]);
});

test('a chat-completions stream of 5 frames: the frames held until content parsed once, the rest relayed unparsed', async () => {
  // The role frame and the first text are held and judged (and shaped as read); from the commit on the bytes
  // go as they came, and only the usage frame is read, once, for the request's token count.
  assert.deepEqual(await streamParses('chat'), [1, 1, 0, 0, 1]);
});

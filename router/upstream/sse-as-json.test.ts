import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import {
  contentFrame,
  errorFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
  toolCallFrame,
  usageFrame,
} from '../test-support/upstream-frames.js';
import { foldStream, isSseBody, type FoldedStream } from './sse-as-json.js';

/** The router's clock when the stream is folded. */
const NOW = Date.UTC(2030, 0, 15, 12, 0, 0);

/** A stream's body: each frame as a `data:` event, then `[DONE]` unless `done` is false. */
function body(frames: readonly (Record<string, unknown> | string)[], done = true): Buffer {
  const lines = frames.map((frame) =>
    typeof frame === 'string' ? frame : `data: ${JSON.stringify(frame)}\n\n`,
  );
  return Buffer.from(lines.join('') + (done ? 'data: [DONE]\n\n' : ''));
}

function completionOf(folded: FoldedStream): Record<string, unknown> {
  assert.ok(folded.ok, JSON.stringify(folded));
  return folded.completion;
}

/** The first choice of a folded stream. */
function firstChoice(folded: FoldedStream): Record<string, unknown> {
  const choices = completionOf(folded).choices as Record<string, unknown>[];
  return choices[0] as Record<string, unknown>;
}

const stamped = (frame: Record<string, unknown>) => ({ ...frame, created: 7, model: 'up/model' });

test('text deltas become one chat completion: id, model, created, message, finish reason and usage', () => {
  const folded = foldStream(
    body([
      stamped(roleFrame()),
      stamped(contentFrame('Hel')),
      contentFrame('lo'),
      finishFrame('stop'),
      usageFrame(5, 2),
    ]),
    NOW,
  );
  assert.deepEqual(completionOf(folded), {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 7,
    model: 'up/model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
});

test('a stream naming no date is dated by the router’s clock, and an unnamed one gets an id', () => {
  const completion = completionOf(
    foldStream(body(['data: {"choices":[{"delta":{"content":"x"}}]}\n\n']), NOW),
  );
  assert.equal(completion.created, Math.floor(NOW / 1000));
  assert.equal(completion.id, 'chatcmpl-fcm');
  assert.equal(completion.model, null);
});

test('reasoning (either field name) is gathered as reasoning_content beside the text', () => {
  const named = { choices: [{ index: 0, delta: { reasoning: ' then more.' } }] };
  const folded = foldStream(
    body([reasoningFrame('Think'), named, contentFrame('Answer.'), finishFrame('stop')]),
    NOW,
  );
  assert.deepEqual(firstChoice(folded).message, {
    role: 'assistant',
    content: 'Answer.',
    reasoning_content: 'Think then more.',
  });
});

test('text streamed as content parts (Mistral’s) is gathered as the message’s text', () => {
  const parts = (text: string) => ({
    choices: [{ index: 0, delta: { content: [{ type: 'text', text }] }, finish_reason: null }],
  });
  const message = firstChoice(foldStream(body([parts('Hel'), parts('lo'), finishFrame('stop')]), NOW))
    .message as Record<string, unknown>;
  assert.equal(message.content, 'Hello');
});

test('tool calls split over frames are gathered by index: id and name from the first piece, arguments joined', () => {
  const signed = {
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index: 1,
              id: 'call_b',
              type: 'function',
              function: { name: 'write', arguments: '' },
              extra_content: { google: { thought_signature: 'sig' } },
            },
          ],
        },
      },
    ],
  };
  const folded = foldStream(
    body([
      toolCallFrame(0, '{"pa', { id: 'call_a', name: 'read' }),
      signed,
      toolCallFrame(0, 'th":"a"}'),
      toolCallFrame(1, '{}'),
      finishFrame('tool_calls'),
    ]),
    NOW,
  );
  const choice = firstChoice(folded);
  assert.equal(choice.finish_reason, 'tool_calls');
  assert.deepEqual(choice.message, {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
      {
        extra_content: { google: { thought_signature: 'sig' } },
        id: 'call_b',
        type: 'function',
        function: { name: 'write', arguments: '{}' },
      },
    ],
  });
});

test('each choice index is a choice of its own, in index order', () => {
  const of = (index: number, content: string) => ({
    choices: [{ index, delta: { content }, finish_reason: 'stop' }],
  });
  const choices = completionOf(foldStream(body([of(1, 'B'), of(0, 'A')]), NOW)).choices as unknown[];
  assert.deepEqual(
    choices.map((choice) => (choice as { message: { content: string } }).message.content),
    ['A', 'B'],
  );
});

test('the last usage sent is the completion’s, Groq’s x_groq.usage too', () => {
  const groq = { choices: [], x_groq: { usage: { prompt_tokens: 9, completion_tokens: 4 } } };
  const completion = completionOf(foldStream(body([usageFrame(1, 1), contentFrame('x'), groq]), NOW));
  assert.deepEqual(completion.usage, { prompt_tokens: 9, completion_tokens: 4 });
  assert.equal('usage' in completionOf(foldStream(body([contentFrame('x')]), NOW)), false);
});

test('an error frame fails the stream as error_payload, with its code and words, content or not', () => {
  for (const frames of [
    [roleFrame(), errorFrame('overloaded')],
    [contentFrame('half'), errorFrame('overloaded')],
  ]) {
    assert.deepEqual(foldStream(body(frames, false), NOW), {
      ok: false,
      failure: { type: 'content', kind: 'error_payload', errorCode: 'internal', detail: 'overloaded' },
    });
  }
});

test('a stream without content is empty_stream: nothing, a role frame, [DONE] alone, a finish alone', () => {
  const empty = {
    ok: false,
    failure: {
      type: 'content',
      kind: 'empty_stream',
      errorCode: null,
      detail: 'stream ended before content',
    },
  };
  for (const stream of [
    Buffer.alloc(0),
    body([roleFrame()]),
    body([]),
    body([roleFrame(), contentFrame('  '), finishFrame('stop')]),
  ])
    assert.deepEqual(foldStream(stream, NOW), empty);
});

test('content with neither a finish reason nor [DONE] was cut on the way: unfinished_stream', () => {
  assert.deepEqual(foldStream(body([roleFrame(), contentFrame('half an ans')], false), NOW), {
    ok: false,
    failure: { type: 'transport', kind: 'unfinished_stream' },
  });
  // Either ending makes it whole.
  assert.ok(foldStream(body([contentFrame('x'), finishFrame('stop')], false), NOW).ok);
  assert.ok(foldStream(body([contentFrame('x')], true), NOW).ok);
});

test('frames after [DONE] are not read, and a last line without a newline is', () => {
  const after =
    body([contentFrame('kept')]).toString() + `data: ${JSON.stringify(contentFrame(' dropped'))}\n\n`;
  assert.deepEqual(firstChoice(foldStream(Buffer.from(after), NOW)).message, {
    role: 'assistant',
    content: 'kept',
  });
  const last = { choices: [{ index: 0, delta: { content: 'tail' }, finish_reason: 'stop' }] };
  const unterminated = Buffer.from(`: hi\r\n\r\ndata: ${JSON.stringify(last)}`);
  assert.equal((firstChoice(foldStream(unterminated, NOW)).message as { content: string }).content, 'tail');
});

test('a body is SSE by its first field whatever its type, or by its type unless it opens like JSON or HTML', () => {
  const cases: [string | null, string, boolean][] = [
    ['application/json', 'data: {}\n\n', true],
    [null, '\uFEFF\n  : keep-alive\n\ndata: {}\n\n', true],
    ['text/plain', 'event: message\ndata: {}\n\n', true],
    ['text/event-stream; charset=utf-8', '', true],
    ['text/event-stream', '{"choices":[]}', false],
    ['text/event-stream', '<!doctype html>', false],
    ['application/json', '{"choices":[]}', false],
    ['application/json', 'database error', false],
  ];
  for (const [type, text, sse] of cases)
    assert.equal(isSseBody(type, Buffer.from(text)), sse, `${type} ${text}`);
});

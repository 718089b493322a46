import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatEncoder } from './chat-face.js';

test('the chat face passes answers through as the same objects', () => {
  const encoder = new ChatEncoder();
  const body = Buffer.from('{"choices":[]}');
  const lines = new TextEncoder().encode('data: {"choices":[]}\n\n');
  assert.equal(encoder.face, 'chat');
  assert.equal(encoder.reads, 'bytes');
  assert.equal(encoder.json({ text: body, body: { choices: [] } }), body);
  assert.equal(encoder.json({ text: 'text', body: {} }), 'text');
  assert.equal(encoder.streamBytes(lines), lines);
  assert.equal(encoder.streamClose({ done: true, lineEnds: 2 }), null);
});

test("a stream the upstream ended without [DONE] gets the router's, after its last event's end", () => {
  const encoder = new ChatEncoder();
  assert.equal(encoder.streamClose({ done: false, lineEnds: 2 }), 'data: [DONE]\n\n');
  assert.equal(encoder.streamClose({ done: false, lineEnds: 1 }), '\ndata: [DONE]\n\n');
  assert.equal(encoder.streamClose({ done: false, lineEnds: 0 }), '\n\ndata: [DONE]\n\n');
});

test('a stream broken after content ends with the router error frame', () => {
  assert.equal(
    new ChatEncoder().streamFailure('mid_stream_error', 'groq/llama'),
    'data: {"error":{"message":"fcm-router: the stream from groq/llama failed after part of the answer was sent (mid_stream_error); this answer is incomplete","type":"upstream_error","code":"mid_stream_error"}}\n\n',
  );
});

test('an error before any byte is OpenAI-shaped', () => {
  const body = new ChatEncoder().error({
    status: 429,
    code: 'rate_limit_exceeded',
    type: 'rate_limit_error',
    message: 'fcm-router: every model of the set is quota-paused; retry later',
    retryAfterSec: 60,
  });
  assert.deepEqual(JSON.parse(body), {
    error: {
      message: 'fcm-router: every model of the set is quota-paused; retry later',
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      param: null,
    },
  });
});

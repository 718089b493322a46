import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessagesEncoder } from './anthropic-encoder.js';
import type { ThinkingShown } from './anthropic-message.js';
import { chunk, DONE, frame, names, parseSse, runStream, toolPiece, usageChunk } from './test-kit.js';

const encoder = (thinking: ThinkingShown = 'text'): MessagesEncoder =>
  new MessagesEncoder({ idStem: 'req7f3a', model: 'fcm', thinking, inputTokens: 40, stopSequences: ['END'] });
test('a stream: message_start, then each block start/deltas/stop, message_delta with usage, message_stop', () => {
  const out = runStream(encoder(), [
    chunk({ role: 'assistant', content: '' }) + chunk({ reasoning_content: 'Think' }),
    chunk({ reasoning_content: 'ing' }) + chunk({ content: 'Hel' }),
    chunk({ content: 'lo' }) + chunk({}, 'stop'),
    usageChunk(50, 9) + DONE,
  ]);
  const events = parseSse(out);
  assert.deepEqual(names(events), [
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_delta',
    'content_block_delta',
    'content_block_stop',
    'content_block_start',
    'content_block_delta',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
  assert.deepEqual(events[0]?.data, {
    type: 'message_start',
    message: {
      id: 'msg_req7f3a',
      type: 'message',
      role: 'assistant',
      model: 'fcm',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 40, output_tokens: 0 },
    },
  });
  assert.deepEqual(events[1]?.data.content_block, { type: 'thinking', thinking: '', signature: '' });
  assert.deepEqual(
    events.slice(2, 5).map((e) => e.data.delta),
    [
      { type: 'thinking_delta', thinking: 'Think' },
      { type: 'thinking_delta', thinking: 'ing' },
      { type: 'signature_delta', signature: 'fcm-router' },
    ],
  );
  assert.deepEqual(events[6]?.data, {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'text', text: '' },
  });
  assert.deepEqual(events[7]?.data, {
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'text_delta', text: 'Hel' },
  });
  assert.deepEqual(events[10]?.data, {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 9, input_tokens: 50 },
  });
});

test('thinking shown as omitted: one empty, signed thinking block where the reasoning was, none of its text', () => {
  const events = parseSse(
    runStream(encoder('omitted'), [
      chunk({ role: 'assistant', reasoning_content: 'Secret ' }) + chunk({ reasoning_content: 'steps' }),
      chunk({ content: 'Hi' }, 'stop') + DONE,
    ]),
  );
  const blocks = events.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block);
  assert.deepEqual(blocks, [
    { type: 'thinking', thinking: '', signature: '' },
    { type: 'text', text: '' },
  ]);
  const deltas = events
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => [e.data.index, e.data.delta]);
  assert.deepEqual(deltas, [
    [0, { type: 'signature_delta', signature: 'fcm-router' }],
    [1, { type: 'text_delta', text: 'Hi' }],
  ]);
  assert.ok(!JSON.stringify(events).includes('Secret'), 'no word of the reasoning');
});

test('thinking not asked for: reasoning is left out and the blocks after it are numbered from 0', () => {
  const events = parseSse(
    runStream(encoder('off'), [
      chunk({ role: 'assistant', reasoning_content: 'Think' }),
      chunk({ content: 'Hi' }) + chunk({ reasoning_content: 'more' }),
      chunk({ tool_calls: [toolPiece(0, 'call_a', 'Bash', '{}')] }, 'tool_calls'),
      usageChunk(50, 9) + DONE,
    ]),
  );
  assert.deepEqual(
    events.filter((e) => e.event === 'content_block_start').map((e) => [e.data.index, e.data.content_block]),
    [
      [0, { type: 'text', text: '' }],
      [1, { type: 'tool_use', id: 'call_a', name: 'Bash', input: {} }],
    ],
  );
  assert.ok(!JSON.stringify(events).includes('thinking'), 'no thinking event of any kind');
  assert.deepEqual(events.find((e) => e.event === 'message_delta')?.data.usage, {
    output_tokens: 9,
    input_tokens: 50,
  });
});

test('streamed tool calls: tool_use blocks with input_json_delta pieces, upstream ids kept, missing ids minted', () => {
  const enc = encoder();
  const out = runStream(enc, [
    chunk({ content: 'Running.' }),
    chunk({ tool_calls: [toolPiece(0, 'call_x', 'Bash', '')] }),
    chunk({ tool_calls: [toolPiece(0, null, null, '{"command":')] }),
    chunk({ tool_calls: [toolPiece(0, null, null, '"ls"}')] }),
    chunk({ tool_calls: [toolPiece(1, null, 'Read', '{"file_path":"/a"}')] }),
    chunk({}, 'tool_calls') + DONE,
  ]);
  const events = parseSse(out);
  const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block);
  assert.deepEqual(starts, [
    { type: 'text', text: '' },
    { type: 'tool_use', id: 'call_x', name: 'Bash', input: {} },
    { type: 'tool_use', id: 'toolu_req7f3a_1', name: 'Read', input: {} },
  ]);
  const pieces = events.filter(
    (e) => (e.data.delta as { type?: string } | undefined)?.type === 'input_json_delta',
  );
  assert.deepEqual(
    pieces.map((e) => [e.data.index, (e.data.delta as { partial_json: string }).partial_json]),
    [
      [1, '{"command":'],
      [1, '"ls"}'],
      [2, '{"file_path":"/a"}'],
    ],
  );
  const delta = events.find((e) => e.event === 'message_delta');
  assert.equal((delta?.data.delta as { stop_reason: string }).stop_reason, 'tool_use');
  // [DONE] closed the message: nothing is left for the close.
  assert.equal(enc.streamClose(), null);
});

test('a second call at the same index with a new id is a new tool_use; arguments before the name wait for it', () => {
  const out = runStream(encoder(), [
    chunk({ tool_calls: [toolPiece(0, 'g1', 'Bash', '{"command":"a"}')] }),
    chunk({ tool_calls: [toolPiece(0, 'g2', 'Bash', '{"command":"b"}')] }),
    chunk({ tool_calls: [{ index: 1, id: 'late', function: { arguments: '{"x"' } }] }),
    chunk({ tool_calls: [toolPiece(1, null, 'Named', ':1}')] }, 'tool_calls'),
  ]);
  const events = parseSse(out);
  const starts = events
    .filter((e) => e.event === 'content_block_start')
    .map((e) => e.data.content_block as { id: string });
  assert.deepEqual(
    starts.map((block) => block.id),
    ['g1', 'g2', 'late'],
  );
  const last = events.filter((e) => e.data.index === 2 && e.event === 'content_block_delta');
  assert.deepEqual(
    last.map((e) => (e.data.delta as { partial_json: string }).partial_json),
    ['{"x":1}'],
  );
  assert.equal(names(events).at(-1), 'message_stop');
});

test("with no usage from the upstream, the end reports the router's estimate of the input", () => {
  const events = parseSse(runStream(encoder(), [chunk({ content: 'Hi' }, 'stop') + DONE]));
  assert.deepEqual((events[0]?.data.message as { usage: unknown }).usage, {
    input_tokens: 40,
    output_tokens: 0,
  });
  assert.deepEqual(events.find((e) => e.event === 'message_delta')?.data.usage, {
    output_tokens: 0,
    input_tokens: 40,
  });
});

test("a stream stopped on one of the request's stop_sequences says so in message_delta", () => {
  const last = frame({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: 'stop', matched_stop: 'END' }],
  });
  const events = parseSse(runStream(encoder(), [chunk({ content: 'Done' }), last + DONE]));
  assert.deepEqual(events.find((e) => e.event === 'message_delta')?.data.delta, {
    stop_reason: 'stop_sequence',
    stop_sequence: 'END',
  });
});

test('tool calls stop for tool_use even when the upstream said stop (Gemini, LiteLLM)', () => {
  const out = runStream(encoder(), [
    chunk({ tool_calls: [toolPiece(0, 'g1', 'Bash', '{}')] }, 'stop') + DONE,
  ]);
  const delta = parseSse(out).find((e) => e.event === 'message_delta');
  assert.equal((delta?.data.delta as { stop_reason: string }).stop_reason, 'tool_use');
});

test('arguments sent as a JSON object are the tool_use input, not empty', () => {
  const call = {
    index: 0,
    id: 'g1',
    type: 'function',
    function: { name: 'Bash', arguments: { command: 'ls' } },
  };
  const events = parseSse(runStream(encoder(), [chunk({ tool_calls: [call] }, 'tool_calls') + DONE]));
  const pieces = events.filter(
    (e) => (e.data.delta as { type?: string } | undefined)?.type === 'input_json_delta',
  );
  assert.deepEqual(
    pieces.map((e) => (e.data.delta as { partial_json: string }).partial_json),
    ['{"command":"ls"}'],
  );
});

test('a reasoning-only stream is a thinking block and a normal end', () => {
  const events = parseSse(runStream(encoder(), [chunk({ reasoning: 'Only thoughts' }), chunk({}, 'length')]));
  assert.deepEqual(names(events), [
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
  assert.equal((events[5]?.data.delta as { stop_reason: string }).stop_reason, 'max_tokens');
});

test('a stream that breaks after content ends with an error event and no message_stop', () => {
  const enc = encoder();
  const sent = runStream(enc, [chunk({ content: 'Partial' })], false);
  const failure = enc.streamFailure('mid_stream_error', 'groq/llama');
  const events = parseSse(sent + failure);
  assert.deepEqual(names(events), ['message_start', 'content_block_start', 'content_block_delta', 'error']);
  assert.deepEqual(events.at(-1)?.data, {
    type: 'error',
    error: {
      type: 'api_error',
      message:
        'fcm-router: the stream from groq/llama failed after part of the answer was sent (mid_stream_error); this answer is incomplete',
    },
  });
  assert.match(enc.streamFailure('overloaded', 'm'), /"type":"overloaded_error"/);
  assert.match(enc.streamFailure('rate_limit', 'm'), /"type":"rate_limit_error"/);
});

test('a stream with no [DONE] is closed by streamClose', () => {
  const enc = encoder();
  const first = runStream(enc, [chunk({ content: 'Hi' }, 'stop')], false);
  assert.ok(!first.includes('message_stop'));
  const closing = enc.streamClose();
  assert.deepEqual(names(parseSse(closing ?? '')), ['content_block_stop', 'message_delta', 'message_stop']);
});

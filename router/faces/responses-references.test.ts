/**
 * Item references through the face's own pieces: an answer's items (JSON and streamed) kept in a store,
 * then a later request that refers to them translated from what was kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponsesEncoder } from './responses-encoder.js';
import { ResponseItemStore } from './responses-item-store.js';
import { keptOutputs } from './responses-references.js';
import { translateResponsesRequest } from './responses-request.js';
import type { AgentTool, ToolNames } from './responses-tools.js';
import { chunk, completion, DONE, gated, runStream, toolPiece } from './test-kit.js';

const toolNames = new Map([['fs__read', { namespace: 'fs', name: 'read' }]]);

/** An encoder whose served items go to `store`, and the ids it used. */
function keepingEncoder(
  store: ResponseItemStore,
  served: string[][] = [],
  names: ToolNames = toolNames,
): ResponsesEncoder {
  return new ResponsesEncoder({
    idStem: 'stem1',
    model: 'fcm',
    createdAt: 1,
    toolNames: names,
    onServed: (output) => {
      const kept = keptOutputs(output);
      served.push(kept.map((item) => item.id));
      store.keep(kept);
    },
  });
}

const answer = completion(
  {
    reasoning_content: 'Think first.',
    content: 'Reading it.',
    tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'fs__read', arguments: '{"p":"a"}' } }],
  },
  'tool_calls',
);

const streamedAnswer = [
  chunk({ role: 'assistant', reasoning_content: 'Think ' }),
  chunk({ reasoning_content: 'first.' }),
  chunk({ content: 'Reading it.' }),
  chunk({ tool_calls: [toolPiece(0, 'call_7', 'fs__read', '{"p":')] }),
  chunk({ tool_calls: [toolPiece(0, null, null, '"a"}')] }, 'tool_calls') + DONE,
];

/** The AI SDK's second step: its earlier items by reference, the tool's output in full. */
const nextStep = (stream: boolean) => ({
  model: 'fcm',
  stream,
  input: [
    { role: 'user', content: [{ type: 'input_text', text: 'Read a' }] },
    { type: 'item_reference', id: 'rs_stem1_0' },
    { type: 'item_reference', id: 'msg_stem1_1' },
    { id: 'fc_stem1_2' },
    { type: 'function_call_output', call_id: 'call_7', output: 'contents of a' },
  ],
});

const expectedMessages = [
  { role: 'user', content: 'Read a' },
  {
    role: 'assistant',
    content: 'Reading it.',
    tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'fs__read', arguments: '{"p":"a"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_7', content: 'contents of a' },
];

test('a JSON answer’s items, referred to by id, come back as the assistant turn (namespaced call flattened, reasoning dropped)', () => {
  const store = new ResponseItemStore({ clock: () => 0 });
  const served: string[][] = [];
  const body = JSON.parse(keepingEncoder(store, served).json(gated(answer))) as { output: { id: string }[] };
  assert.deepEqual(
    body.output.map((item) => item.id),
    ['rs_stem1_0', 'msg_stem1_1', 'fc_stem1_2'],
  );
  assert.deepEqual(served, [['rs_stem1_0', 'msg_stem1_1', 'fc_stem1_2']]);
  const next = translateResponsesRequest(nextStep(false), store);
  assert.ok(next.ok, next.ok ? '' : next.message);
  assert.deepEqual(next.chat.messages, expectedMessages);
});

test('a streamed answer’s items are kept when it completes, under the ids its events carried', () => {
  const store = new ResponseItemStore({ clock: () => 0 });
  const served: string[][] = [];
  const sent = runStream(keepingEncoder(store, served), streamedAnswer);
  for (const id of ['rs_stem1_0', 'msg_stem1_1', 'fc_stem1_2']) assert.ok(sent.includes(`"${id}"`), id);
  assert.deepEqual(served, [['rs_stem1_0', 'msg_stem1_1', 'fc_stem1_2']]);
  const next = translateResponsesRequest(nextStep(true), store);
  assert.ok(next.ok, next.ok ? '' : next.message);
  assert.deepEqual(next.chat.messages, expectedMessages);
});

test('a stream that breaks keeps nothing: its items never completed', () => {
  const store = new ResponseItemStore({ clock: () => 0 });
  const served: string[][] = [];
  const encoder = keepingEncoder(store, served);
  runStream(encoder, streamedAnswer.slice(0, 3), false);
  encoder.streamFailure('mid_stream_error', 'up/model');
  assert.deepEqual(served, []);
  assert.equal(store.size, 0);
});

test('a custom tool call’s item, JSON or streamed, is kept and comes back as its call with `{"input": …}`', () => {
  const custom = new Map<string, AgentTool>([
    ['ed__patch', { namespace: 'ed', name: 'patch', custom: true }],
  ]);
  const args = JSON.stringify({ input: '*** Begin Patch\n*** End Patch\n' });
  const pieces = [
    chunk({ role: 'assistant', tool_calls: [toolPiece(0, 'call_p', 'ed__patch', args.slice(0, 9))] }),
    chunk({ tool_calls: [toolPiece(0, null, null, args.slice(9))] }, 'tool_calls') + DONE,
  ];
  const answers: ((encoder: ResponsesEncoder) => void)[] = [
    (encoder) =>
      encoder.json(
        gated(completion({ tool_calls: [toolPiece(0, 'call_p', 'ed__patch', args)] }, 'tool_calls')),
      ),
    (encoder) => runStream(encoder, pieces),
  ];
  for (const answerWith of answers) {
    const store = new ResponseItemStore({ clock: () => 0 });
    const served: string[][] = [];
    answerWith(keepingEncoder(store, served, custom));
    assert.deepEqual(served, [['ctc_stem1_0']]);
    const next = translateResponsesRequest(
      {
        model: 'fcm',
        input: [
          { role: 'user', content: 'Patch it' },
          { type: 'item_reference', id: 'ctc_stem1_0' },
          { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!' },
        ],
      },
      store,
    );
    assert.ok(next.ok, next.ok ? '' : next.message);
    assert.deepEqual(next.chat.messages.slice(1), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_p', type: 'function', function: { name: 'ed__patch', arguments: args } }],
      },
      { role: 'tool', tool_call_id: 'call_p', content: 'Done!' },
    ]);
  }
});

test('a reference the router does not hold: a 400 naming the item and saying to send the conversation whole', () => {
  const store = new ResponseItemStore({ clock: () => 0 });
  store.keep([{ id: 'msg_known', item: { type: 'message', role: 'assistant', content: 'hi' } }]);
  const result = translateResponsesRequest(
    {
      model: 'fcm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'item_reference', id: 'msg_known' },
        { type: 'item_reference', id: 'msg_gone' },
      ],
    },
    store,
  );
  assert.ok(!result.ok);
  assert.equal(result.param, 'input[2]');
  assert.match(result.message, /"msg_gone"/);
  assert.match(result.message, /send the conversation whole/);
  assert.match(result.message, /store: false/);
  // Without a store, every reference is one the router does not hold.
  const bare = translateResponsesRequest({
    model: 'fcm',
    input: [
      { role: 'user', content: 'hi' },
      { type: 'item_reference', id: 'msg_known' },
    ],
  });
  assert.ok(!bare.ok);
  assert.equal(bare.param, 'input[1]');
});

test('`store: false` asks that the answer’s items not be kept; by default they are', () => {
  const off = translateResponsesRequest({ model: 'fcm', input: 'hi', store: false });
  assert.ok(off.ok);
  assert.equal(off.keepItems, false);
  const on = translateResponsesRequest({ model: 'fcm', input: 'hi' });
  assert.ok(on.ok);
  assert.equal(on.keepItems, true);
});

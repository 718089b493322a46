import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponsesEncoder } from './responses-encoder.js';
import type { AgentTool } from './responses-tools.js';
import { chunk, DONE, names, parseSse, runStream, toolPiece, usageChunk, type SseEvent } from './test-kit.js';

const toolNames = new Map<string, AgentTool>([
  ['multi_agent_v1__spawn_agent', { namespace: 'multi_agent_v1', name: 'spawn_agent' }],
  ['apply_patch', { name: 'apply_patch', custom: true }],
]);
const encoder = (summary = true): ResponsesEncoder =>
  new ResponsesEncoder({ idStem: 'req42', model: 'fcm', createdAt: 1_800_000_000, toolNames, summary });

const sequenceOf = (events: SseEvent[]): number[] => events.map((e) => e.data.sequence_number as number);

test('a stream: created, in_progress, items with their deltas and done events, completed; sequence numbers 0..n', () => {
  const out = runStream(encoder(), [
    chunk({ role: 'assistant', reasoning_content: 'Thinking' }),
    chunk({ content: 'Hel' }) + chunk({ content: 'lo' }),
    chunk({ tool_calls: [toolPiece(0, 'call_9', 'exec_command', '{"cmd":')] }),
    chunk({ tool_calls: [toolPiece(0, null, null, '"ls"}')] }, 'tool_calls'),
    usageChunk(20, 8) + DONE,
  ]);
  const events = parseSse(out);
  assert.deepEqual(names(events), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.reasoning_summary_part.added',
    'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.done',
    'response.reasoning_summary_part.done',
    'response.output_item.done',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.output_item.added',
    'response.function_call_arguments.delta',
    'response.function_call_arguments.delta',
    'response.function_call_arguments.done',
    'response.output_item.done',
    'response.completed',
  ]);
  for (const e of events) assert.equal(e.data.type, e.event);
  assert.deepEqual(
    sequenceOf(events),
    events.map((_, i) => i),
  );
  assert.deepEqual((events[0]?.data.response as Record<string, unknown>).status, 'in_progress');
  assert.deepEqual(events[10]?.data, {
    type: 'response.output_text.delta',
    sequence_number: 10,
    item_id: 'msg_req42_1',
    output_index: 1,
    content_index: 0,
    delta: 'Hel',
    logprobs: [],
  });
  assert.equal(events[12]?.data.text, 'Hello');
  assert.deepEqual(events[15]?.data.item, {
    id: 'fc_req42_2',
    type: 'function_call',
    status: 'in_progress',
    arguments: '',
    call_id: 'call_9',
    name: 'exec_command',
  });
  assert.deepEqual(events[18]?.data, {
    type: 'response.function_call_arguments.done',
    sequence_number: 18,
    item_id: 'fc_req42_2',
    output_index: 2,
    name: 'exec_command',
    arguments: '{"cmd":"ls"}',
  });
  const completed = events.at(-1)?.data.response as Record<string, unknown>;
  assert.equal(completed.status, 'completed');
  assert.deepEqual(
    (completed.output as { type: string }[]).map((item) => item.type),
    ['reasoning', 'message', 'function_call'],
  );
  assert.deepEqual(
    completed.output,
    events.filter((e) => e.event === 'response.output_item.done').map((e) => e.data.item),
  );
  assert.equal(completed.output_text, 'Hello');
  assert.deepEqual((completed.usage as { total_tokens: number }).total_tokens, 28);
});

test('a namespaced function call streams under its own name with its namespace', () => {
  const events = parseSse(
    runStream(encoder(), [
      chunk({ tool_calls: [toolPiece(0, 'c', 'multi_agent_v1__spawn_agent', '{}')] }, 'tool_calls'),
    ]),
  );
  const added = events.find((e) => e.event === 'response.output_item.added')?.data.item as Record<
    string,
    unknown
  >;
  assert.equal(added.name, 'spawn_agent');
  assert.equal(added.namespace, 'multi_agent_v1');
  const done = events.find((e) => e.event === 'response.function_call_arguments.done');
  assert.equal(done?.data.name, 'spawn_agent');
});

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+a "quoted"\n*** End Patch\n';

test('a custom tool call streams as a custom_tool_call: its whole input in one delta, then done, when the call ends', () => {
  const args = JSON.stringify({ input: PATCH });
  const events = parseSse(
    runStream(encoder(), [
      chunk({ content: 'Patching.' }),
      chunk({ tool_calls: [toolPiece(0, 'call_p', 'apply_patch', args.slice(0, 15))] }),
      chunk({ tool_calls: [toolPiece(0, null, null, args.slice(15))] }, 'tool_calls'),
      DONE,
    ]),
  );
  const item = events.slice(events.findIndex((e) => e.data.item_id === 'ctc_req42_1') - 1);
  assert.deepEqual(names(item), [
    'response.output_item.added',
    'response.custom_tool_call_input.delta',
    'response.custom_tool_call_input.done',
    'response.output_item.done',
    'response.completed',
  ]);
  assert.deepEqual(item[0]?.data.item, {
    id: 'ctc_req42_1',
    type: 'custom_tool_call',
    status: 'in_progress',
    call_id: 'call_p',
    input: '',
    name: 'apply_patch',
  });
  const at = { item_id: 'ctc_req42_1', output_index: 1 };
  assert.deepEqual(item[1]?.data, {
    type: 'response.custom_tool_call_input.delta',
    sequence_number: item[1]?.data.sequence_number,
    ...at,
    delta: PATCH,
  });
  assert.deepEqual(item[2]?.data, {
    type: 'response.custom_tool_call_input.done',
    sequence_number: item[2]?.data.sequence_number,
    ...at,
    input: PATCH,
  });
  const done = { ...(item[0]?.data.item as Record<string, unknown>), status: 'completed', input: PATCH };
  assert.deepEqual(item[3]?.data.item, done);
  const completed = item[4]?.data.response as { output: unknown[] };
  assert.deepEqual(completed.output[1], done);
  assert.deepEqual(
    sequenceOf(events),
    events.map((_, i) => i),
  );
});

test('a custom tool call cut by a broken stream stays incomplete in response.failed', () => {
  const enc = encoder();
  const sent = runStream(
    enc,
    [chunk({ tool_calls: [toolPiece(0, 'call_p', 'apply_patch', '{"input":"*** Be')] })],
    false,
  );
  const events = parseSse(sent + enc.streamFailure('mid_stream_error', 'groq/llama'));
  assert.ok(!names(events).some((name) => name.startsWith('response.custom_tool_call_input')));
  const response = events.at(-1)?.data.response as { output: Record<string, unknown>[] };
  assert.equal(response.output[0]?.type, 'custom_tool_call');
  assert.equal(response.output[0]?.status, 'incomplete');
});

test('tool calls with a stop finish (Gemini, LiteLLM) are function_call items of a completed response', () => {
  const events = parseSse(
    runStream(encoder(), [chunk({ tool_calls: [toolPiece(0, 'c', 'exec', '{}')] }, 'stop')]),
  );
  const completed = events.at(-1);
  assert.equal(completed?.event, 'response.completed');
  const [item] = (completed?.data.response as { output: Record<string, unknown>[] }).output;
  assert.deepEqual([item?.type, item?.call_id, item?.status], ['function_call', 'c', 'completed']);
});

test('a function call that ends with no arguments: {} as its last delta, in its done event, its item and the response', () => {
  const events = parseSse(
    runStream(encoder(), [chunk({ tool_calls: [toolPiece(0, 'c', 'exec', '')] }, 'tool_calls'), DONE]),
  );
  const of = (type: string) => events.filter((e) => e.event === type).map((e) => e.data);
  assert.deepEqual(
    of('response.function_call_arguments.delta').map((d) => d.delta),
    ['{}'],
  );
  assert.equal(of('response.function_call_arguments.done')[0]?.arguments, '{}');
  assert.equal((of('response.output_item.done')[0]?.item as Record<string, unknown>).arguments, '{}');
  const [item] = (events.at(-1)?.data.response as { output: Record<string, unknown>[] }).output;
  assert.equal(item?.arguments, '{}');
});

test('a reasoning-only stream is one reasoning item and a completed response', () => {
  const events = parseSse(runStream(encoder(), [chunk({ reasoning: 'Only this' }, 'stop')]));
  const completed = events.at(-1);
  assert.equal(completed?.event, 'response.completed');
  assert.deepEqual((completed?.data.response as { output: unknown[] }).output, [
    { id: 'rs_req42_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Only this' }] },
  ]);
});

test('a length stop ends the stream with response.incomplete', () => {
  const events = parseSse(runStream(encoder(), [chunk({ content: 'cut' }, 'length')]));
  assert.equal(events.at(-1)?.event, 'response.incomplete');
  assert.deepEqual((events.at(-1)?.data.response as Record<string, unknown>).incomplete_details, {
    reason: 'max_output_tokens',
  });
});

test('a stream that breaks after content ends with response.failed and no response.completed', () => {
  const enc = encoder();
  const sent = runStream(enc, [chunk({ content: 'Partial' })], false);
  const events = parseSse(sent + enc.streamFailure('mid_stream_error', 'groq/llama'));
  assert.ok(!names(events).includes('response.completed'));
  const failed = events.at(-1);
  assert.equal(failed?.event, 'response.failed');
  assert.equal(failed?.data.sequence_number, events.length - 1);
  const response = failed?.data.response as Record<string, unknown>;
  assert.equal(response.status, 'failed');
  // The message being written when the stream broke stays as far as it got.
  assert.deepEqual(response.output, [
    {
      id: 'msg_req42_0',
      type: 'message',
      status: 'incomplete',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Partial', annotations: [] }],
    },
  ]);
  assert.equal(response.output_text, 'Partial');
  assert.deepEqual(response.error, {
    code: 'server_error',
    message:
      'fcm-router: the stream from groq/llama failed after part of the answer was sent (mid_stream_error); this answer is incomplete',
  });
  assert.match(encoder().streamFailure('rate_limit', 'm'), /"code":"rate_limit_exceeded"/);
});

test('a stream whose request asked no reasoning summary: its reasoning item comes with an empty summary and no summary events', () => {
  const quiet = encoder(false);
  const out = runStream(quiet, [
    chunk({ role: 'assistant', reasoning_content: 'Private ' }) + chunk({ reasoning_content: 'plan.' }),
    chunk({ content: 'Done.' }, 'stop'),
    usageChunk(20, 8) + DONE,
  ]);
  assert.doesNotMatch(out, /Private|plan\./);
  const events = parseSse(out);
  assert.deepEqual(names(events), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.output_item.done',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ]);
  assert.deepEqual(events[3]?.data.item, { id: 'rs_req42_0', type: 'reasoning', summary: [] });
  assert.deepEqual(
    sequenceOf(events),
    events.map((_, i) => i),
  );
  const completed = events.at(-1)?.data.response as { output: unknown[] };
  assert.deepEqual(completed.output[0], { id: 'rs_req42_0', type: 'reasoning', summary: [] });
});

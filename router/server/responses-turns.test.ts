/**
 * A Responses answer sent back as the next turn's history, as Codex does (`store: false`, the whole
 * conversation), end to end with `openai` against the real router over a fake upstream: an answer whose
 * reasoning comes between its text and its calls, or between its parallel calls, streams out as items in that
 * order, and the next turn still reaches the upstream as one assistant message with its text and every call,
 * followed by their results, the conversation chat-completions providers take.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { withScenario } from '../test-support/scenario.js';
import { jsonBody, sse, type Frame } from '../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
  toolCallFrame,
} from '../test-support/upstream-frames.js';

const GOOD = 'good/coder';

const execCommand: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'exec_command',
  strict: false,
  parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
};

const call = (index: number, id: string, cmd: string): Record<string, unknown> =>
  toolCallFrame(index, JSON.stringify({ cmd }), { id, name: 'exec_command' });

const chatCall = (id: string, cmd: string) => ({
  id,
  type: 'function',
  function: { name: 'exec_command', arguments: JSON.stringify({ cmd }) },
});

/** An output item as the next turn's input, as it came: reasoning, a message or a call (these answers hold no other). */
function asInput(item: OpenAI.Responses.ResponseOutputItem): OpenAI.Responses.ResponseInputItem[] {
  return item.type === 'reasoning' || item.type === 'message' || item.type === 'function_call' ? [item] : [];
}

/**
 * Streams a first turn answered with `frames`, then sends its output back with a result for each call: the
 * first turn's item types and the messages the upstream got for the second.
 */
async function secondTurn(frames: readonly Frame[]): Promise<{ items: string[]; sent: unknown }> {
  let result: { items: string[]; sent: unknown } = { items: [], sent: null };
  await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
    upstream.script(GOOD, sse(frames), jsonBody(completion('Both ran.')));
    const openai = new OpenAI({ baseURL: `${router.url}/v1`, apiKey: 'any', maxRetries: 0 });
    const user: OpenAI.Responses.ResponseInputItem = { role: 'user', content: 'List and locate.' };
    const ask = { model: 'fcm', store: false, tools: [execCommand] };
    const first = await openai.responses.stream({ ...ask, input: [user] }).finalResponse();
    const outputs = first.output.flatMap((item): OpenAI.Responses.ResponseInputItem[] =>
      item.type === 'function_call'
        ? [{ type: 'function_call_output', call_id: item.call_id, output: `ran ${item.call_id}` }]
        : [],
    );
    const history = first.output.flatMap(asInput);
    const second = await openai.responses.create({ ...ask, input: [user, ...history, ...outputs] });
    assert.equal(second.output_text, 'Both ran.');
    result = {
      items: first.output.map((item) => item.type),
      sent: upstream.callsTo(GOOD)[1]?.body?.messages,
    };
  });
  return result;
}

test('reasoning between parallel calls: the next turn sends one assistant message with both calls, then both results', async () => {
  const { items, sent } = await secondTurn([
    roleFrame(),
    reasoningFrame('First the listing.'),
    call(0, 'c1', 'ls'),
    reasoningFrame('Then where I am.'),
    call(1, 'c2', 'pwd'),
    finishFrame('tool_calls'),
  ]);
  assert.deepEqual(items, ['reasoning', 'function_call', 'reasoning', 'function_call']);
  assert.deepEqual(sent, [
    { role: 'user', content: 'List and locate.' },
    { role: 'assistant', content: null, tool_calls: [chatCall('c1', 'ls'), chatCall('c2', 'pwd')] },
    { role: 'tool', tool_call_id: 'c1', content: 'ran c1' },
    { role: 'tool', tool_call_id: 'c2', content: 'ran c2' },
  ]);
});

test('reasoning between the text and its call: the next turn sends them as one assistant message, then the result', async () => {
  const { items, sent } = await secondTurn([
    roleFrame(),
    contentFrame('Listing.'),
    reasoningFrame('The listing it is.'),
    call(0, 'c1', 'ls'),
    finishFrame('tool_calls'),
  ]);
  assert.deepEqual(items, ['message', 'reasoning', 'function_call']);
  assert.deepEqual(sent, [
    { role: 'user', content: 'List and locate.' },
    { role: 'assistant', content: 'Listing.', tool_calls: [chatCall('c1', 'ls')] },
    { role: 'tool', tool_call_id: 'c1', content: 'ran c1' },
  ]);
});

/**
 * One upstream chunk that says something (its role, reasoning, text) and ends with a tool call and its
 * finish reason reaches every face in the order it said it, as if it had come as a chunk of words and then
 * a chunk with the call and the ending: chat completions opens with the role, then the words, the call, the
 * finish reason; Messages' content is [thinking, text, tool_use], as Anthropic's SDK reads it; Responses'
 * output is [reasoning, message, function_call], and sent back with the call's output it makes one
 * assistant turn before the tool's result. The same holds for a call written into the chunk's text after
 * its words, and for a JSON answer to a stream request, which is replayed as such a chunk.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { askFace, FACES, type FaceDriver } from '../../test-support/face-answers.js';
import { sseData } from '../../test-support/http-client.js';
import { withScenario, type Scenario } from '../../test-support/scenario.js';
import { jsonBody, sse, type Behaviour } from '../../test-support/upstream-behaviours.js';
import { completion, usageFrame } from '../../test-support/upstream-frames.js';

const ONE = { providers: { alpha: ['m1'] } };
const MODEL = 'alpha/m1';
const TOOL = 'list_files';
const ARGS = '{"path":"."}';
const CALL = { id: 'call_1', type: 'function', function: { name: TOOL, arguments: ARGS } };

/** What the chunk says before its call: reasoning, text, or both (what the agent must get first). */
type Said = { reasoning_content?: string; content?: string };

/** A stream of one chunk whose delta is `delta` (with the role), finishing with `finish`, then usage and `[DONE]`. */
function oneChunk(delta: Record<string, unknown>, finish = 'tool_calls'): Behaviour {
  const chunk = {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'fake',
    choices: [{ index: 0, delta: { role: 'assistant', ...delta }, finish_reason: finish }],
  };
  return sse([chunk, usageFrame(5, 3)]);
}

/** One chunk that says `said`, calls `list_files` and finishes. */
const saysAndCalls = (said: Said): Behaviour => oneChunk({ ...said, tool_calls: [{ index: 0, ...CALL }] });

/** One chunk whose text is `said`'s words, then the call written as markup on its own line; it finishes. */
const writesTheCall = (said: Said): Behaviour =>
  oneChunk(
    {
      content: `${said.content ?? ''}\n<tool_call>\n{"name": "${TOOL}", "arguments": ${ARGS}}\n</tool_call>`,
    },
    'stop',
  );

/** A JSON completion saying `said` and calling `list_files`, whatever the request asked. */
function wholeAnswer(said: Said): Behaviour {
  const message = { role: 'assistant', ...said, tool_calls: [CALL] };
  return jsonBody(completion('', { choices: [{ index: 0, message, finish_reason: 'tool_calls' }] }));
}

const CASES: { name: string; said: Said; upstream: (said: Said) => Behaviour }[] = [
  {
    name: 'text, a tool call and the finish in one chunk',
    said: { content: 'Let me check.' },
    upstream: saysAndCalls,
  },
  {
    name: 'reasoning, a tool call and the finish in one chunk',
    said: { reasoning_content: 'The files first.' },
    upstream: saysAndCalls,
  },
  {
    name: 'words and a call written after them in one chunk with the finish',
    said: { content: 'Let me check.' },
    upstream: writesTheCall,
  },
  {
    name: 'a JSON answer with reasoning, text and a tool call to a stream request',
    said: { reasoning_content: 'The files first.', content: 'Let me check.' },
    upstream: wholeAnswer,
  },
];

type Obj = Record<string, unknown>;
const rec = (value: unknown): Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** What each chat chunk carries, in order: `role`, `reasoning`, `text`, `call <name>`, `finish <reason>`. */
function chatPieces(frames: readonly unknown[]): string[] {
  const pieces: string[] = [];
  for (const frame of frames) {
    if (frame === '[DONE]') pieces.push('[DONE]');
    const choice = rec(list(rec(frame).choices)[0]);
    const delta = rec(choice.delta);
    if (filled(delta.role)) pieces.push('role');
    if (filled(delta.reasoning_content)) pieces.push('reasoning');
    if (filled(delta.content)) pieces.push('text');
    for (const call of list(delta.tool_calls)) pieces.push(`call ${String(rec(rec(call).function).name)}`);
    if (filled(choice.finish_reason)) pieces.push(`finish ${String(choice.finish_reason)}`);
  }
  return pieces;
}

/** The kinds the agent must get, in order, named as a face names them: reasoning, words, the call. */
function inOrder(said: Said, [reasoning, text, call]: readonly [string, string, string]): string[] {
  return [
    ...(said.reasoning_content === undefined ? [] : [reasoning]),
    ...(said.content === undefined ? [] : [text]),
    call,
  ];
}

const face = (name: string): FaceDriver => FACES.find((driver) => driver.face === name) as FaceDriver;

async function chatOrder({ router }: Scenario, { said }: (typeof CASES)[number]): Promise<void> {
  const chat = face('chat');
  const reply = await askFace(router.url, chat, chat.body(true, 'What is here?', [TOOL]));
  assert.equal(reply.status, 200);
  const frames = sseData(reply.text);
  assert.equal(rec(rec(list(rec(frames[0]).choices)[0]).delta).role, 'assistant', 'the first chunk');
  assert.deepEqual(chatPieces(frames), [
    'role',
    ...inOrder(said, ['reasoning', 'text', `call ${TOOL}`]),
    'finish tool_calls',
    '[DONE]',
  ]);
}

async function messagesOrder({ router }: Scenario, { said }: (typeof CASES)[number]): Promise<void> {
  const client = new Anthropic({ baseURL: router.url, apiKey: 'any', maxRetries: 0 });
  const message = await client.messages
    .stream({
      model: 'fcm',
      max_tokens: 1024,
      thinking: { type: 'adaptive' },
      messages: [{ role: 'user', content: 'What is here?' }],
      tools: [{ name: TOOL, input_schema: { type: 'object', properties: {} } }],
    })
    .finalMessage();
  assert.deepEqual(
    message.content.map((block) => block.type),
    inOrder(said, ['thinking', 'text', 'tool_use']),
  );
  assert.equal(message.stop_reason, 'tool_use');
}

async function responsesOrder(scenario: Scenario, { said }: (typeof CASES)[number]): Promise<void> {
  const { router, upstream } = scenario;
  const responses = face('responses');
  const reply = await askFace(router.url, responses, responses.body(true, 'What is here?', [TOOL]));
  const events = sseData(reply.text).map(rec);
  const added = events.filter((event) => event.type === 'response.output_item.added');
  const expected = inOrder(said, ['reasoning', 'message', 'function_call']);
  assert.deepEqual(
    added.map((event) => rec(event.item).type),
    expected,
  );
  const done = events.find((event) => event.type === 'response.completed');
  const output = list(rec(done?.response).output);
  assert.deepEqual(
    output.map((item) => rec(item).type),
    expected,
  );
  // Codex sends the output back with the call's result: one assistant turn (words and call), then the tool.
  const callId = rec(output.at(-1)).call_id;
  const back = [...output, { type: 'function_call_output', call_id: callId, output: 'README.md' }];
  const input = [{ role: 'user', content: 'What is here?' }, ...back];
  await askFace(router.url, responses, { ...responses.body(false, '', [TOOL]), input });
  const messages = list(upstream.callsTo(MODEL).at(-1)?.body?.messages).map(rec);
  assert.deepEqual(
    messages.map((message) => message.role),
    ['user', 'assistant', 'tool'],
  );
  assert.equal(rec(list(messages[1]?.tool_calls)[0]).id, callId);
  assert.equal(messages[1]?.content ?? '', rec(done?.response).output_text);
}

const FACE_CHECKS = { chat: chatOrder, messages: messagesOrder, responses: responsesOrder };

for (const [name, check] of Object.entries(FACE_CHECKS)) {
  for (const one of CASES) {
    test(`${name} stream: ${one.name} reaches the agent words first, then the call`, async () => {
      await withScenario(ONE, async (scenario) => {
        scenario.upstream.always(MODEL, one.upstream(one.said));
        await check(scenario, one);
        assert.equal(scenario.router.lastEntry().outcome, 'served');
      });
    });
  }
}

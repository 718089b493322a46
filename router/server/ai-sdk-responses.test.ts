/**
 * The Vercel AI SDK's `openai.responses()` with its default settings, through a started router: a
 * three-turn conversation with a tool loop in each of the first two turns, the second one streamed. The SDK
 * refers to its earlier reasoning and messages by `item_reference`; the fake upstream answers from the
 * conversation it receives, so each step needs the items of the earlier ones (the tool call it asked for,
 * the tool's result, what it said before).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool, type ModelMessage } from 'ai';
import { z } from 'zod';
import { withScenario } from '../test-support/scenario.js';
import { jsonBody, sse, type Behaviour, type UpstreamCall } from '../test-support/upstream-behaviours.js';
import { finishFrame, roleFrame } from '../test-support/upstream-frames.js';

const MODEL = 'good/coder';
const FILES: Record<string, string> = { 'a.txt': '42', 'b.txt': '58' };

interface SentMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

/** The model's turn: reasoning, text and at most one tool call, streamed or whole as the request asks. */
function reply(call: UpstreamCall, turn: { reasoning?: string; text: string; read?: string }): Behaviour {
  const toolCalls = turn.read
    ? [
        {
          index: 0,
          id: `call_${turn.read.replace('.', '_')}`,
          type: 'function',
          function: { name: 'read_file', arguments: JSON.stringify({ path: turn.read }) },
        },
      ]
    : undefined;
  const finish = toolCalls ? 'tool_calls' : 'stop';
  if (call.body?.stream === true) {
    const delta = (fields: Record<string, unknown>) => ({
      choices: [{ index: 0, delta: fields, finish_reason: null }],
    });
    return sse([
      roleFrame(),
      ...(turn.reasoning ? [delta({ reasoning_content: turn.reasoning })] : []),
      delta({ content: turn.text }),
      ...(toolCalls ? [delta({ tool_calls: toolCalls })] : []),
      finishFrame(finish),
    ]);
  }
  const message = {
    role: 'assistant',
    reasoning_content: turn.reasoning,
    content: turn.text,
    tool_calls: toolCalls,
  };
  return jsonBody({
    id: 'chatcmpl-x',
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: finish }],
  });
}

/** What the tool call `id` asked to read, found in the assistant turns the request carries. */
function askedToRead(messages: readonly SentMessage[], id: string | undefined): string | undefined {
  for (const message of messages) {
    const call = message.tool_calls?.find((candidate) => candidate.id === id);
    if (call) return (JSON.parse(call.function.arguments) as { path: string }).path;
  }
  return undefined;
}

/**
 * A model that reads the conversation it is sent: a question about a file is answered with a tool call,
 * a tool result with what the file named in the matching call holds, and "add them up" with the sum of
 * what it said the files hold. Without the earlier items it cannot answer, and says so with a 400.
 */
const conversationalModel: Behaviour = (res, call) => {
  const messages = (call.body?.messages ?? []) as SentMessage[];
  const last = messages.at(-1);
  const refuse = (why: string): Promise<void> | void =>
    jsonBody({ error: { message: why, type: 'invalid_request_error' } }, 400)(res, call);
  if (last?.role === 'tool') {
    const file = askedToRead(messages, last.tool_call_id);
    if (!file) return refuse('a tool result for a call this conversation does not hold');
    return reply(call, { text: `${file} holds ${String(last.content)}.` })(res, call);
  }
  const asked = typeof last?.content === 'string' ? last.content : '';
  const file = Object.keys(FILES).find((name) => asked.includes(name));
  if (file)
    return reply(call, { reasoning: `I should read ${file}.`, text: `Reading ${file}.`, read: file })(
      res,
      call,
    );
  const said = messages
    .filter((message) => message.role === 'assistant' && typeof message.content === 'string')
    .map((message) => /holds (\d+)/.exec(String(message.content))?.[1])
    .filter((value): value is string => value !== undefined);
  if (said.length < 2) return refuse('nothing to add up: the earlier answers are missing');
  return reply(call, { text: `Together ${said.reduce((sum, value) => sum + Number(value), 0)}.` })(res, call);
};

const readFile = tool({
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: ({ path }) => Promise.resolve(FILES[path] ?? 'no such file'),
});

/** What the SDK sent the router, as far as these tests read it. */
interface SentBody {
  input?: { type?: string; encrypted_content?: unknown }[];
  store?: unknown;
  include?: unknown;
}

/** The whole conversation the upstream must get by the third turn. */
const WHOLE_CONVERSATION = [
  { role: 'user', content: 'What is in a.txt?' },
  {
    role: 'assistant',
    content: 'Reading a.txt.',
    tool_calls: [
      { id: 'call_a_txt', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_a_txt', content: '42' },
  { role: 'assistant', content: 'a.txt holds 42.' },
  { role: 'user', content: 'And b.txt?' },
  {
    role: 'assistant',
    content: 'Reading b.txt.',
    tool_calls: [
      { id: 'call_b_txt', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.txt"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_b_txt', content: '58' },
  { role: 'assistant', content: 'b.txt holds 58.' },
  { role: 'user', content: 'Add them up.' },
];

/**
 * Three turns through the router at `url` (the second streamed), each asserted on its answer; `openaiOptions`
 * are the SDK's provider options (none: its defaults). The model's reasoning reaches the SDK as text only when
 * they ask for its summary, as with OpenAI's own models. Returns the bodies the SDK sent.
 */
async function converse(url: string, openaiOptions?: Record<string, string | boolean>): Promise<SentBody[]> {
  // The SDK's own fetch, watched: what it sends is left as it is.
  const sent: SentBody[] = [];
  const watched: typeof fetch = (input, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as SentBody);
    return fetch(input, init);
  };
  const model = createOpenAI({ baseURL: `${url}/v1`, apiKey: 'any', fetch: watched }).responses('fcm');
  const settings = {
    model,
    tools: { read_file: readFile },
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    ...(openaiOptions ? { providerOptions: { openai: openaiOptions } } : {}),
  };
  const messages: ModelMessage[] = [{ role: 'user', content: 'What is in a.txt?' }];

  const first = await generateText({ ...settings, messages });
  assert.equal(first.text, 'a.txt holds 42.');
  assert.equal(first.steps.length, 2);
  const reasoning = first.steps[0]?.content.find((part) => part.type === 'reasoning');
  const shown = openaiOptions?.reasoningSummary === undefined ? '' : 'I should read a.txt.';
  assert.equal(reasoning?.type === 'reasoning' ? reasoning.text : null, shown);
  messages.push(...first.response.messages, { role: 'user', content: 'And b.txt?' });

  const second = streamText({ ...settings, messages });
  assert.equal(await second.text, 'b.txt holds 58.');
  assert.equal((await second.steps).length, 2);
  messages.push(...(await second.response).messages, { role: 'user', content: 'Add them up.' });

  const third = await generateText({ ...settings, messages });
  assert.equal(third.text, 'Together 100.');
  return sent;
}

const referencesIn = (sent: readonly SentBody[]): (number | undefined)[] =>
  sent.map((body) => body.input?.filter((item) => item.type === 'item_reference').length);

test('ai sdk: openai.responses() holds a three-turn conversation with tool loops through the router, default settings', async () => {
  await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
    upstream.always(MODEL, conversationalModel);
    const sent = await converse(router.url);
    // The SDK referred to its earlier reasoning and messages by id (its default, `store` unsent), and the
    // router expanded them: the upstream got the whole conversation.
    assert.ok(sent.every((body) => body.store === undefined));
    assert.deepEqual(referencesIn(sent), [0, 2, 3, 5, 6]);
    assert.equal(upstream.calls.length, 5);
    assert.deepEqual(upstream.calls.at(-1)?.body?.messages, WHOLE_CONVERSATION);
    assert.deepEqual(
      router.router.history(10).entries.map((entry) => `${entry.api}:${entry.outcome}`),
      Array(5).fill('responses:served'),
    );
  });
});

test('ai sdk: with `store: false` and a reasoning model the SDK sends the conversation whole; reasoning stays behind', async () => {
  await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
    upstream.always(MODEL, conversationalModel);
    const sent = await converse(router.url, { store: false, forceReasoning: true, reasoningSummary: 'auto' });
    assert.ok(sent.every((body) => body.store === false));
    assert.ok(sent.every((body) => JSON.stringify(body.include) === '["reasoning.encrypted_content"]'));
    assert.deepEqual(referencesIn(sent), [0, 0, 0, 0, 0]);
    // The router's reasoning items carry no `encrypted_content` (it never sends earlier reasoning upstream),
    // so the SDK leaves them out, with its warning, rather than believing they are carried.
    assert.ok(sent.every((body) => !body.input?.some((item) => item.type === 'reasoning')));
    assert.deepEqual(upstream.calls.at(-1)?.body?.messages, WHOLE_CONVERSATION);
  });
});

/**
 * What the chat face changes of an agent's body, and nothing more. A tool's `$schema` never goes upstream
 * (Google's API refuses it as an unknown field, so every request with one is a 400 there): OpenCode writes
 * it into each tool on the chat face, Claude Code into each `input_schema`. A tool result sent as text parts
 * (Qwen Code) goes up as one string, which every upstream reads. A message that says nothing is left out
 * (Google's API refuses it). A body with none of these goes up as it came.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../faces/test-kit.js';
import { withoutBlankMessages, withTextContent } from '../faces/text-content.js';
import { withoutSchemaMarks } from '../faces/tool-parameters.js';
import { agentModel } from '../test-support/agent-model.js';
import { httpRequest } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { jsonBody, type Behaviour } from '../test-support/upstream-behaviours.js';
import { completion } from '../test-support/upstream-frames.js';

type Tool = { function?: { name?: string; parameters?: Record<string, unknown> } };

const MODEL = 'host/gemini-2.5-flash';

async function sentTools(name: string): Promise<{ recorded: Record<string, unknown>; sent: Tool[] }> {
  let sent: Tool[] = [];
  const recorded = fixture(name);
  await withScenario({ providers: { host: ['gemini-2.5-flash'] } }, async ({ router, upstream }) => {
    upstream.always(MODEL, agentModel());
    const reply = await httpRequest(`${router.url}${recorded.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(recorded.body),
    });
    assert.equal(reply.status, 200, `${name}: ${reply.text.slice(0, 300)}`);
    sent = (upstream.calls[0]?.body?.tools ?? []) as Tool[];
  });
  return { recorded: recorded.body, sent };
}

test("OpenCode's tools on the chat face go up without `$schema`, and otherwise as OpenCode wrote them", async () => {
  const { recorded, sent } = await sentTools('opencode-1.18.33.tool-result-turn.json');
  const own = recorded.tools as Tool[];
  assert.ok(own.filter((tool) => tool.function?.parameters?.$schema !== undefined).length >= 10);
  assert.equal(sent.length, own.length);
  sent.forEach((tool, at) => {
    const { $schema: _unused, ...parameters } = own[at]?.function?.parameters ?? {};
    assert.deepEqual(tool, { ...own[at], function: { ...own[at]?.function, parameters } });
  });
});

test("Claude Code's tools on the Messages face go up without `$schema`", async () => {
  const { sent } = await sentTools('claude-code-2.1.332.tool-result-turn.json');
  assert.ok(sent.length > 5);
  for (const tool of sent) assert.equal(Object.hasOwn(tool.function?.parameters ?? {}, '$schema'), false);
});

test('a chat body whose tools carry no `$schema` is the same body, not a copy', () => {
  const body = {
    model: 'fcm',
    messages: [],
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
  };
  assert.equal(withoutSchemaMarks(body), body);
  assert.equal(withoutSchemaMarks({ model: 'fcm', messages: [] }).tools, undefined);
});

test("Qwen Code's tool results, sent as text parts, go up as one string; its user message keeps its parts", async () => {
  const recorded = fixture('qwen-code-0.24.4.tool-result-turn.json');
  await withScenario({ providers: { host: ['qwen3-coder'] } }, async ({ router, upstream }) => {
    upstream.always('host/qwen3-coder', agentModel());
    const reply = await httpRequest(`${router.url}${recorded.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(recorded.body),
    });
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    // The fake model answers with what the command printed only when it can read the tool's output.
    assert.match(reply.text, /fcm-agent-fixture/);
    const own = recorded.body.messages as { role: string; content: unknown }[];
    const sent = (upstream.calls[0]?.body?.messages ?? []) as { role: string; content: unknown }[];
    assert.equal(sent.length, own.length);
    sent.forEach((message, at) => {
      const mine = own[at];
      if (message.role !== 'tool') return assert.deepEqual(message, mine);
      const parts = mine?.content as { text: string }[];
      assert.ok(Array.isArray(parts));
      assert.deepEqual(message, { ...mine, content: parts.map((part) => part.text).join('\n') });
    });
  });
});

test("text parts that carry more than their text and a user's parts stay as the agent wrote them", () => {
  const marked = [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }];
  const body = {
    messages: [
      { role: 'system', content: marked },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'tool', tool_call_id: 'c', content: 'done' },
    ],
  };
  assert.equal(withTextContent(body), body);
  const two = withTextContent({
    messages: [
      {
        role: 'system',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ],
  });
  assert.deepEqual(two, { messages: [{ role: 'system', content: 'a\nb' }] });
});

type Sent = { role: string; content?: unknown; tool_calls?: unknown[] };

/** Google's API on a message without words: "contents.parts must not be empty". */
const refusesBlankMessages: Behaviour = (res, call) => {
  const messages = ((call.body as { messages?: Sent[] } | null)?.messages ?? []) as Sent[];
  const blank = messages.some(
    (m) =>
      m.role !== 'tool' && !m.tool_calls?.length && (m.content ?? '') === '' && !Array.isArray(m.content),
  );
  const refusal = {
    error: {
      code: 400,
      message: '* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.',
    },
  };
  return jsonBody(blank ? refusal : completion('ok'), blank ? 400 : 200)(res, call);
};

test('a message that says nothing is not sent on the chat face: a strict upstream serves the turn at its first attempt', async () => {
  await withScenario({ providers: { host: [MODEL.split('/')[1] ?? ''] } }, async ({ router, upstream }) => {
    upstream.always(MODEL, refusesBlankMessages);
    const call = { id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } };
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'list the files' },
      { role: 'assistant', content: '' },
      { role: 'user', content: [{ type: 'text', text: ' ' }] },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'c1', content: '' },
      { role: 'assistant', content: '\n' },
      { role: 'user', content: 'and now?' },
    ];
    const reply = await httpRequest(`${router.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fcm', messages }),
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(router.lastEntry().attempts.length, 1);
    const sent = (upstream.calls[0]?.body?.messages ?? []) as Sent[];
    const result = { ...messages[5], content: '(no output)' };
    assert.deepEqual(sent, [messages[0], messages[1], messages[4], result, messages[7]]);
  });
});

test('a body with no blank message, or with nothing else to say, is the same body', () => {
  const spoken = {
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'c', content: '' },
    ],
  };
  assert.equal(withoutBlankMessages(spoken), spoken);
  const silent = {
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: '' },
    ],
  };
  assert.equal(withoutBlankMessages(silent), silent);
  const audio = {
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, audio: { id: 'a1' } },
    ],
  };
  assert.equal(withoutBlankMessages(audio), audio);
});

test('a tool result that says nothing says "(no output)", as on the other faces; its message stays', () => {
  const results = ['', ' \n', [], [{ type: 'text', text: '' }], null].map((content, at) => ({
    role: 'tool',
    tool_call_id: `c${at}`,
    content,
  }));
  const sent = withTextContent({ messages: results }).messages as {
    tool_call_id: string;
    content: unknown;
  }[];
  assert.deepEqual(
    sent.map((message) => [message.tool_call_id, message.content]),
    results.map((message) => [message.tool_call_id, '(no output)']),
  );
});

/**
 * Gemini 3 on Google's API refuses a request whose current turn holds a tool call without its thought
 * signature (a 400, "Function call is missing a thought_signature"). Agents send their tool calls back
 * without one: Claude Code and Codex speak protocols with no place for it, and chat agents drop fields
 * they do not know. Each agent's recorded tool-result turn, replayed at the real router, is served by a
 * Gemini model on Google's API, the upstream here checking signatures as Google does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayFixture, TOOL_RESULT_TURNS } from '../faces/test-kit.js';
import { agentModel } from '../test-support/agent-model.js';
import { httpRequest } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { geminiOnGoogle, unsignedToolTurns } from '../test-support/google-model.js';
import { STAND_IN_SIGNATURE } from '../upstream/gemini-conversation.js';

type Message = { role?: unknown; tool_calls?: unknown };

test("each agent's tool-result turn is served by a Gemini 3 model on Google's API", async () => {
  await withScenario({ providers: { googleai: ['gemini-3.5-flash'] } }, async ({ router, upstream }) => {
    upstream.always('googleai/gemini-3.5-flash', geminiOnGoogle());
    for (const name of TOOL_RESULT_TURNS) {
      const before = upstream.calls.length;
      const reply = await replayFixture(router.url, name);
      assert.equal(reply.status, 200, `${name}: ${reply.text.slice(0, 300)}`);
      assert.equal(upstream.calls.length, before + 1, `${name}: one call, taken`);
      const messages = (upstream.calls[before]?.body?.messages ?? []) as Message[];
      assert.ok(
        messages.some((message) => message.role === 'assistant' && Array.isArray(message.tool_calls)),
        `${name}: the tool call went up`,
      );
      assert.deepEqual(
        unsignedToolTurns(messages),
        [],
        `${name}: every tool-calling turn carries a signature`,
      );
    }
  });
});

test("a signature the agent sent back goes up as it came; other providers' models get no signature", async () => {
  const signature = 'CrICAdHtim827fQ';
  const body = {
    model: 'fcm',
    tools: [{ type: 'function', function: { name: 'ls', parameters: { type: 'object', properties: {} } } }],
    messages: [
      { role: 'user', content: 'List the files.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'function-call-1',
            type: 'function',
            function: { name: 'ls', arguments: '{}' },
            extra_content: { google: { thought_signature: signature } },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'function-call-1', content: 'a.ts' },
    ],
  };
  const post = (url: string) =>
    httpRequest(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await withScenario({ providers: { googleai: ['gemini-3.5-flash'] } }, async ({ router, upstream }) => {
    upstream.always('googleai/gemini-3.5-flash', geminiOnGoogle());
    assert.equal((await post(router.url)).status, 200);
    const sent = (upstream.calls[0]?.body?.messages ?? []) as Message[];
    assert.deepEqual(sent[1], body.messages[1]);
  });
  await withScenario({ providers: { host: ['qwen3-coder'] } }, async ({ router, upstream }) => {
    upstream.always('host/qwen3-coder', agentModel());
    const reply = await replayFixture(router.url, 'codex-0.171.0.tool-output-turn.json');
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    const messages = (upstream.calls[0]?.body?.messages ?? []) as Message[];
    assert.ok(unsignedToolTurns(messages).length > 0, 'the tool calls went up as the face made them');
    assert.ok(!JSON.stringify(upstream.calls[0]?.body).includes(STAND_IN_SIGNATURE));
  });
});

/**
 * Mistral's models take a conversation only by Mistral's rules (tool call ids of nine letters and digits, no
 * user message right after a tool result) and refuse anything else with a 400. Each agent's recorded
 * tool-result turn, replayed at the real router, is served by a Mistral model on Mistral's own API and by
 * one served elsewhere, the upstream here checking those rules as Mistral does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayFixture, TOOL_RESULT_TURNS } from '../faces/test-kit.js';
import { agentModel } from '../test-support/agent-model.js';
import { withScenario } from '../test-support/scenario.js';
import { jsonBody, type Behaviour } from '../test-support/upstream-behaviours.js';

type Message = { role?: unknown; tool_call_id?: unknown; tool_calls?: unknown };

const isMistralId = (id: unknown): boolean => typeof id === 'string' && /^[A-Za-z0-9]{9}$/.test(id);

/** What Mistral says of a conversation it refuses, or null when it takes it. */
function mistralRefusal(messages: readonly Message[]): string | null {
  const announced = new Set<unknown>();
  let previous: unknown = null;
  for (const message of messages) {
    const ids =
      message.role === 'tool'
        ? [message.tool_call_id]
        : Array.isArray(message.tool_calls)
          ? message.tool_calls.map((call: { id?: unknown }) => call.id)
          : [];
    const bad = ids.find((id) => !isMistralId(id));
    if (bad !== undefined)
      return `Tool call id was ${String(bad)} but must be a-z, A-Z, 0-9, with a length of 9.`;
    if (message.role === 'tool' && !announced.has(message.tool_call_id)) return 'Unexpected tool call id';
    for (const id of message.role === 'assistant' ? ids : []) announced.add(id);
    if (message.role === 'user' && previous === 'tool') return "Unexpected role 'user' after role 'tool'";
    previous = message.role;
  }
  return null;
}

/** A Mistral model: the agent model's answers to what Mistral takes, Mistral's 400 to the rest. */
function mistral(): Behaviour {
  const answer = agentModel();
  return (res, call) => {
    const messages = Array.isArray(call.body?.messages) ? (call.body.messages as Message[]) : [];
    const refusal = mistralRefusal(messages);
    if (refusal === null) return answer(res, call);
    return jsonBody({ object: 'error', message: refusal, type: 'invalid_request_message_order' }, 400)(
      res,
      call,
    );
  };
}

for (const [where, model] of [
  ["Mistral's own API", 'mistral/mistral-small-latest'],
  ['another host', 'host/devstral-small-2505'],
] as const) {
  test(`each agent's tool-result turn is served by a Mistral model on ${where}`, async () => {
    const [provider = '', id = ''] = model.split('/');
    await withScenario({ providers: { [provider]: [id] } }, async ({ router, upstream }) => {
      upstream.always(model, mistral());
      for (const name of TOOL_RESULT_TURNS) {
        const before = upstream.calls.length;
        const reply = await replayFixture(router.url, name);
        assert.equal(reply.status, 200, `${name}: ${reply.text.slice(0, 300)}`);
        const [sent] = upstream.calls.slice(before);
        assert.equal(upstream.calls.length, before + 1, `${name}: one call, taken`);
        const messages = (sent?.body?.messages ?? []) as Message[];
        assert.equal(mistralRefusal(messages), null, name);
        assert.ok(
          messages.some((message) => message.role === 'tool'),
          `${name}: the tool result went up`,
        );
      }
    });
  });
}

test("a model that is not Mistral's gets the agent's ids and order as they were", async () => {
  await withScenario({ providers: { host: ['qwen3-coder'] } }, async ({ router, upstream }) => {
    upstream.always('host/qwen3-coder', agentModel());
    const reply = await replayFixture(router.url, 'claude-code-2.1.332.tool-result-turn.json');
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    const messages = (upstream.calls[0]?.body?.messages ?? []) as Message[];
    assert.match(String(mistralRefusal(messages)), /^Tool call id was toolu_/);
  });
});

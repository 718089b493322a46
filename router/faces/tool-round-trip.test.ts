/**
 * Tool ids across turns: the id a face gives a tool call (the upstream's, or one it minted) comes back in
 * the agent's next request, and must reach the upstream as the same id on both the call and its result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessagesEncoder } from './anthropic-encoder.js';
import { translateMessagesRequest } from './anthropic-request.js';
import { ResponsesEncoder } from './responses-encoder.js';
import { translateResponsesRequest } from './responses-request.js';
import { chunk, completion, fixture, gated, parseSse, runStream, toolPiece } from './test-kit.js';

/** The content blocks a client rebuilds from a Messages stream. */
function streamedBlocks(sse: string): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  const json: string[] = [];
  for (const e of parseSse(sse)) {
    if (e.event === 'content_block_start') {
      blocks.push({ ...(e.data.content_block as Record<string, unknown>) });
      json.push('');
    }
    const delta = e.data.delta as Record<string, string> | undefined;
    if (e.event === 'content_block_delta' && delta?.type === 'input_json_delta')
      json[json.length - 1] += delta.partial_json ?? '';
  }
  return blocks.map((block, i) =>
    block.type === 'tool_use' ? { ...block, input: JSON.parse(json[i] || '{}') as unknown } : block,
  );
}

for (const upstreamId of ['call_up_1', null]) {
  test(`messages: a tool_use id (${upstreamId ?? 'minted'}) reaches the upstream again as call and result id`, () => {
    const claude = fixture('claude-code-2.1.332.first-turn.json').body as { messages: unknown[] };
    const sse = runStream(new MessagesEncoder({ idStem: 'req1', model: 'fcm' }), [
      chunk({ tool_calls: [toolPiece(0, upstreamId, 'Bash', '{"command":"echo hi"}')] }, 'tool_calls'),
    ]);
    const blocks = streamedBlocks(sse);
    const toolUse = blocks.find((block) => block.type === 'tool_use') as { id: string; input: unknown };
    assert.deepEqual(toolUse.input, { command: 'echo hi' });
    if (upstreamId) assert.equal(toolUse.id, upstreamId);
    const next = translateMessagesRequest({
      ...claude,
      messages: [
        ...claude.messages,
        { role: 'assistant', content: blocks },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'hi', is_error: false }],
        },
      ],
    });
    assert.ok(next.ok);
    const [assistant, result] = next.chat.messages.slice(-2);
    assert.ok(assistant?.role === 'assistant' && result?.role === 'tool');
    assert.equal(assistant.tool_calls?.[0]?.id, toolUse.id);
    assert.equal(result.tool_call_id, toolUse.id);
  });
}

test('messages: ids minted for a JSON answer are the ones the next turn sends back', () => {
  const message = JSON.parse(
    new MessagesEncoder({ idStem: 'req2', model: 'fcm' }).json(
      gated(
        completion(
          { tool_calls: [{ type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } }] },
          'tool_calls',
        ),
      ),
    ),
  ) as { content: { type: string; id: string }[] };
  const toolUse = message.content[0];
  assert.ok(toolUse?.type === 'tool_use');
  const next = translateMessagesRequest({
    model: 'fcm',
    max_tokens: 100,
    messages: [
      { role: 'user', content: 'list' },
      { role: 'assistant', content: message.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'a' }] },
    ],
  });
  assert.ok(next.ok);
  assert.deepEqual(
    next.chat.messages
      .slice(1)
      .map((m) =>
        m.role === 'assistant' ? m.tool_calls?.[0]?.id : m.role === 'tool' ? m.tool_call_id : null,
      ),
    [toolUse.id, toolUse.id],
  );
});

for (const upstreamId of ['call_up_2', null]) {
  test(`responses: a function_call call_id (${upstreamId ?? 'minted'}) and its namespace survive the next turn`, () => {
    const codex = fixture('codex-0.171.0.first-turn.json').body as { input: unknown[] };
    const first = translateResponsesRequest(codex);
    assert.ok(first.ok);
    const sse = runStream(
      new ResponsesEncoder({ idStem: 'req3', model: 'fcm', createdAt: 1, toolNames: first.toolNames }),
      [
        chunk(
          { tool_calls: [toolPiece(0, upstreamId, 'multi_agent_v1__wait_agent', '{"targets":[]}')] },
          'tool_calls',
        ),
      ],
    );
    const done = parseSse(sse).find((e) => e.event === 'response.output_item.done')?.data.item as Record<
      string,
      string
    >;
    assert.equal(done.name, 'wait_agent');
    assert.equal(done.namespace, 'multi_agent_v1');
    if (upstreamId) assert.equal(done.call_id, upstreamId);
    const next = translateResponsesRequest({
      ...codex,
      input: [
        ...codex.input,
        done,
        { type: 'function_call_output', call_id: done.call_id, output: 'timed out' },
      ],
    });
    assert.ok(next.ok);
    const [assistant, result] = next.chat.messages.slice(-2);
    assert.ok(assistant?.role === 'assistant' && result?.role === 'tool');
    assert.deepEqual(assistant.tool_calls?.[0], {
      id: done.call_id,
      type: 'function',
      function: { name: 'multi_agent_v1__wait_agent', arguments: '{"targets":[]}' },
    });
    assert.equal(result.tool_call_id, done.call_id);
  });
}

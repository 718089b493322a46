import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyPresetOf } from '../catalogue/body-presets.js';
import { applyBodyPreset } from './body-presets.js';
import { ASSISTANT_END_BRIDGE, mistralConversation, TOOL_TO_USER_BRIDGE } from './mistral-conversation.js';

const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

const call = (id: string, name = 'Bash') => ({
  id,
  type: 'function',
  function: { name, arguments: '{"command":"ls"}' },
});

/** A Claude Code turn as the Messages face gives it: a tool call, its result, then the reminder text. */
const claudeTurn = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'List the files.' },
  {
    role: 'assistant',
    content: 'Listing.',
    tool_calls: [call('toolu_01XyZabc123def456'), call('toolu_01XyZabc999')],
  },
  { role: 'tool', tool_call_id: 'toolu_01XyZabc123def456', content: 'a.ts' },
  { role: 'tool', tool_call_id: 'toolu_01XyZabc999', content: 'b.ts' },
  { role: 'user', content: '<system-reminder>Keep going.</system-reminder>' },
];

test('every tool call id becomes nine letters and digits, and each result keeps matching its call', () => {
  const out = mistralConversation(claudeTurn) as Record<string, unknown>[];
  const calls = out[2]?.tool_calls as { id: string }[];
  const [first, second] = calls.map((c) => c.id);
  assert.ok(first && second);
  assert.match(first, MISTRAL_ID);
  assert.match(second, MISTRAL_ID);
  assert.notEqual(first, second);
  assert.equal(out[3]?.tool_call_id, first);
  assert.equal(out[4]?.tool_call_id, second);
  // The same ids give the same ones in the next request: a conversation's history reads the same each turn.
  assert.deepEqual(mistralConversation(claudeTurn), out);
});

test('a user message right after a tool result gets a short assistant turn before it; other orders stay', () => {
  const out = mistralConversation(claudeTurn) as Record<string, unknown>[];
  assert.deepEqual(
    out.map((message) => message.role),
    ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user'],
  );
  assert.deepEqual(out[5], { role: 'assistant', content: TOOL_TO_USER_BRIDGE });
  const answered = [...claudeTurn.slice(0, 5), { role: 'assistant', content: 'Two files.' }, claudeTurn[5]];
  assert.deepEqual(
    (mistralConversation(answered) as Record<string, unknown>[]).map((message) => message.role),
    ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user'],
  );
});

test("a conversation ending on the assistant's words gets a short user turn after them; other endings stay", () => {
  // OpenCode's last allowed step: its tool results, then an assistant message telling the model to wrap up.
  const wrapUp = [
    ...claudeTurn.slice(0, 5),
    { role: 'assistant', content: 'CRITICAL - MAXIMUM STEPS REACHED' },
  ];
  const out = mistralConversation(wrapUp) as Record<string, unknown>[];
  assert.deepEqual(
    out.map((message) => message.role),
    ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user'],
  );
  assert.equal(out[5]?.content, 'CRITICAL - MAXIMUM STEPS REACHED');
  assert.deepEqual(out[6], { role: 'user', content: ASSISTANT_END_BRIDGE });
  const parts = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'Hel' }] },
  ];
  assert.equal((mistralConversation(parts).at(-1) as { role: string }).role, 'user');

  // A continuation Mistral was asked for, and tool calls the agent has yet to answer, are left as they are.
  const prefixed = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Hel', prefix: true },
  ];
  assert.deepEqual(mistralConversation(prefixed), prefixed);
  const calling = [
    { role: 'user', content: 'ls' },
    { role: 'assistant', content: null, tool_calls: [call('Ab3dE6gH9')] },
  ];
  assert.deepEqual(mistralConversation(calling), calling);
  assert.deepEqual(mistralConversation(claudeTurn).at(-1), claudeTurn.at(-1));
});

test("an id that is Mistral's already is kept, and the conversation given is not changed", () => {
  const own = [
    { role: 'assistant', content: null, tool_calls: [call('Ab3dE6gH9')] },
    { role: 'tool', tool_call_id: 'Ab3dE6gH9', content: 'ok' },
  ];
  const before = structuredClone(claudeTurn);
  assert.deepEqual(mistralConversation(own), own);
  mistralConversation(claudeTurn);
  assert.deepEqual(claudeTurn, before);
});

test('two ids never end up as one, even when an id already in use is the one another would be given', () => {
  const hashed = (
    mistralConversation([{ role: 'tool', tool_call_id: 'call_a', content: '' }])[0] as {
      tool_call_id: string;
    }
  ).tool_call_id;
  const out = mistralConversation([
    { role: 'assistant', content: null, tool_calls: [call('call_a'), call(hashed)] },
    { role: 'tool', tool_call_id: 'call_a', content: '1' },
    { role: 'tool', tool_call_id: hashed, content: '2' },
  ]) as Record<string, unknown>[];
  const ids = (out[0]?.tool_calls as { id: string }[]).map((c) => c.id);
  assert.equal(new Set(ids).size, 2);
  for (const id of ids) assert.match(id, MISTRAL_ID);
  assert.deepEqual([out[1]?.tool_call_id, out[2]?.tool_call_id], ids);
});

test("Mistral's own API gets its parameters dropped and the conversation rules; a Mistral model elsewhere only the rules", () => {
  const body = { model: 'fcm', parallel_tool_calls: true, temperature: 1.5, messages: claudeTurn };
  const platform = applyBodyPreset(body, 'mistral', null);
  assert.equal('parallel_tool_calls' in platform, false);
  assert.equal(platform.temperature, 1);
  assert.deepEqual(platform.messages, mistralConversation(claudeTurn));
  const elsewhere = applyBodyPreset(body, 'mistral-model', null);
  assert.equal(elsewhere.parallel_tool_calls, true);
  assert.equal(elsewhere.temperature, 1.5);
  assert.deepEqual(elsewhere.messages, mistralConversation(claudeTurn));
  // Z.ai's preset drops the parameters and keeps the agent's ids and order.
  const strict = applyBodyPreset(body, 'strict', null);
  assert.equal('parallel_tool_calls' in strict, false);
  assert.deepEqual(strict.messages, claudeTurn);
});

test("Mistral's models are known by their ids on any provider; others take their provider's preset or none", () => {
  for (const id of [
    'mistral-small-3.2-24b-instruct-2506',
    '@cf/mistralai/mistral-small-3.1-24b-instruct',
    'mistralai/mistral-nemotron',
    'codestral-latest',
    'devstral-small-2505',
    'mistral/leanstral-1-5',
    'magistral-medium-1-2-25-09',
    'ministral-3-8b-25-12',
    'mistral-Nemo-Instruct-2407',
    'mistral-large-3:675b',
  ])
    assert.equal(bodyPresetOf(null, id), 'mistral-model', id);
  for (const id of ['llama-3.3-70b', 'qwen3-coder', 'zai/glm-4.6', 'gpt-oss-120b'])
    assert.equal(bodyPresetOf(null, id), null, id);
  assert.equal(bodyPresetOf('mistral', 'zai-glm-5-2'), 'mistral');
  assert.equal(bodyPresetOf('strict', 'glm-4.6'), 'strict');
});

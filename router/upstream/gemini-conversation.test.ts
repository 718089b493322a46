import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyPresetOf } from '../catalogue/body-presets.js';
import { applyBodyPreset } from './body-presets.js';
import { geminiConversation, STAND_IN_SIGNATURE } from './gemini-conversation.js';
import { thoughtSignatureOf, ThoughtSignatures } from './thought-signatures.js';

const call = (id: string, extra?: Record<string, unknown>) => ({
  id,
  type: 'function',
  function: { name: 'Bash', arguments: '{"command":"ls"}' },
  ...(extra ? { extra_content: extra } : {}),
});

const turn = (calls: unknown[]) => ({ role: 'assistant', content: null, tool_calls: calls });

test("a turn's tool calls without a signature get Google's stand-in on the first call only", () => {
  const messages = [
    { role: 'user', content: 'List the files.' },
    turn([call('toolu_01'), call('toolu_02')]),
    { role: 'tool', tool_call_id: 'toolu_01', content: 'a.ts' },
    { role: 'tool', tool_call_id: 'toolu_02', content: 'b.ts' },
  ];
  const out = geminiConversation(messages, null, true) as Record<string, unknown>[];
  const [first, second] = out[1]?.tool_calls as unknown[];
  assert.equal(thoughtSignatureOf(first), STAND_IN_SIGNATURE);
  assert.equal(thoughtSignatureOf(second), null);
  assert.deepEqual(out[1]?.tool_calls, [
    call('toolu_01', { google: { thought_signature: STAND_IN_SIGNATURE } }),
    call('toolu_02'),
  ]);
  assert.deepEqual([out[0], out[2], out[3]], [messages[0], messages[2], messages[3]]);
  // The messages given are not changed.
  assert.equal(thoughtSignatureOf((messages[1] as { tool_calls: unknown[] }).tool_calls[0]), null);
});

test('a turn that kept its own signature goes up as it came, other extra content beside a stand-in kept', () => {
  const kept = turn([call('c1', { google: { thought_signature: 'CrICAdHt' } }), call('c2')]);
  // Parallel calls: Gemini signs only the first, so a signature on any call means the turn kept its own.
  const later = turn([call('c3'), call('c4', { google: { thought_signature: 'Zk9v' } })]);
  const out = geminiConversation([kept, later], null, true);
  assert.equal(out[0], kept);
  assert.equal(out[1], later);
  const other = turn([call('c5', { google: { cached: true }, vendor: 'x' })]);
  const [signedTurn] = geminiConversation([other], null, true) as Record<string, unknown>[];
  assert.deepEqual((signedTurn?.tool_calls as Record<string, unknown>[])[0]?.extra_content, {
    google: { cached: true, thought_signature: STAND_IN_SIGNATURE },
    vendor: 'x',
  });
});

test('each call gets the signature remembered for it; a turn with none remembered gets the stand-in', () => {
  const signatures = new ThoughtSignatures();
  signatures.remember(call('c1', { google: { thought_signature: 'Sig1' } }));
  signatures.remember(call('c4', { google: { thought_signature: 'Sig4' } }));
  const turns = [turn([call('c1'), call('c2')]), turn([call('c3'), call('c4')]), turn([call('c5')])];
  const out = geminiConversation(turns, signatures, true) as { tool_calls: unknown[] }[];
  assert.deepEqual(
    out.map((t) => t.tool_calls.map(thoughtSignatureOf)),
    [['Sig1', null], [null, 'Sig4'], [STAND_IN_SIGNATURE]],
  );
  // The memory's signature, not the stand-in, and the turns given are not changed.
  assert.deepEqual(out[0]?.tool_calls[0], call('c1', { google: { thought_signature: 'Sig1' } }));
  assert.equal(thoughtSignatureOf(turns[0]?.tool_calls[0]), null);
});

test('turns without tool calls, and anything that is not a message, are left as they are', () => {
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'assistant', content: 'Done.' },
    { role: 'assistant', content: null, tool_calls: [] },
    { role: 'assistant', content: null, tool_calls: ['not a call'] },
    'not a message',
  ];
  const out = geminiConversation(messages, null, true);
  messages.forEach((message, at) => assert.equal(out[at], message));
});

test("Google's preset signs the calls and keeps every parameter; Gemini models before 3 get no stand-in", () => {
  const body = {
    model: 'fcm',
    parallel_tool_calls: true,
    temperature: 1.5,
    user: 'u',
    messages: [{ role: 'user', content: 'go' }, turn([call('c1')])],
  };
  const out = applyBodyPreset(body, 'gemini', null);
  assert.equal(out.parallel_tool_calls, true);
  assert.equal(out.temperature, 1.5);
  assert.equal(out.user, 'u');
  assert.deepEqual(out.messages, geminiConversation(body.messages, null, true));
  for (const id of ['gemini-3.5-flash', 'gemini-3-flash-preview', 'gemini-3.1-pro-preview', 'gemini-4-pro'])
    assert.equal(bodyPresetOf('gemini', id), 'gemini', id);
  for (const id of ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash', 'models/gemini-1.5-pro'])
    assert.equal(bodyPresetOf('gemini', id), 'gemini-before-3', id);
  // Before 3: the signatures remembered go back (the router took them out of the agent's body), no stand-in.
  const signatures = new ThoughtSignatures();
  signatures.remember(call('c1', { google: { thought_signature: 'Sig1' } }));
  const before3 = applyBodyPreset(
    { ...body, messages: [...body.messages, turn([call('c2')])] },
    'gemini-before-3',
    signatures,
  );
  const turns = (before3.messages as { tool_calls?: unknown[] }[]).flatMap((m) => m.tool_calls ?? []);
  assert.deepEqual(turns.map(thoughtSignatureOf), ['Sig1', null]);
  assert.equal(before3.temperature, 1.5);
});

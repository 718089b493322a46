import { test } from 'node:test';
import assert from 'node:assert/strict';
import { thoughtSignatureOf, ThoughtSignatures } from './thought-signatures.js';

const call = (id: string, extra?: Record<string, unknown>) => ({
  id,
  type: 'function',
  function: { name: 'Bash', arguments: '{"command":"ls"}' },
  ...(extra ? { extra_content: extra } : {}),
});
const signedCall = (id: string, signature: string) => call(id, { google: { thought_signature: signature } });

test("a call's signature is remembered by its id; calls without an id or a signature are passed over", () => {
  const signatures = new ThoughtSignatures();
  signatures.remember(signedCall('c1', 'Sig1'));
  signatures.remember(call('c2'));
  signatures.remember({ ...signedCall('', 'SigEmpty') });
  signatures.remember({ type: 'function', extra_content: { google: { thought_signature: 'SigNoId' } } });
  signatures.remember(call('c3', { google: { thought_signature: 42 } }));
  assert.equal(signatures.of('c1'), 'Sig1');
  for (const id of ['c2', '', 'c3']) assert.equal(signatures.of(id), undefined, id);
  signatures.remember(signedCall('c1', 'Sig1b'));
  assert.equal(signatures.of('c1'), 'Sig1b', 'a newer signature for the same call replaces the old');
});

test('the oldest signatures go first, past either limit', () => {
  const byCount = new ThoughtSignatures({ calls: 2, chars: 1000 });
  for (const id of ['a', 'b', 'c']) byCount.remember(signedCall(id, `sig-${id}`));
  assert.deepEqual(
    ['a', 'b', 'c'].map((id) => byCount.of(id)),
    [undefined, 'sig-b', 'sig-c'],
  );
  const bySize = new ThoughtSignatures({ calls: 100, chars: 10 });
  bySize.remember(signedCall('a', 'x'.repeat(4)));
  bySize.remember(signedCall('b', 'y'.repeat(4)));
  bySize.remember(signedCall('c', 'z'.repeat(4)));
  assert.deepEqual(
    ['a', 'b', 'c'].map((id) => bySize.of(id)?.length),
    [undefined, 4, 4],
  );
  // Remembering a call again makes it the newest: what goes next is the one not seen since.
  const renewed = new ThoughtSignatures({ calls: 2, chars: 1000 });
  renewed.remember(signedCall('a', 'A'));
  renewed.remember(signedCall('b', 'B'));
  renewed.remember(signedCall('a', 'A'));
  renewed.remember(signedCall('c', 'C'));
  assert.deepEqual(
    ['a', 'b', 'c'].map((id) => renewed.of(id)),
    ['A', undefined, 'C'],
  );
});

test("a JSON answer's tool calls are remembered from its first choice", () => {
  const signatures = new ThoughtSignatures();
  const message = { role: 'assistant', content: null, tool_calls: [signedCall('c1', 'S1'), call('c2')] };
  signatures.rememberAnswer({ choices: [{ index: 0, message, finish_reason: 'tool_calls' }] });
  assert.equal(signatures.of('c1'), 'S1');
  for (const answer of [null, {}, { choices: [] }, { choices: ['x'] }, { choices: [{ message: {} }] }])
    signatures.rememberAnswer(answer);
});

test("a body's signatures are set aside: remembered, and taken out of copies of their turns", () => {
  const signatures = new ThoughtSignatures();
  const signedTurn = {
    role: 'assistant',
    content: null,
    tool_calls: [
      call('c1', { google: { thought_signature: 'S1', cached: true }, vendor: 'v' }),
      signedCall('c2', 'S2'),
      call('c3'),
    ],
  };
  const plainTurn = { role: 'assistant', content: null, tool_calls: [call('c4')] };
  const user = { role: 'user', content: 'go' };
  const body = { model: 'fcm', messages: [user, signedTurn, plainTurn] };
  signatures.setAside(body);
  assert.deepEqual(body.messages[1], {
    role: 'assistant',
    content: null,
    tool_calls: [call('c1', { google: { cached: true }, vendor: 'v' }), call('c2'), call('c3')],
  });
  assert.equal(body.messages[0], user);
  assert.equal(body.messages[2], plainTurn);
  assert.equal(thoughtSignatureOf(signedTurn.tool_calls[0]), 'S1', 'the turn it was given is not changed');
  assert.deepEqual(
    ['c1', 'c2', 'c3'].map((id) => signatures.of(id)),
    ['S1', 'S2', undefined],
  );
  // A body with no signature keeps its very messages.
  const plain = { messages: [user, plainTurn] };
  const before = plain.messages;
  signatures.setAside(plain);
  assert.equal(plain.messages, before);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TOOL_ARGUMENTS_CHARS } from '../../gate/answer-rules.js';
import { MAX_OPEN_CALLS, ToolCallHold } from './tool-call-hold.js';

const hold = (): ToolCallHold => {
  let n = 0;
  return new ToolCallHold(new Set(['Bash', 'Read']), () => `minted_${(n += 1)}`);
};

test('pieces are held until the stream moves on; then the call goes whole', () => {
  const h = hold();
  assert.deepEqual(h.piece(0, 'call_1', 'Bash', '{"comm'), { calls: [], problem: null });
  assert.deepEqual(h.piece(0, null, null, 'and":"ls"}'), { calls: [], problem: null });
  assert.equal(h.holding, true);
  assert.deepEqual(h.letGo(), {
    calls: [{ id: 'call_1', name: 'Bash', args: '{"command":"ls"}', legacy: false, extra: null }],
    problem: null,
  });
  assert.equal(h.holding, false);
});

test('a piece of the next call lets the one before go; a call without an id gets one minted', () => {
  const h = hold();
  h.piece(0, null, 'Read', '{"path":"a"}');
  const step = h.piece(1, 'call_2', 'Bash', '{}');
  assert.deepEqual(step.calls, [
    { id: 'minted_1', name: 'Read', args: '{"path":"a"}', legacy: false, extra: null },
  ]);
  assert.deepEqual(h.letGo().calls, [{ id: 'call_2', name: 'Bash', args: '{}', legacy: false, extra: null }]);
});

test("a call keeps the provider's additions, the first piece's that has them", () => {
  const h = hold();
  const extra = { google: { thought_signature: 'CrICAdHt' } };
  h.piece(0, 'call_1', 'Bash', '{"comm', { extra });
  h.piece(0, null, null, 'and":"ls"}', { extra: { google: { thought_signature: 'later' } } });
  assert.deepEqual(h.letGo().calls, [
    { id: 'call_1', name: 'Bash', args: '{"command":"ls"}', legacy: false, extra },
  ]);
});

test('a new id at the same index is a new call (some upstreams number every call 0)', () => {
  const h = hold();
  h.piece(0, 'call_a', 'Bash', '{}');
  assert.equal(h.piece(0, 'call_b', 'Read', '{}').calls[0]?.id, 'call_a');
});

test('empty arguments go as {}; unusable calls are refused with what is wrong', () => {
  const h = hold();
  h.piece(0, 'c', 'Bash', '');
  assert.equal(h.letGo().calls[0]?.args, '{}');
  h.piece(0, 'd', 'Nope', '{}');
  assert.equal(h.letGo().problem, 'a call to a tool the request did not offer');
  const broken = hold();
  broken.piece(0, 'e', 'Bash', '{"command": "ls", <|tool_call_end|>');
  assert.equal(broken.letGo().problem, 'tool call arguments are not JSON');
});

test('a piece for a call already let go is refused unless it is blank', () => {
  const h = hold();
  h.piece(0, 'c', 'Bash', '{}');
  h.letGo();
  assert.deepEqual(h.piece(0, null, null, ' '), { calls: [], problem: null });
  assert.equal(h.piece(0, null, null, '"x"').problem, 'a tool call piece after its call ended');
});

test('pieces of parallel calls may come interleaved: each call stays open, and they leave whole in index order', () => {
  const h = hold();
  h.piece(0, 'call_a', 'Read', '{"path":');
  assert.deepEqual(h.piece(1, 'call_b', 'Bash', '{"command":'), { calls: [], problem: null });
  h.piece(0, null, null, '"a.ts"}');
  h.piece(1, null, null, '"ls"}');
  assert.deepEqual(
    h.letGo().calls.map(({ id, args }) => [id, args]),
    [
      ['call_a', '{"path":"a.ts"}'],
      ['call_b', '{"command":"ls"}'],
    ],
  );
});

test('when a call begins, only the whole calls before the first that is not go: the order holds', () => {
  const h = hold();
  h.piece(0, 'a', 'Read', '{"path":');
  h.piece(1, 'b', 'Bash', '{}');
  assert.deepEqual(h.piece(2, 'c', 'Bash', '{"command":').calls, [], 'a is not whole: b waits behind it');
  h.piece(0, null, null, '"x"}');
  const step = h.piece(3, 'd', 'Read', '{}');
  assert.deepEqual(
    step.calls.map((call) => call.id),
    ['a', 'b'],
  );
  h.piece(2, null, null, '"ls"}');
  assert.deepEqual(
    h.letGo().calls.map((call) => call.id),
    ['c', 'd'],
  );
});

test('calls held open together keep the bound of one: their arguments, and how many', () => {
  const half = 'x'.repeat(MAX_TOOL_ARGUMENTS_CHARS / 2);
  const h = hold();
  h.piece(0, 'a', 'Bash', `{"a":"${half}`);
  assert.equal(h.piece(1, 'b', 'Bash', `{"b":"${half}`).problem, 'tool call arguments too long');
  const many = hold();
  for (let index = 0; index < MAX_OPEN_CALLS; index += 1)
    assert.equal(many.piece(index, `c${index}`, 'Bash', '{"a":').problem, null);
  assert.equal(many.piece(MAX_OPEN_CALLS, 'last', 'Bash', '{').problem, 'too many tool calls at once');
});

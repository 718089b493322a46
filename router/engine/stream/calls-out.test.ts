import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ThoughtSignatures } from '../../upstream/thought-signatures.js';
import { CallsOut, carriesCallPieces } from './calls-out.js';

const OFFERED = new Set(['Read', 'Bash']);
const minter = (): (() => string) => {
  let n = 0;
  return () => `call_minted_${(n += 1)}`;
};

test('call pieces leave the delta, and each call goes whole in a delta of its own, numbered as it leaves', () => {
  const calls = new CallsOut(OFFERED, minter(), null);
  const first = { tool_calls: [{ index: 0, id: 'a', function: { name: 'Read', arguments: '{"pa' } }] };
  assert.deepEqual(calls.takeFrom(first), { out: [], problem: null });
  assert.deepEqual(first, {}, 'the pieces were taken out of the delta');
  assert.equal(calls.holding, true);
  // A second call begins: the first is whole and goes.
  const second = calls.takeFrom({
    tool_calls: [
      { index: 0, function: { arguments: 'th":"a"}' } },
      { index: 1, function: { name: 'Bash', arguments: '{"command":"ls"}' } },
    ],
  });
  assert.deepEqual(second.out, [
    {
      name: 'Read',
      delta: {
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'Read', arguments: '{"path":"a"}' } },
        ],
      },
    },
  ]);
  const rest = calls.letGo();
  assert.deepEqual(rest.out[0]?.delta, {
    tool_calls: [
      {
        index: 1,
        id: 'call_minted_1',
        type: 'function',
        function: { name: 'Bash', arguments: '{"command":"ls"}' },
      },
    ],
  });
  assert.equal(calls.kind, 'tool_calls');
  assert.equal(calls.holding, false);
});

test('a legacy function_call goes as one, and counts as such until a tool call goes', () => {
  const calls = new CallsOut(OFFERED, minter(), null);
  const delta = { function_call: { name: 'Read', arguments: '{"path":"a"}' } };
  assert.equal(carriesCallPieces(delta), true);
  calls.takeFrom(delta);
  assert.deepEqual(calls.letGo().out, [
    { name: 'Read', delta: { function_call: { name: 'Read', arguments: '{"path":"a"}' } } },
  ]);
  assert.equal(calls.kind, 'function_call');
  assert.equal(carriesCallPieces({ content: 'hi', tool_calls: null }), false);
});

test('calls read from the text go as calls; the provider’s signature is remembered as its call leaves', () => {
  const signatures = new ThoughtSignatures();
  const calls = new CallsOut(OFFERED, minter(), signatures);
  assert.deepEqual(
    calls.addRead([{ name: 'Bash', args: '{"command":"ls"}' }]).out,
    [],
    'held until the next',
  );
  const extra = { google: { thought_signature: 'sig-1' } };
  const went = calls.takeFrom({
    tool_calls: [{ index: 1, id: 'g1', extra_content: extra, function: { name: 'Read', arguments: '{}' } }],
  });
  const out = [...went.out, ...calls.letGo().out].map(({ delta }) => delta);
  assert.deepEqual(
    out.map((delta) => (delta.tool_calls as { index: number; id: string }[])[0]),
    [
      {
        index: 0,
        id: 'call_minted_1',
        type: 'function',
        function: { name: 'Bash', arguments: '{"command":"ls"}' },
      },
      {
        index: 1,
        id: 'g1',
        type: 'function',
        function: { name: 'Read', arguments: '{}' },
        extra_content: extra,
      },
    ],
  );
  assert.equal(signatures.of('g1'), 'sig-1');
});

test('a call the agent cannot run stops the step: its problem, and no call after it', () => {
  const calls = new CallsOut(OFFERED, minter(), null);
  calls.takeFrom({
    tool_calls: [
      { index: 0, function: { name: 'Write', arguments: '{}' } },
      { index: 1, function: { name: 'Read', arguments: '{}' } },
    ],
  });
  assert.deepEqual(calls.letGo(), { out: [], problem: 'a call to a tool the request did not offer' });
  assert.equal(calls.kind, null);
});

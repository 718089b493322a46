import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunk, DONE, toolPiece } from '../../faces/test-kit.js';
import { FORCED_CALL_MISSING } from '../../gate/answer-rules.js';
import type { StreamPart } from '../../gate/stream-part.js';
import { THOUGHTS_ALONE } from './ending-hold.js';
import { beforeContent, FORCED_CALL_LATE, ForcedCall } from './forced-call.js';
import type { ShapingRules } from './shaping-rules.js';
import { StreamShaper } from './stream-shaper.js';

const TOOLS = new Set(['Read', 'Write']);
const rules = (forced: ReadonlySet<string> | null, holdLimit = 4096): ShapingRules => ({
  tools: TOOLS,
  forced,
  continuing: null,
  holdLimit,
  mintId: () => 'minted',
  signatures: null,
});
const bytes = (text: string): Buffer => Buffer.from(text);
const text = (out: StreamPart | null): string => (out === null ? '' : Buffer.from(out as Buffer).toString());
const call = (name: string, args = '{"path":"a"}'): Buffer =>
  bytes(chunk({ tool_calls: [toolPiece(0, `call_${name}`, name, args)] }));
const missing = { kind: 'tool_choice_ignored', detail: FORCED_CALL_MISSING };

test('before content: within the hold buffer a stream waits; past it, it goes unless a forced call is missing', () => {
  assert.equal(beforeContent(false, 'none'), 'wait');
  assert.equal(beforeContent(false, 'missing'), 'wait');
  assert.equal(beforeContent(true, 'none'), 'go');
  assert.equal(beforeContent(true, 'under_way'), 'wait');
  assert.equal(beforeContent(true, 'missing'), 'fail');
});

test('a forced call is met by a call to a forced tool only', () => {
  const named = new ForcedCall(new Set(['Read']));
  assert.equal(named.met, false);
  named.called('Write');
  assert.equal(named.met, false);
  named.called('Read');
  assert.equal(named.met, true);
  assert.equal(new ForcedCall(null).met, true, 'nothing forced: nothing awaited');
});

test('forced: prose waits for the call, and goes out with it', () => {
  const shaper = new StreamShaper(rules(TOOLS), 'bytes');
  assert.equal(shaper.shape(bytes(chunk({ role: 'assistant', content: 'Reading ' }))).out, null);
  assert.equal(shaper.shape(bytes(chunk({ reasoning_content: 'first a.' }))).out, null);
  assert.equal(shaper.shape(call('Read')).out, null, 'the call is held until whole');
  const out = text(shaper.shape(bytes(chunk({}, 'tool_calls') + DONE)).out);
  assert.match(out, /Reading /);
  assert.match(out, /"name":"Read"/);
  assert.match(out, /\[DONE\]/);
  assert.equal(shaper.end().problem, null);
});

test('forced: an answer that ends without the call fails, at its finish reason or at [DONE]', () => {
  const prose = new StreamShaper(rules(TOOLS), 'bytes');
  assert.equal(prose.shape(bytes(chunk({ content: 'I would read a.' }))).out, null);
  assert.deepEqual(prose.shape(bytes(chunk({}, 'stop'))), { out: null, read: null, problem: missing });
  const undone = new StreamShaper(rules(TOOLS), 'bytes');
  undone.shape(bytes(chunk({ content: 'I would read a.' })));
  assert.deepEqual(undone.shape(bytes(DONE)).problem, missing);
  const cut = new StreamShaper(rules(TOOLS), 'bytes');
  cut.shape(bytes(chunk({ content: 'I would read a.' })));
  assert.equal(cut.lastLine().problem, null);
  assert.deepEqual(cut.end().problem, missing, 'nor at the end of the stream');
});

test('forced by name: a call to another tool waits, and fails the answer when it ends with no other', () => {
  const other = new StreamShaper(rules(new Set(['Read'])), 'bytes');
  other.shape(call('Write'));
  assert.deepEqual(other.shape(bytes(chunk({}, 'tool_calls'))).problem, missing);
  const both = new StreamShaper(rules(new Set(['Read'])), 'bytes');
  assert.equal(both.shape(call('Write')).out, null);
  const pieces = bytes(chunk({ tool_calls: [toolPiece(1, 'call_Read', 'Read', '{}')] }));
  assert.equal(both.shape(pieces).out, null, 'the other call waits for the forced one');
  const out = text(both.shape(bytes(chunk({}, 'tool_calls'))).out);
  assert.match(out, /"name":"Write".*"name":"Read"/s);
});

test('forced: reasoning alone that ends is an empty answer, as without a forced call', () => {
  const shaper = new StreamShaper(rules(TOOLS), 'bytes');
  assert.equal(shaper.shape(bytes(chunk({ reasoning_content: 'Let me think.' }))).out, null);
  assert.equal(shaper.shape(bytes(chunk({}, 'stop') + DONE)).problem, null);
  assert.deepEqual(shaper.end().problem, { kind: 'empty_content', detail: THOUGHTS_ALONE });
});

test('forced: past the hold buffer with no call under way the answer fails; a call under way is waited for', () => {
  const words = bytes(chunk({ content: 'x'.repeat(300) }));
  const prose = new StreamShaper(rules(TOOLS, 1024), 'bytes');
  let last = prose.shape(words);
  for (let i = 0; i < 4 && last.problem === null; i += 1) last = prose.shape(words);
  assert.deepEqual(last, {
    out: null,
    read: null,
    problem: { kind: 'tool_choice_ignored', detail: FORCED_CALL_LATE },
  });
  const long = new StreamShaper(rules(TOOLS, 1024), 'bytes');
  long.shape(bytes(chunk({ tool_calls: [toolPiece(0, 'call_1', 'Write', '{"text":"')] })));
  // Each piece leaves a role frame waiting (about 130 bytes): twelve are past the hold buffer.
  for (let i = 0; i < 12; i += 1) {
    const piece = bytes(
      chunk({ role: 'assistant', tool_calls: [toolPiece(0, null, null, 'y'.repeat(300))] }),
    );
    assert.deepEqual(long.shape(piece), { out: null, read: null, problem: null });
  }
  const end = bytes(chunk({ tool_calls: [toolPiece(0, null, null, '"}')] }, 'tool_calls'));
  assert.match(text(long.shape(end).out), /"name":"Write"/);
});

test('not forced: prose commits as it comes, and past the hold buffer a stream goes unjudged', () => {
  const shaper = new StreamShaper(rules(null), 'bytes');
  assert.match(text(shaper.shape(bytes(chunk({ content: 'Hello' }))).out), /Hello/);
  const quiet = new StreamShaper(rules(null, 1024), 'bytes');
  const role = bytes(chunk({ role: 'assistant', content: '' }));
  let out: StreamPart | null = null;
  for (let i = 0; i < 20 && out === null; i += 1) out = quiet.shape(role).out;
  assert.notEqual(out, null);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextCallHold } from './text-call-hold.js';

const OFFERED = new Set(['Read']);

test('words go on at once, with the text that waited before them', () => {
  const hold = new TextCallHold(OFFERED, 1000);
  assert.equal(hold.push('  '), null);
  assert.equal(hold.push('<'), null);
  assert.equal(hold.push('b>Bold'), '  <b>Bold');
  assert.equal(hold.push(' it is.'), ' it is.', 'the words after them go on as they come');
});

test('words are watched for calls written on their own line after them, read at the end', () => {
  const hold = new TextCallHold(OFFERED, 1000);
  assert.equal(hold.push('Sure, '), 'Sure, ');
  assert.equal(hold.push('reading it.\n'), 'reading it.\n');
  assert.equal(hold.push('<tool_call>{"name":"Read",'), '');
  assert.equal(hold.push('"arguments":{"path":"a"}}</tool_call>'), '');
  assert.equal(hold.reading, true);
  assert.deepEqual(hold.end(), { kind: 'calls', calls: [{ name: 'Read', args: '{"path":"a"}' }] });
  assert.equal(hold.reading, false);

  const other = new TextCallHold(OFFERED, 1000);
  assert.equal(other.push('Ok.\n<tool_call>{"name":"Read"'), 'Ok.\n');
  assert.equal(other.stop(), '<tool_call>{"name":"Read"', 'a call of its own came: what waited is words');
  assert.equal(other.reading, false);
});

test('text that may be calls waits for the end, which reads it: calls, or words as they came', () => {
  const calls = new TextCallHold(OFFERED, 1000);
  for (const piece of ['<tool_', 'call>{"name":"Read",', '"arguments":{"path":"a"}}</tool_call>'])
    assert.equal(calls.push(piece), null);
  assert.deepEqual(calls.end(), {
    kind: 'calls',
    calls: [{ name: 'Read', args: '{"path":"a"}' }],
  });
  assert.equal(calls.reading, false);

  const json = new TextCallHold(OFFERED, 1000);
  assert.equal(json.push('{"name": "Ada", '), null);
  assert.equal(json.push('"age": 36}'), null);
  assert.deepEqual(json.end(), { kind: 'words', text: '{"name": "Ada", "age": 36}' });

  const other = new TextCallHold(OFFERED, 1000);
  assert.equal(other.push('{"answer": 42}'), '{"answer": 42}', 'JSON of another shape goes on at once');
});

test('past its limit the text that waited goes on as words, unread', () => {
  const hold = new TextCallHold(OFFERED, 16);
  assert.equal(hold.push('<tool_call>{"na'), null);
  assert.equal(hold.push('me":'), '<tool_call>{"name":');
  assert.equal(hold.reading, false);
});

test('stop lets the text that waited go as words (the answer went on with other content)', () => {
  const hold = new TextCallHold(OFFERED, 1000);
  assert.equal(hold.push('\n'), null);
  assert.equal(hold.stop(), '\n');
  assert.equal(hold.reading, false);
});

test('a think block opening the text goes on as it comes; the text after it is read afresh', () => {
  const hold = new TextCallHold(OFFERED, 1000);
  assert.equal(hold.push('\n<th'), null, 'a think block may open');
  assert.equal(hold.push('ink>Need a.'), '\n<think>Need a.');
  assert.equal(hold.push(' More.</thi'), ' More.', 'the start of its close waits');
  assert.equal(hold.push('nk>\n\n<tool_call>{"name":"Read",'), '</think>');
  assert.equal(hold.push('"arguments":{"path":"a"}}</tool_call>'), null);
  assert.deepEqual(hold.end(), {
    kind: 'calls',
    calls: [{ name: 'Read', args: '{"path":"a"}' }],
  });

  const words = new TextCallHold(OFFERED, 1000);
  assert.equal(words.push('<think>Hm.</think>\n'), '<think>Hm.</think>');
  assert.equal(words.push('Hello.'), '\nHello.');
  assert.equal(words.push(' Bye.'), ' Bye.', 'the words go on as they come');

  const cut = new TextCallHold(OFFERED, 1000);
  assert.equal(cut.push('<think>Still thinking</th'), '<think>Still thinking');
  assert.deepEqual(cut.end(), { kind: 'words', text: '</th' }, 'a block that never closed ends as words');
});

test('a think block ends at its own close, whatever tags the words after it name', () => {
  const hold = new TextCallHold(OFFERED, 1000);
  assert.equal(hold.push('<think>a'), '<think>a');
  assert.equal(hold.push(' b</think>\nSee the <think> tags.'), ' b</think>\nSee the <think> tags.');
  assert.equal(hold.push(' Ok.'), ' Ok.', 'the words after the block were read as words');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endsWithDone, lineEndsAfter, onlyComments } from './stream-part.js';

test("a part ends the stream when its last line but comments is the upstream's [DONE], and only then", () => {
  const cases: [string, boolean | null][] = [
    ['data: {"choices":[]}\n\ndata: [DONE]\n\n', true],
    ['data:[DONE]', true],
    ['data: [DONE]\r\n\r\n', true],
    ['\n\n', null],
    ['data: {"choices":[{"delta":{"content":"[DONE]"}}]}\n\n', false],
    ['data: {"content":"the text says data: [DONE]\n', false],
    [': [DONE]\n\n', null],
    [': ping\n\n: ping\n\n', null],
    ['data: [DONE]\n\n: ping\n\n', true],
    ['data: [DONE]\r\n\r\n\r\n: keep-alive\r\n\r\n:\r\n\r\n', true],
    ['data: [DONE]\n\n: ping\n\ndata: {"choices":[]}\n\n', false],
    ['data: [DONE]\n\n: ping\n\ndata: {"choices":[]}\n\n: ping\n\n', false],
    // Only short comments are looked past: a long line is no keep-alive.
    [`data: [DONE]\n\n: ${'x'.repeat(300)}\n\n`, false],
    [`data: [DONE]\n\n${': ping\n\n'.repeat(9)}`, false],
    [`data: [DONE]\n\n${': ping\n\n'.repeat(8)}`, true],
  ];
  for (const [text, ends] of cases) assert.equal(endsWithDone(Buffer.from(text)), ends, text);
  assert.equal(endsWithDone({ frames: [{ choices: [] }, '[DONE]'], bytes: 9 }), true);
  assert.equal(endsWithDone({ frames: [{ choices: [] }], bytes: 9 }), false);
  assert.equal(endsWithDone({ frames: [], bytes: 0 }), null);
});

test('a chunk is comments alone when every line in it is a comment or blank', () => {
  const cases: [string, boolean][] = [
    [': ping\n\n', true],
    [':\r\n\r\n: keep-alive\r\n\r\n', true],
    ['\n', true],
    [': ping', true],
    ['data: {"choices":[]}\n\n', false],
    [': ping\n\ndata: {"choices":[]}\n\n', false],
    [': ping\n\nevent: ping\n\n', false],
    ['data: [DONE]\n\n', false],
  ];
  for (const [text, comments] of cases) assert.equal(onlyComments(Buffer.from(text)), comments, text);
});

test('the line ends a stream closes with are counted from its end, up to an event end, across parts', () => {
  const cases: [string, number, number][] = [
    ['data: {}\n\n', 0, 2],
    ['data: {}\r\n\r\n', 0, 2],
    ['data: {}\n\n\n', 0, 2],
    ['data: {}\n', 2, 1],
    ['data: {}\r\n', 2, 1],
    ['data: {}', 2, 0],
    ['\n', 1, 2],
    ['\r\n', 0, 1],
    ['\n', 0, 1],
  ];
  for (const [text, before, ends] of cases)
    assert.equal(lineEndsAfter(Buffer.from(text), before), ends, JSON.stringify([text, before]));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endsWithDone } from './stream-part.js';

test("a part ends the stream when its last line is the upstream's [DONE], and only then", () => {
  const cases: [string, boolean | null][] = [
    ['data: {"choices":[]}\n\ndata: [DONE]\n\n', true],
    ['data:[DONE]', true],
    ['data: [DONE]\r\n\r\n', true],
    ['\n\n', null],
    ['data: {"choices":[{"delta":{"content":"[DONE]"}}]}\n\n', false],
    ['data: {"content":"the text says data: [DONE]\n', false],
    [': [DONE]\n\n', false],
    ['data: [DONE]\n\n: ping\n\n', false],
  ];
  for (const [text, ends] of cases) assert.equal(endsWithDone(Buffer.from(text)), ends, text);
  assert.equal(endsWithDone({ frames: [{ choices: [] }, '[DONE]'], bytes: 9 }), true);
  assert.equal(endsWithDone({ frames: [{ choices: [] }], bytes: 9 }), false);
  assert.equal(endsWithDone({ frames: [], bytes: 0 }), null);
});

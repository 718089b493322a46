import { test } from 'node:test';
import assert from 'node:assert/strict';
import { droppedLength, textLength } from './unsent-text.js';

test('textLength counts keys and strings, never more than the serialised length', () => {
  const block = { type: 'thinking', thinking: 'I should read the tests.', signature: 'sig' };
  assert.equal(textLength(block), 4 + 8 + 8 + 24 + 9 + 3);
  const nested = { summary: [{ type: 'summary_text', text: 'ééé\n"quoted"' }], n: 3, ok: true, none: null };
  assert.ok(textLength(nested) <= Buffer.byteLength(JSON.stringify(nested)));
  assert.equal(textLength(nested), 7 + 4 + 12 + 4 + 12 + 1 + 2 + 4);
});

test('droppedLength counts only the items of the dropped types', () => {
  const items = [
    { type: 'text', text: 'kept' },
    { type: 'thinking', thinking: 'abc' },
    'a string item',
    null,
    { type: 'redacted_thinking', data: 'xyz' },
  ];
  const dropped = new Set(['thinking', 'redacted_thinking']);
  assert.equal(droppedLength(items, dropped), 4 + 8 + 8 + 3 + (4 + 17 + 4 + 3));
  assert.equal(droppedLength(items, new Set()), 0);
});

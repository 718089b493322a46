import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { textPastThinkBlock, ThinkTagReader } from './think-tags.js';

test('a whole answer: what it says is the text after the think block that opens it', () => {
  assert.equal(textPastThinkBlock('<think>Hmm, ls.</think>\n\nRun ls.'), 'Run ls.');
  assert.equal(textPastThinkBlock('\n<think>\nOnly thoughts.\n</think>\n'), '');
  assert.equal(textPastThinkBlock('<think>Cut in its thoughts'), '');
  // Only a block that opens the text: a tag later on is the answer's own words.
  assert.equal(
    textPastThinkBlock('Use <think> tags like this: <think>x</think>'),
    'Use <think> tags like this: <think>x</think>',
  );
  assert.equal(textPastThinkBlock('Plain answer.'), 'Plain answer.');
});

/** Every piece through a reader, what it said joined. */
function readAll(pieces: readonly string[]): string {
  const reader = new ThinkTagReader();
  return pieces.map((piece) => reader.push(piece)).join('') + reader.end();
}

test('a stream: tags split across pieces are read as tags; nothing said is lost or doubled', () => {
  assert.equal(readAll(['<th', 'ink>Hm', 'm.</th', 'ink>', '\n\n', 'Hi', ' there.']), 'Hi there.');
  assert.equal(readAll(['<', 'b>bold</b>']), '<b>bold</b>');
  assert.equal(readAll(['  ', '\n']), '  \n');
  assert.equal(readAll(['<think>a < b and c </thin', 'king about it']), '');
});

test('a plain answer is said as it comes, and is no more read after its first words', () => {
  const reader = new ThinkTagReader();
  assert.equal(reader.push('Hello'), 'Hello');
  assert.equal(reader.reading, false);
  assert.equal(reader.push(' <think>'), ' <think>');
});

test('thoughts say nothing; only what may begin the close waits, and the words after it are said at once', () => {
  const reader = new ThinkTagReader();
  assert.equal(reader.push('<think>Let me'), '');
  assert.equal(reader.push(' see </'), '');
  assert.equal(reader.reading, true);
  assert.equal(reader.push('think>Done.'), 'Done.');
  assert.equal(reader.reading, false);
});

test('any text in any pieces says what the whole text does', () => {
  const text = fc.oneof(
    fc.constantFrom('', ' ', '\n', '<', '</', '<think>', '</think>', '<thi', 'nk>', 'a', 'b c'),
    fc.string({ maxLength: 6 }),
  );
  fc.assert(
    fc.property(fc.array(text, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
      const whole = parts.join('');
      const at = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...at].map((from, i) => whole.slice(from, at[i] ?? whole.length));
      assert.equal(readAll(pieces), textPastThinkBlock(whole));
    }),
    { numRuns: 2000 },
  );
});

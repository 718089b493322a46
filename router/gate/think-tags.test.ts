import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitThinkBlock, ThinkTagReader, type ThinkSplit } from './think-tags.js';

test('a whole answer: its opening think block is reasoning, the text after it the answer', () => {
  assert.deepEqual(splitThinkBlock('<think>Hmm, ls.</think>\n\nRun ls.'), {
    reasoning: 'Hmm, ls.',
    content: 'Run ls.',
  });
  assert.deepEqual(splitThinkBlock('\n<think>\nOnly thoughts.\n</think>\n'), {
    reasoning: '\nOnly thoughts.\n',
    content: '',
  });
  assert.deepEqual(splitThinkBlock('<think>Cut in its thoughts'), {
    reasoning: 'Cut in its thoughts',
    content: '',
  });
  // Only a block that opens the text: a tag later on is the answer's own words.
  assert.equal(splitThinkBlock('Use <think> tags like this: <think>x</think>'), null);
  assert.equal(splitThinkBlock('Plain answer.'), null);
});

/** Every piece through a reader, joined. */
function readAll(pieces: readonly string[]): ThinkSplit {
  const reader = new ThinkTagReader();
  const out = { reasoning: '', content: '' };
  for (const split of [...pieces.map((piece) => reader.push(piece)), reader.end()]) {
    out.reasoning += split.reasoning;
    out.content += split.content;
  }
  return out;
}

test('a stream: tags split across pieces are read as tags; nothing is lost or doubled', () => {
  assert.deepEqual(readAll(['<th', 'ink>Hm', 'm.</th', 'ink>', '\n\n', 'Hi', ' there.']), {
    reasoning: 'Hmm.',
    content: 'Hi there.',
  });
  assert.deepEqual(readAll(['<', 'b>bold</b>']), { reasoning: '', content: '<b>bold</b>' });
  assert.deepEqual(readAll(['  ', '\n']), { reasoning: '', content: '  \n' });
  assert.deepEqual(readAll(['<think>a < b and c </thin', 'king about it']), {
    reasoning: 'a < b and c </thinking about it',
    content: '',
  });
});

test('a plain answer goes on as it comes, and is no more read after its first words', () => {
  const reader = new ThinkTagReader();
  assert.deepEqual(reader.push('Hello'), { reasoning: '', content: 'Hello' });
  assert.equal(reader.reading, false);
  assert.deepEqual(reader.push(' <think>'), { reasoning: '', content: ' <think>' });
});

test('thoughts go on as they come: only what may begin the close waits', () => {
  const reader = new ThinkTagReader();
  assert.deepEqual(reader.push('<think>Let me'), { reasoning: 'Let me', content: '' });
  assert.deepEqual(reader.push(' see </'), { reasoning: ' see ', content: '' });
  assert.deepEqual(reader.push('think>Done.'), { reasoning: '', content: 'Done.' });
});

test('any text in any pieces reads as the whole text does', () => {
  const text = fc.oneof(
    fc.constantFrom('', ' ', '\n', '<', '</', '<think>', '</think>', '<thi', 'nk>', 'a', 'b c'),
    fc.string({ maxLength: 6 }),
  );
  fc.assert(
    fc.property(fc.array(text, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
      const whole = parts.join('');
      const at = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...at].map((from, i) => whole.slice(from, at[i] ?? whole.length));
      assert.deepEqual(readAll(pieces), splitThinkBlock(whole) ?? { reasoning: '', content: whole });
    }),
    { numRuns: 2000 },
  );
});

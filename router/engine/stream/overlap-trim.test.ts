import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayRepeatMore, overlapLength, OverlapTrimmer, OVERLAP_WINDOW } from './overlap-trim.js';

test('overlapLength: the longest end of the answer so far that the continuation restates', () => {
  const rows: [string, string, number][] = [
    ['Hello wor', 'world!', 3],
    ['The quick brown fo', 'brown fox jumps', 8],
    ['The quick brown fo', 'The quick brown fox', 18],
    ['It is a', 'n apple', 0],
    // One character is the continuation's own, not a repeat.
    ['sum of a', 'a and b', 0],
    // A repeat must start where a word does: `00` inside `100` is not one.
    ['It costs 100', '00 dollars', 0],
    ['Para one.\n\n', '\n\nPara two', 2],
    ['', 'anything', 0],
  ];
  for (const [tail, head, expected] of rows)
    assert.equal(overlapLength(tail, head), expected, `${tail} | ${head}`);
});

test('mayRepeatMore: a start that stands inside the answer so far may still grow into a repeat', () => {
  assert.equal(mayRepeatMore('The quick brown fo', 'brown'), true);
  assert.equal(mayRepeatMore('The quick brown fo', 'brown fo'), false);
  assert.equal(mayRepeatMore('The quick brown fo', 'x jumps'), false);
  assert.equal(mayRepeatMore('The quick brown fo', 'rown'), false, 'not at a word start');
});

/** Feeds pieces and collects what the trimmer lets out, flushing at the end. */
function feed(sent: string, pieces: string[]): { out: string; released: string[] } {
  const trimmer = new OverlapTrimmer(sent);
  const released = pieces.map((piece) => trimmer.push(piece));
  return { out: released.join('') + trimmer.flush(), released };
}

test('OverlapTrimmer: a restated start is held, then dropped; the rest goes on as it comes', () => {
  const { out, released } = feed('The quick brown fo', ['brown', ' f', 'ox jumps', ' over']);
  assert.equal(out, 'x jumps over');
  assert.deepEqual(released, ['', '', 'x jumps', ' over']);
});

test('OverlapTrimmer: a continuation that repeats nothing is let out once it cannot be a repeat', () => {
  assert.deepEqual(feed('The quick brown fo', ['x', ' jumps']).released, ['x', ' jumps']);
});

test('OverlapTrimmer: flush decides on what is held: a repeat of the end is dropped, anything else kept', () => {
  assert.equal(feed('The quick brown fo', ['brown fo']).out, '');
  assert.equal(feed('Hello wor', ['wor']).out, '');
  assert.equal(feed('The quick brown fo', ['brown f']).out, 'brown f');
});

test('OverlapTrimmer: only the last OVERLAP_WINDOW characters are compared, so the hold is bounded', () => {
  const sent = 'x'.repeat(OVERLAP_WINDOW * 2) + ' tail';
  const trimmer = new OverlapTrimmer(sent);
  assert.equal(trimmer.push('x'.repeat(OVERLAP_WINDOW + 1)), 'x'.repeat(OVERLAP_WINDOW + 1));
});

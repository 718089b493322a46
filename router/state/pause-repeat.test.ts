import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LONGEST_REPEATED_PAUSE_MS, pauseRepeat, repeatedPauseMs, REPEAT_WINDOW_MS } from './pause-repeat.js';

const NOW = 1_000_000_000;

test('a pause is a repeat when the last one of its model and key ran out within the window', () => {
  assert.equal(pauseRepeat(undefined, NOW), 1, 'none since the last success');
  assert.equal(pauseRepeat({ until: NOW - 1000 }, NOW), 2, 'a first pause without a count is 1');
  assert.equal(pauseRepeat({ until: NOW - 1000, repeat: 4 }, NOW), 5);
  assert.equal(pauseRepeat({ until: NOW - REPEAT_WINDOW_MS, repeat: 4 }, NOW), 5, 'the window holds its end');
  assert.equal(pauseRepeat({ until: NOW - REPEAT_WINDOW_MS - 1, repeat: 4 }, NOW), 1, 'too long ago');
  assert.equal(pauseRepeat({ until: NOW + 5000, repeat: 3 }, NOW), 3, 'a 429 in flight while it runs');
});

test('each repeat doubles the length asked for, up to 15 minutes, and never shortens it', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 40].map((repeat) => repeatedPauseMs(30_000, repeat)),
    [30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000],
  );
  assert.equal(LONGEST_REPEATED_PAUSE_MS, 900_000);
  assert.equal(repeatedPauseMs(3_600_000, 2), 3_600_000, 'a longer pause asked for stays as asked');
  assert.equal(repeatedPauseMs(0, 3), 0, 'no length stays none');
});

import { expect, test } from 'vitest';
import { modelView } from '../test-support/fixtures.js';
import { ordinal, routingPositions } from './routing-positions.js';

test('routing positions follow the snapshot’s order and skip what the next request would skip', () => {
  const now = 1000;
  const positions = routingPositions(
    [
      modelView('b/y'),
      modelView('d/w', { state: 'DEGRADED' }),
      modelView('a/x', { state: 'OPEN', openUntil: 5000 }),
      modelView('c/z', { blockedBy: 'missing_key' }),
      modelView('e/v', { state: 'OPEN', openUntil: 900 }),
      modelView('o/t', { inActiveSet: false }),
    ],
    now,
  );
  expect([...positions]).toEqual([
    ['b/y', 1],
    ['d/w', 2],
    ['a/x', null],
    ['c/z', null],
    ['e/v', 3],
  ]);
});

test('ordinals', () => {
  expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
    '1st',
    '2nd',
    '3rd',
    '4th',
    '11th',
    '12th',
    '13th',
    '21st',
    '22nd',
    '101st',
  ]);
});

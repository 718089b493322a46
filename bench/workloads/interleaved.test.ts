import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { turnOrder } from './interleaved.js';

const TARGETS = ['direct', 'relay', 'router'];

describe('turnOrder', () => {
  it('rotates the targets a place a turn, then their reverse', () => {
    const turns = Array.from({ length: 7 }, (_, i) => turnOrder(TARGETS, i).join(' '));
    assert.deepEqual(turns, [
      'direct relay router',
      'relay router direct',
      'router direct relay',
      'router relay direct',
      'relay direct router',
      'direct router relay',
      'direct relay router',
    ]);
    assert.deepEqual(TARGETS, ['direct', 'relay', 'router'], 'the input is left as it was');
  });

  it('over whole cycles, each target runs right after each other one equally often', () => {
    const sequence = Array.from({ length: 6 * 5 }, (_, i) => turnOrder(TARGETS, i)).flat();
    const follows = new Map<string, number>();
    // The sequence wraps around: the next cycle starts where this one started.
    for (let k = 0; k < sequence.length; k += 1) {
      const pair = `${sequence[k]}>${sequence[(k + 1) % sequence.length]}`;
      follows.set(pair, (follows.get(pair) ?? 0) + 1);
    }
    assert.equal(follows.size, 6, `only pairs of distinct targets: ${JSON.stringify([...follows])}`);
    assert.deepEqual(new Set(follows.values()), new Set([15]), JSON.stringify([...follows]));
  });
});
